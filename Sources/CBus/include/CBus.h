#ifndef SLIDEGATE_CBUS_H
#define SLIDEGATE_CBUS_H

#include <stdint.h>

/* sd-bus (libsystemd), for the lock's glances and controls alone (--show-media,
   --show-battery, --power-actions), loaded when one of them first opens a bus: a lock
   without them does not map and relocate libsystemd and the libraries it brings. Only the
   UI's thread calls these. */

typedef struct sg_bus sg_bus;
typedef struct sg_bus_message sg_bus_message;

/* Called with a method's reply (or error) or a signal; `context` is what was given. */
typedef void (*sg_bus_handler)(sg_bus_message *message, void *context);
/* Called once when a call's or match's slot goes: the call was answered or failed, the
   bus was closed. */
typedef void (*sg_bus_release)(void *context);

/* Loads libsystemd.so.0 on the first call: NULL when it is there, else why not. */
const char *sg_bus_load(void);

/* Connects to the system bus (`system` 1) or the session bus, as $DBUS_SYSTEM_BUS_ADDRESS
   and $DBUS_SESSION_BUS_ADDRESS say; 0 or a negative errno. sg_bus_load first. */
int sg_bus_open(int system, sg_bus **bus);
/* Closes the bus: every pending call and match is released. */
void sg_bus_close(sg_bus *bus);

int sg_bus_fd(sg_bus *bus);
/* The poll events the bus waits for (POLLIN, POLLOUT). */
int sg_bus_events(sg_bus *bus);
/* When the earliest pending call times out, CLOCK_MONOTONIC microseconds (UINT64_MAX: none). */
int sg_bus_timeout(sg_bus *bus, uint64_t *usec);
/* Handles one thing that arrived: 1 when it did something (call again), 0 when there was
   nothing, a negative errno when the bus failed. */
int sg_bus_process(sg_bus *bus);

/* Calls `member`, arguments as `types` says: "s" takes `text1`, "ss" `text1` and
   `text2`, "b" `flag`, "" none. The reply goes to `handler`; `release` follows it. A
   negative errno when the call could not be sent (`release` is then not called). */
int sg_bus_call(
    sg_bus *bus, const char *destination, const char *path, const char *interface, const char *member, const char *types,
    const char *text1, const char *text2, int flag, uint64_t timeout_usec, sg_bus_handler handler, sg_bus_release release,
    void *context);

/* Matches signals (NULL: any sender, path, interface or member). */
int sg_bus_match(
    sg_bus *bus, const char *sender, const char *path, const char *interface, const char *member, sg_bus_handler handler,
    sg_bus_release release, void *context);

/* Reading a message. Errors are negative errnos. */
/* The error's name when the message is a method error, else NULL. */
const char *sg_bus_message_error(sg_bus_message *message);
const char *sg_bus_message_sender(sg_bus_message *message);
const char *sg_bus_message_path(sg_bus_message *message);
/* The type of what comes next (0 at the end of a container), and a container's contents. */
int sg_bus_message_peek(sg_bus_message *message, char *type, const char **contents);
/* Reads a basic value of `type` into `value` (a const char * for strings, int for 'b'). */
int sg_bus_message_read(sg_bus_message *message, char type, void *value);
int sg_bus_message_enter(sg_bus_message *message, char type, const char *contents);
int sg_bus_message_exit(sg_bus_message *message);
/* Skips the next value, whatever it is. */
int sg_bus_message_skip(sg_bus_message *message);

#endif
