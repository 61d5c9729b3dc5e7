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
 * With --thumb it shows what a pixel does not: a thumb that follows the pointer along a
 * track, with the bench's slider geometry (a 560x80 track at (680, 800), a 68 px round
 * thumb whose left edge runs 686..1166). Each frame the thumb moves, it copies the thumb,
 * prepared once on the track's colour, to its new place and fills the strip it left with
 * the track's colour: two requests, every pixel written once with its final value (so
 * nothing flickers, and no back buffer is needed), nothing blended. A locker that shows
 * its thumb moving at 60 fps pays at least this; slidegate's thumb is blended over its
 * track in a back pixmap, and its label fades as the thumb moves.
 *
 * With --blind it reads no input at all: its grab asks for no motion, and it wakes by a
 * timer 60 times a second and fills a pixel. No locker can show a moving thumb for less,
 * however it learns where the pointer is: the floor under the floor.
 *
 * Usage: least-drag [--thumb | --blind] (DISPLAY from the environment). Covers the screen in white
 * and holds the keyboard and the pointer, as a locker does, so the benchmark starts, sees
 * and stops it like one; runs until killed. Built by bench/run with cc -O2 ... -lX11. */
#define _GNU_SOURCE
#include "least.h"
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

/* --thumb: the slider, in bench/run's geometry. */
static const unsigned long TRACK_COLOUR = 0x2a2d35, THUMB_COLOUR = 0xf2f2f2;

static Pixmap prepare_thumb(Display *d, Window w, GC gc) {
    Pixmap tile = XCreatePixmap(d, w, THUMB, THUMB, (unsigned)DefaultDepth(d, DefaultScreen(d)));
    XSetForeground(d, gc, TRACK_COLOUR);
    XFillRectangle(d, tile, gc, 0, 0, THUMB, THUMB);
    XFillRectangle(d, w, gc, TRACK_X, TRACK_Y, TRACK_W, TRACK_H);
    XSetForeground(d, gc, THUMB_COLOUR);
    XFillArc(d, tile, gc, 0, 0, THUMB - 1, THUMB - 1, 0, 360 * 64);
    XSetForeground(d, gc, TRACK_COLOUR);
    XCopyArea(d, tile, w, gc, 0, 0, THUMB, THUMB, TRACK_X + PAD, TRACK_Y + PAD);
    return tile;
}

/* Moves the thumb from its left edge `from` to one under the pointer's `x`; returns where it is. */
static int move_thumb(Display *d, Window w, GC gc, Pixmap tile, int from, int x) {
    const int lowest = TRACK_X + PAD, highest = TRACK_X + TRACK_W - PAD - THUMB, y = TRACK_Y + PAD;
    int to = x - THUMB / 2;
    to = to < lowest ? lowest : to > highest ? highest : to;
    if (to == from)
        return to;
    XCopyArea(d, tile, w, gc, 0, 0, THUMB, THUMB, to, y);
    if (to > from)
        XFillRectangle(d, w, gc, from, y, (unsigned)(to - from < THUMB ? to - from : THUMB), THUMB);
    else {
        const int left = to + THUMB > from ? to + THUMB : from;
        XFillRectangle(d, w, gc, left, y, (unsigned)(from + THUMB - left), THUMB);
    }
    return to;
}

int main(int argc, char **argv) {
    const int timerOnly = argc > 1 && strcmp(argv[1], "--blind") == 0;
    const int thumb = argc > 1 && strcmp(argv[1], "--thumb") == 0;
    const double frame = 1.0 / 60;
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fputs("least-drag: cannot open the display\n", stderr);
        return 1;
    }
    const long plain = ButtonPressMask | ButtonReleaseMask | PointerMotionMask;
    Window w = cover_and_grab(d, WhitePixel(d, DefaultScreen(d)), timerOnly ? ButtonPressMask | ButtonReleaseMask : plain);
    GC gc = XCreateGC(d, w, 0, NULL);
    if (timerOnly)
        blind(d, w, gc);
    const Pixmap tile = thumb ? prepare_thumb(d, w, gc) : None;
    int thumbAt = TRACK_X + PAD;
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
            if (thumb)
                thumbAt = move_thumb(d, w, gc, tile, thumbAt, x);
            else {
                XSetForeground(d, gc, (unsigned long)x * 2654435761u);
                XDrawPoint(d, w, gc, x, y);
            }
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
