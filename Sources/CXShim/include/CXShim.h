#ifndef SLIDEGATE_CXSHIM_H
#define SLIDEGATE_CXSHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <signal.h>
#include <sys/signalfd.h>

/* What Swift cannot import from Xlib and the C library: macros, handlers that must be
   C functions, and ppoll (which needs _GNU_SOURCE). */

/* Replace Xlib's default error handler (which exits) with one that records the error
   code, and its I/O error handler with one that says the connection was lost and exits 1. */
void sg_trap_x_errors(void);
/* The code of the last X error since the previous call, or 0 (Success). */
int sg_take_x_error(void);

/* XGetPixel and XDestroyImage are macros. */
unsigned long sg_image_pixel(XImage *image, int x, int y);
void sg_image_destroy(XImage *image);

/* Wait until fd_a or fd_b is readable or `timeout` seconds pass (negative: no limit).
   Sets *ready_a / *ready_b. Returns ppoll's result (-1 with errno on failure). */
int sg_wait_readable(int fd_a, int fd_b, double timeout, int *ready_a, int *ready_b);

/* A signalfd for the signals in the set, non-blocking and close-on-exec. */
int sg_signalfd(const sigset_t *set);
/* Reads one signal from a signalfd: the signal number, or 0 when none is pending. */
int sg_read_signal(int fd);

#endif
