#define _GNU_SOURCE
#include "CXShim.h"

#include <unistd.h>

/* Written by Xlib's error callback on the thread that owns the connection and read by the
   same thread: slidegate has exactly one. */
static int last_x_error = 0;
static int last_x_request = 0;
static int last_x_minor = 0;

static int record_x_error(Display *display, XErrorEvent *event) {
    (void)display;
    last_x_error = event->error_code;
    last_x_request = event->request_code;
    last_x_minor = event->minor_code;
    return 0;
}

static int lost_connection(Display *display) {
    (void)display;
    static const char message[] = "slidegate: lost the connection to the X server\n";
    ssize_t ignored = write(2, message, sizeof message - 1);
    (void)ignored;
    _exit(1);
}

void sg_trap_x_errors(void) {
    XSetErrorHandler(record_x_error);
    XSetIOErrorHandler(lost_connection);
}

/* The supervisor's connection only holds grabs: another client may end it (XKillClient),
   and the supervisor must live on to lock again, so losing it is noted, not an exit. Xlib
   returns from the failed call once the exit handler returns; the display is then dead. */
static int lost_supervisor_connection = 0;

static int note_lost_connection(Display *display) {
    (void)display;
    lost_supervisor_connection = 1;
    return 0;
}

static void return_after_lost_connection(Display *display, void *data) {
    (void)display;
    (void)data;
    lost_supervisor_connection = 1;
}

void sg_survive_lost_connection(Display *display) {
    XSetErrorHandler(record_x_error);
    XSetIOErrorHandler(note_lost_connection);
    XSetIOErrorExitHandler(display, return_after_lost_connection, NULL);
}

int sg_take_lost_connection(void) {
    int lost = lost_supervisor_connection;
    lost_supervisor_connection = 0;
    return lost;
}

int sg_take_x_error(void) {
    int code = last_x_error;
    last_x_error = 0;
    return code;
}

int sg_take_x_error_request(int *request, int *minor) {
    *request = last_x_request;
    *minor = last_x_minor;
    return sg_take_x_error();
}

unsigned long sg_image_pixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }

void sg_image_destroy(XImage *image) { XDestroyImage(image); }
