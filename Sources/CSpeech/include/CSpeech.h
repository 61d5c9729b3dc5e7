#ifndef SLIDEGATE_CSPEECH_H
#define SLIDEGATE_CSPEECH_H

#include <stddef.h>

/* speech-dispatcher's client library (libspeechd.so.2), loaded with dlopen when --speak
   first speaks, and a thread of its own that talks to the server, so that a server that
   is slow or gone never holds up the caller. */

/* Starts the speaking thread for `language` (an ISO 639 code, "en"): returns the
   descriptor to write utterances to (non-blocking; one per line: a priority byte, 2 for
   a message, 3 for text, then the words and '\n'), or -1 with why in `why`. The thread
   connects to SPEECHD_ADDRESS or the default socket, never starting a server, and again
   (at most every 5 s) after the connection failed; what comes while there is none is
   dropped. */
int sg_speech_start(const char *language, char *why, size_t size);

/* Closes `fd` (what was written is still said) and waits at most `patience_ms` for the
   thread to hand the rest to the server and end. */
void sg_speech_finish(int fd, int patience_ms);

/* For --check: whether a server answers now (connects, then closes); 0 with why in `why`. */
int sg_speech_probe(char *why, size_t size);

#endif
