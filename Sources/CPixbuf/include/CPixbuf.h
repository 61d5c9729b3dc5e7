#ifndef SLIDEGATE_CPIXBUF_H
#define SLIDEGATE_CPIXBUF_H

/* gdk-pixbuf, for --image alone, loaded when a picture is first read: a lock without one
   does not map and relocate it and the libjpeg it brings as it starts. */

/* A decoded picture: a GdkPixbuf. */
typedef struct sg_pixbuf sg_pixbuf;

/* Loads libgdk_pixbuf-2.0.so.0 on the first call: NULL when it is there, else why not. */
const char *sg_pixbuf_open(void);

/* gdk_pixbuf_get_file_info: 1 with the picture's size and whether it is a JPEG, 0 when the
   file is not a picture gdk-pixbuf can read. sg_pixbuf_open first. */
int sg_pixbuf_info(const char *path, int *width, int *height, int *jpeg);

/* The file decoded (at width x height when width > 0, else whole) and turned as its EXIF
   orientation says, or NULL with *message the reason (to free(), NULL if none given).
   sg_pixbuf_open first. */
sg_pixbuf *sg_pixbuf_decode(const char *path, int width, int height, char **message);

/* The picture's pixels and their layout. */
const unsigned char *sg_pixbuf_pixels(
    const sg_pixbuf *pixbuf, int *width, int *height, int *channels, int *rowstride, int *alpha, int *bits);

void sg_pixbuf_free(sg_pixbuf *pixbuf);

#endif
