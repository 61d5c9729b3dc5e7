#include "CBus.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* sd-bus's error, whose layout is its ABI. */
struct error {
    const char *name;
    const char *message;
    int need_free;
};

typedef struct sg_bus_slot sg_bus_slot;
typedef int (*message_handler)(sg_bus_message *, void *, struct error *);

/* The functions used, resolved from libsystemd. */
static struct {
    int (*open_system)(sg_bus **);
    int (*open_user)(sg_bus **);
    sg_bus *(*close_unref)(sg_bus *);
    int (*get_fd)(sg_bus *);
    int (*get_events)(sg_bus *);
    int (*get_timeout)(sg_bus *, uint64_t *);
    int (*process)(sg_bus *, sg_bus_message **);
    int (*new_method_call)(sg_bus *, sg_bus_message **, const char *, const char *, const char *, const char *);
    int (*append_basic)(sg_bus_message *, char, const void *);
    int (*call_async)(sg_bus *, sg_bus_slot **, sg_bus_message *, message_handler, void *, uint64_t);
    sg_bus_message *(*message_unref)(sg_bus_message *);
    int (*match_signal_async)(
        sg_bus *, sg_bus_slot **, const char *, const char *, const char *, const char *, message_handler, message_handler, void *);
    int (*slot_set_floating)(sg_bus_slot *, int);
    int (*slot_set_destroy_callback)(sg_bus_slot *, void (*)(void *));
    const struct error *(*get_error)(sg_bus_message *);
    const char *(*get_sender)(sg_bus_message *);
    const char *(*get_path)(sg_bus_message *);
    int (*peek_type)(sg_bus_message *, char *, const char **);
    int (*read_basic)(sg_bus_message *, char, void *);
    int (*enter_container)(sg_bus_message *, char, const char *);
    int (*exit_container)(sg_bus_message *);
} lib;

static int opened;
static char why[256];

static int resolve(void *handle, void *slot, const char *name) {
    void *symbol = dlsym(handle, name);
    if (!symbol) return 0;
    memcpy(slot, &symbol, sizeof symbol);
    return 1;
}

const char *sg_bus_load(void) {
    if (opened) return why[0] ? why : NULL;
    opened = 1;
    void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle
        && resolve(handle, &lib.open_system, "sd_bus_open_system")
        && resolve(handle, &lib.open_user, "sd_bus_open_user")
        && resolve(handle, &lib.close_unref, "sd_bus_close_unref")
        && resolve(handle, &lib.get_fd, "sd_bus_get_fd")
        && resolve(handle, &lib.get_events, "sd_bus_get_events")
        && resolve(handle, &lib.get_timeout, "sd_bus_get_timeout")
        && resolve(handle, &lib.process, "sd_bus_process")
        && resolve(handle, &lib.new_method_call, "sd_bus_message_new_method_call")
        && resolve(handle, &lib.append_basic, "sd_bus_message_append_basic")
        && resolve(handle, &lib.call_async, "sd_bus_call_async")
        && resolve(handle, &lib.message_unref, "sd_bus_message_unref")
        && resolve(handle, &lib.match_signal_async, "sd_bus_match_signal_async")
        && resolve(handle, &lib.slot_set_floating, "sd_bus_slot_set_floating")
        && resolve(handle, &lib.slot_set_destroy_callback, "sd_bus_slot_set_destroy_callback")
        && resolve(handle, &lib.get_error, "sd_bus_message_get_error")
        && resolve(handle, &lib.get_sender, "sd_bus_message_get_sender")
        && resolve(handle, &lib.get_path, "sd_bus_message_get_path")
        && resolve(handle, &lib.peek_type, "sd_bus_message_peek_type")
        && resolve(handle, &lib.read_basic, "sd_bus_message_read_basic")
        && resolve(handle, &lib.enter_container, "sd_bus_message_enter_container")
        && resolve(handle, &lib.exit_container, "sd_bus_message_exit_container"))
        return NULL;
    const char *error = dlerror();
    strncpy(why, error ? error : "libsystemd.so.0 cannot be loaded", sizeof why - 1);
    if (handle) dlclose(handle);
    return why;
}

int sg_bus_open(int system, sg_bus **bus) {
    return system ? lib.open_system(bus) : lib.open_user(bus);
}

void sg_bus_close(sg_bus *bus) {
    lib.close_unref(bus);
}

