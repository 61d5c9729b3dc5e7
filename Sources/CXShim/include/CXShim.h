#ifndef SLIDEGATE_CXSHIM_H
#define SLIDEGATE_CXSHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>

/* What Swift cannot import from Xlib: macros, and handlers that must be C functions. */

/* Replace Xlib's default error handler (which exits) with one that records the error
   code, and its I/O error handler with one that says the connection was lost and exits 1. */
void sg_trap_x_errors(void);
/* For a connection whose loss is survived (the supervisor's): X errors are recorded as by
   sg_trap_x_errors, and a lost connection is noted for sg_take_lost_connection instead of
   ending the process. */
void sg_survive_lost_connection(Display *display);
/* Whether the connection was lost since the previous call. */
int sg_take_lost_connection(void);
/* The code of the last X error since the previous call, or 0 (Success). */
int sg_take_x_error(void);
/* The same, with the failed request's major and minor opcodes. */
int sg_take_x_error_request(int *request, int *minor);

/* XGetPixel and XDestroyImage are macros. */
unsigned long sg_image_pixel(XImage *image, int x, int y);
void sg_image_destroy(XImage *image);

#endif
