#include "CPixbuf.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* glib's GError, whose layout is its ABI. */
struct error {
    unsigned int domain;
    int code;
    char *message;
};

/* The functions used, resolved from the library and those it links (glib, gobject). */
static struct {
    void *(*get_file_info)(const char *, int *, int *);
    char *(*format_get_name)(void *);
    sg_pixbuf *(*new_from_file)(const char *, struct error **);
    sg_pixbuf *(*new_from_file_at_scale)(const char *, int, int, int, struct error **);
    sg_pixbuf *(*apply_embedded_orientation)(sg_pixbuf *);
    int (*get_width)(const sg_pixbuf *);
    int (*get_height)(const sg_pixbuf *);
    int (*get_n_channels)(const sg_pixbuf *);
    int (*get_rowstride)(const sg_pixbuf *);
    int (*get_has_alpha)(const sg_pixbuf *);
    int (*get_bits_per_sample)(const sg_pixbuf *);
    const unsigned char *(*read_pixels)(const sg_pixbuf *);
    void (*object_unref)(void *);
    void (*error_free)(struct error *);
    void (*free)(void *);
} lib;

/* Called from the UI's one thread. */
static int opened;
static char why[256];

static int resolve(void *handle, void *slot, const char *name) {
    void *symbol = dlsym(handle, name);
    if (!symbol) return 0;
    memcpy(slot, &symbol, sizeof symbol);
    return 1;
}

const char *sg_pixbuf_open(void) {
    if (opened) return why[0] ? why : NULL;
    opened = 1;
    void *handle = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle
        && resolve(handle, &lib.get_file_info, "gdk_pixbuf_get_file_info")
        && resolve(handle, &lib.format_get_name, "gdk_pixbuf_format_get_name")
        && resolve(handle, &lib.new_from_file, "gdk_pixbuf_new_from_file")
        && resolve(handle, &lib.new_from_file_at_scale, "gdk_pixbuf_new_from_file_at_scale")
        && resolve(handle, &lib.apply_embedded_orientation, "gdk_pixbuf_apply_embedded_orientation")
        && resolve(handle, &lib.get_width, "gdk_pixbuf_get_width")
        && resolve(handle, &lib.get_height, "gdk_pixbuf_get_height")
        && resolve(handle, &lib.get_n_channels, "gdk_pixbuf_get_n_channels")
        && resolve(handle, &lib.get_rowstride, "gdk_pixbuf_get_rowstride")
        && resolve(handle, &lib.get_has_alpha, "gdk_pixbuf_get_has_alpha")
        && resolve(handle, &lib.get_bits_per_sample, "gdk_pixbuf_get_bits_per_sample")
        && resolve(handle, &lib.read_pixels, "gdk_pixbuf_read_pixels")
        && resolve(handle, &lib.object_unref, "g_object_unref")
        && resolve(handle, &lib.error_free, "g_error_free")
        && resolve(handle, &lib.free, "g_free"))
        return NULL;
    const char *error = dlerror();
    strncpy(why, error ? error : "libgdk_pixbuf-2.0.so.0 cannot be loaded", sizeof why - 1);
    if (handle) dlclose(handle);
    return why;
}

int sg_pixbuf_info(const char *path, int *width, int *height, int *jpeg) {
    void *format = lib.get_file_info(path, width, height);
    if (!format) return 0;
    char *name = lib.format_get_name(format);
    *jpeg = name && strcmp(name, "jpeg") == 0;
    lib.free(name);
    return 1;
}

sg_pixbuf *sg_pixbuf_decode(const char *path, int width, int height, char **message) {
    struct error *error = NULL;
    sg_pixbuf *loaded = width > 0 ? lib.new_from_file_at_scale(path, width, height, 0, &error) : lib.new_from_file(path, &error);
    *message = NULL;
    if (!loaded) {
        if (error) {
            *message = error->message ? strdup(error->message) : NULL;
            lib.error_free(error);
        }
        return NULL;
    }
    sg_pixbuf *turned = lib.apply_embedded_orientation(loaded);
    lib.object_unref(loaded);
    if (!turned) *message = strdup("out of memory");
    return turned;
}

const unsigned char *sg_pixbuf_pixels(
    const sg_pixbuf *pixbuf, int *width, int *height, int *channels, int *rowstride, int *alpha, int *bits) {
    *width = lib.get_width(pixbuf);
    *height = lib.get_height(pixbuf);
    *channels = lib.get_n_channels(pixbuf);
    *rowstride = lib.get_rowstride(pixbuf);
    *alpha = lib.get_has_alpha(pixbuf);
    *bits = lib.get_bits_per_sample(pixbuf);
    return lib.read_pixels(pixbuf);
}

void sg_pixbuf_free(sg_pixbuf *pixbuf) {
    lib.object_unref(pixbuf);
}
