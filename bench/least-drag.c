/* The least a drag drawn at 60 frames a second can cost: the benchmark's reference for
 * its drag figures. It holds the pointer, leaves the socket unread between frames and,
 * when the pointer moved, fills one pixel at its place: a wake-up a frame, and no pixel
 * work to speak of. It takes motion as slidegate's guard does: each motion event while
 * they come slower than 400 a second (read together once a frame, the newest counts);
 * faster, the grab turns to motion hints (the server sends one motion event, then none
 * until asked where the pointer is), and it asks once a frame: a round trip instead of
 * reading and dropping the events. A locker that draws its drag at 60 fps pays at least
 * this on the same input stream; slidegate draws a thumb, a label and a copy to the
 * window instead of the pixel.
 *
 * With --blind it reads no input at all: its grab asks for no motion, and it wakes by a
 * timer 60 times a second and fills a pixel. No locker can show a moving thumb for less,
 * however it learns where the pointer is: the floor under the floor.
 *
 * Usage: least-drag [--blind] (DISPLAY from the environment). Covers the screen in white
 * and holds the keyboard and the pointer, as a locker does, so the benchmark starts, sees
 * and stops it like one; runs until killed. Built by bench/run with cc -O2 ... -lX11. */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double monotonic(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* --blind: a pixel a frame, on a timer, with no input read. */
static _Noreturn void blind(Display *d, Window w, GC gc) {
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (unsigned long i = 0;; i++) {
        next.tv_nsec += 1000000000 / 60;
        if (next.tv_nsec >= 1000000000) {
            next.tv_nsec -= 1000000000;
            next.tv_sec++;
        }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        XSetForeground(d, gc, i * 2654435761u);
        XDrawPoint(d, w, gc, (int)(i % 256), 0);
        XFlush(d);
    }
}

int main(int argc, char **argv) {
    const int timerOnly = argc > 1 && strcmp(argv[1], "--blind") == 0;
    const double frame = 1.0 / 60;
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fputs("least-drag: cannot open the display\n", stderr);
        return 1;
    }
    int screen = DefaultScreen(d);
    XSetWindowAttributes attributes = {.override_redirect = True, .background_pixel = WhitePixel(d, screen)};
    Window w = XCreateWindow(d, RootWindow(d, screen), 0, 0, DisplayWidth(d, screen), DisplayHeight(d, screen), 0,
        CopyFromParent, InputOutput, CopyFromParent, CWOverrideRedirect | CWBackPixel, &attributes);
    XMapRaised(d, w);
    GC gc = XCreateGC(d, w, 0, NULL);
    XSync(d, False);
    struct timespec pause = {0, 1000000};
    while (XGrabKeyboard(d, w, False, GrabModeAsync, GrabModeAsync, CurrentTime) != GrabSuccess)
        nanosleep(&pause, NULL);
    const long plain = ButtonPressMask | ButtonReleaseMask | PointerMotionMask;
    while (XGrabPointer(d, w, False, timerOnly ? ButtonPressMask | ButtonReleaseMask : plain, GrabModeAsync, GrabModeAsync, None, None, CurrentTime) != GrabSuccess)
        nanosleep(&pause, NULL);
    if (timerOnly)
        blind(d, w, gc);
    int fd = ConnectionNumber(d);
    double last = 0;
    int moved = 0, events = 0, hints = 0, x = 0, y = 0;
    for (;;) {
        double wait = last + frame - monotonic();
        struct pollfd p = {fd, wait > 0 ? 0 : POLLIN, 0};
        struct timespec until = {0, wait > 0 ? (long)(wait * 1e9) : 0};
        if (!XPending(d))
            ppoll(&p, 1, wait > 0 ? &until : NULL, NULL);
        while (XPending(d)) {
            XEvent e;
            XNextEvent(d, &e);
            if (e.type == MotionNotify) {
                moved = 1;
                events++;
                x = e.xmotion.x;
                y = e.xmotion.y;
            }
        }
        double now = monotonic();
        if (moved && now >= last + frame) {
            if (hints) {
                Window root, child;
                int rootX, rootY;
                unsigned int buttons;
                XQueryPointer(d, w, &root, &child, &rootX, &rootY, &x, &y, &buttons);
            }
            XSetForeground(d, gc, (unsigned long)x * 2654435761u);
            XDrawPoint(d, w, gc, x, y);
            moved = 0;
            if (!hints && events > 400 * (now - last)) {
                hints = 1;
                XChangeActivePointerGrab(d, plain | PointerMotionHintMask, None, CurrentTime);
                /* The server takes the last motion event it sent for the hint: ask next frame. */
                moved = 1;
            }
            XFlush(d);
            events = 0;
            last = now;
        }
    }
}