int sg_bus_fd(sg_bus *bus) { return lib.get_fd(bus); }
int sg_bus_events(sg_bus *bus) { return lib.get_events(bus); }
int sg_bus_timeout(sg_bus *bus, uint64_t *usec) { return lib.get_timeout(bus, usec); }
int sg_bus_process(sg_bus *bus) { return lib.process(bus, NULL); }

/* What a slot carries: the caller's handler, release and context. */
struct hook {
    sg_bus_handler handler;
    sg_bus_release release;
    void *context;
};

static int deliver(sg_bus_message *message, void *userdata, struct error *error) {
    (void)error;
    struct hook *hook = userdata;
    hook->handler(message, hook->context);
    return 0;
}

static void let_go(void *userdata) {
    struct hook *hook = userdata;
    hook->release(hook->context);
    free(hook);
}

/* Makes `slot`, whose userdata is a hook, floating (the bus owns it); the hook is freed
   with it. */
static void keep(sg_bus_slot *slot) {
    lib.slot_set_destroy_callback(slot, let_go);
    lib.slot_set_floating(slot, 1);
}

int sg_bus_call(
    sg_bus *bus, const char *destination, const char *path, const char *interface, const char *member, const char *types,
    const char *text1, const char *text2, int flag, uint64_t timeout_usec, sg_bus_handler handler, sg_bus_release release,
    void *context) {
    sg_bus_message *call = NULL;
    int r = lib.new_method_call(bus, &call, destination, path, interface, member);
    if (r < 0) return r;
    const char *texts[2] = {text1, text2};
    int used = 0;
    for (const char *type = types; r >= 0 && *type; type++) {
        if (*type == 's' && used < 2) r = lib.append_basic(call, 's', texts[used++]);
        else if (*type == 'b') r = lib.append_basic(call, 'b', &flag);
        else r = -EINVAL;
    }
    struct hook *hook = r < 0 ? NULL : malloc(sizeof *hook);
    if (r >= 0 && !hook) r = -ENOMEM;
    sg_bus_slot *slot = NULL;
    if (r >= 0) {
        *hook = (struct hook){handler, release, context};
        r = lib.call_async(bus, &slot, call, deliver, hook, timeout_usec);
        if (r < 0) free(hook);
        else keep(slot);
    }
    lib.message_unref(call);
    return r < 0 ? r : 0;
}

int sg_bus_match(
    sg_bus *bus, const char *sender, const char *path, const char *interface, const char *member, sg_bus_handler handler,
    sg_bus_release release, void *context) {
    struct hook *hook = malloc(sizeof *hook);
    if (!hook) return -ENOMEM;
    *hook = (struct hook){handler, release, context};
    sg_bus_slot *slot = NULL;
    int r = lib.match_signal_async(bus, &slot, sender, path, interface, member, deliver, NULL, hook);
    if (r < 0) {
        free(hook);
        return r;
    }
    keep(slot);
    return 0;
}

const char *sg_bus_message_error(sg_bus_message *message) {
    const struct error *error = lib.get_error(message);
    return error && error->name ? error->name : NULL;
}

const char *sg_bus_message_sender(sg_bus_message *message) { return lib.get_sender(message); }
const char *sg_bus_message_path(sg_bus_message *message) { return lib.get_path(message); }

int sg_bus_message_peek(sg_bus_message *message, char *type, const char **contents) {
    return lib.peek_type(message, type, contents);
}

int sg_bus_message_read(sg_bus_message *message, char type, void *value) {
    return lib.read_basic(message, type, value);
}

int sg_bus_message_enter(sg_bus_message *message, char type, const char *contents) {
    return lib.enter_container(message, type, contents);
}

int sg_bus_message_exit(sg_bus_message *message) { return lib.exit_container(message); }

int sg_bus_message_skip(sg_bus_message *message) {
    char type = 0;
    const char *contents = NULL;
    int r = lib.peek_type(message, &type, &contents);
    if (r <= 0) return r < 0 ? r : -ENXIO;
    if (type == 'a' || type == 'v' || type == 'r' || type == 'e') {
        r = lib.enter_container(message, type, contents);
        while (r >= 0) {
            r = lib.peek_type(message, &type, &contents);
            if (r == 0) return lib.exit_container(message);
            if (r > 0) r = sg_bus_message_skip(message);
        }
        return r;
    }
    /* Every basic value fits in 8 bytes (strings are read as a pointer). */
    uint64_t value;
    return lib.read_basic(message, type, &value);
}
