#define _GNU_SOURCE
#include "CSpeech.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct connection connection;

/* The functions used, from libspeechd.h (their ABI since speech-dispatcher 0.8). */
static struct {
    connection *(*open2)(const char *, const char *, const char *, int, void *, int, char **);
    void (*close)(connection *);
    int (*say)(connection *, int, const char *);
    int (*set_language)(connection *, const char *);
} lib;

static int loaded;
static char load_error[200];

static int resolve(void *handle, void *slot, const char *name) {
    void *symbol = dlsym(handle, name);
    if (!symbol) return 0;
    memcpy(slot, &symbol, sizeof symbol);
    return 1;
}

static const char *load(void) {
    if (loaded) return load_error[0] ? load_error : NULL;
    loaded = 1;
    void *handle = dlopen("libspeechd.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(load_error, sizeof load_error, "cannot load libspeechd.so.2 (install libspeechd2)");
        return load_error;
    }
    if (!resolve(handle, &lib.open2, "spd_open2") || !resolve(handle, &lib.close, "spd_close")
        || !resolve(handle, &lib.say, "spd_say") || !resolve(handle, &lib.set_language, "spd_set_language")) {
        snprintf(load_error, sizeof load_error, "libspeechd.so.2 lacks spd_open2, spd_close, spd_say or spd_set_language");
        return load_error;
    }
    return NULL;
}

/* A connection in single mode, never spawning a server; NULL with why. */
static connection *open_connection(char *why, size_t size) {
    char *error = NULL;
    connection *c = lib.open2("slidegate", "lock", NULL, 0, NULL, 0, &error);
    if (!c && why) snprintf(why, size, "%s", error ? error : "no speech-dispatcher answers");
    free(error);
    return c;
}

struct speaker {
    int fd;
    /* Closed when the thread ends: `sg_speech_finish` waits for that. */
    int done;
    char language[16];
};

/* The read end of the running speaker's `done` pipe (one speaker a process). */
static int done_read = -1;

static double monotonic(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether a later complete line in buf[0..used) is also text (priority 3): a count of
   characters that a newer count replaces need not be said. */
static int newer_text(const char *buf, size_t used) {
    const char *p = buf;
    while (p < buf + used) {
        if (*p == 3 && memchr(p, '\n', (size_t)(buf + used - p))) return 1;
        const char *end = memchr(p, '\n', (size_t)(buf + used - p));
        if (!end) return 0;
        p = end + 1;
    }
    return 0;
}

static void *speak(void *argument) {
    struct speaker *speaker = argument;
    connection *c = NULL;
    double tried = -10;
    char line[8192];
    size_t used = 0;
    for (;;) {
        ssize_t n = read(speaker->fd, line + used, sizeof line - 1 - used);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        used += (size_t)n;
        char *end;
        while ((end = memchr(line, '\n', used))) {
            *end = 0;
            size_t rest = used - (size_t)(end + 1 - line);
            int priority = line[0] == 3 ? 3 : 2;
            if (!(priority == 3 && newer_text(end + 1, rest))) {
                if (!c && monotonic() - tried >= 5) {
                    tried = monotonic();
                    c = open_connection(NULL, 0);
                    if (c) lib.set_language(c, speaker->language);
                }
                if (c && end > line && lib.say(c, priority, line + 1) < 0) {
                    lib.close(c);
                    c = NULL;
                }
            }
            memmove(line, end + 1, rest);
            used = rest;
        }
        /* A line longer than the buffer is dropped. */
        if (used == sizeof line - 1) used = 0;
    }
    if (c) lib.close(c);
    close(speaker->fd);
    close(speaker->done);
    free(speaker);
    return NULL;
}

int sg_speech_start(const char *language, char *why, size_t size) {
    const char *problem = load();
    if (problem) {
        snprintf(why, size, "%s", problem);
        return -1;
    }
    int fds[2], done[2];
    if (done_read >= 0) {
        snprintf(why, size, "already speaking");
        return -1;
    }
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(why, size, "pipe2: %s", strerror(errno));
        return -1;
    }
    if (pipe2(done, O_CLOEXEC) != 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(why, size, "pipe2: %s", strerror(errno));
        return -1;
    }
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    struct speaker *speaker = calloc(1, sizeof *speaker);
    if (!speaker) {
        close(fds[0]);
        close(fds[1]);
        close(done[0]);
        close(done[1]);
        snprintf(why, size, "out of memory");
        return -1;
    }
    speaker->fd = fds[0];
    speaker->done = done[1];
    snprintf(speaker->language, sizeof speaker->language, "%s", language);
    /* The thread takes no signal: the caller's signalfd has them, and a server gone makes a
       write fail with EPIPE there instead of ending the process. */
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    int started = pthread_create(&thread, &attributes, speak, speaker);
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (started != 0) {
        free(speaker);
        close(fds[0]);
        close(fds[1]);
        close(done[0]);
        close(done[1]);
        snprintf(why, size, "cannot start its thread: %s", strerror(started));
        return -1;
    }
    done_read = done[0];
    return fds[1];
}

void sg_speech_finish(int fd, int patience_ms) {
    close(fd);
    if (done_read < 0) return;
    struct pollfd p = {.fd = done_read, .events = POLLIN};
    while (poll(&p, 1, patience_ms) < 0 && errno == EINTR) {
    }
    close(done_read);
    done_read = -1;
}

int sg_speech_probe(char *why, size_t size) {
    const char *problem = load();
    if (problem) {
        snprintf(why, size, "%s", problem);
        return 0;
    }
    connection *c = open_connection(why, size);
    if (!c) return 0;
    lib.close(c);
    return 1;
}
