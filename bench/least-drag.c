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
 * With --slider it shows what slidegate's drag shows, at the least cost such a frame can
 * have: the thumb with its anti-aliased edge over the track, and the label under it fading
 * as the thumb moves (gone at 65 % of the way, as slidegate's). The layers are pixels
 * in this process (a label-sized alpha pattern stands for the text's ink, about the size
 * slidegate's label has here), blended once a frame into an image of the track where they
 * changed (the thumb's old and new places, and the label when its alpha changed) and each
 * changed rectangle sent with one XPutImage: final pixels, one request each, no back
 * buffer on the server and nothing composited there. A drag that shows a thumb blended
 * over a track with a fading label costs at least this.
 *
 * With --blind it reads no input at all: its grab asks for no motion, and it wakes by a
 * timer 60 times a second and fills a pixel. No locker can show a moving thumb for less,
 * however it learns where the pointer is: the floor under the floor.
 *
 * Usage: least-drag [--thumb | --slider | --blind] (DISPLAY from the environment). Covers the screen in white
 * and holds the keyboard and the pointer, as a locker does, so the benchmark starts, sees
 * and stops it like one; runs until killed. Built by bench/run with cc -O2 ... -lX11 -lm. */
#define _GNU_SOURCE
#include "least.h"
#include <X11/Xutil.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* --slider: the image of the track the window shows, the label's ink (an alpha pattern), the
 * thumb (its colour, and its coverage with a soft edge in the top byte), and where they stand. */
enum { LABEL_W = 190, LABEL_H = 24, LABEL_X = (TRACK_W - LABEL_W) / 2, LABEL_Y = (TRACK_H - LABEL_H) / 2 };
static const uint32_t LABEL_COLOUR = 0xf2f2f2;

struct slider {
    XImage *image;
    uint8_t label[LABEL_H][LABEL_W];
    uint32_t thumb[THUMB][THUMB];
    int thumbAt; /* the thumb's left edge, in the track */
    int alpha;   /* the label's, 0-255 */
};

/* `colour` over `under` at coverage `a` (0-255), two channels at a time. */
static uint32_t blend(uint32_t under, uint32_t colour, uint32_t a) {
    if (a == 0)
        return under;
    if (a == 255)
        return colour;
    uint32_t rb = (colour & 0xff00ff) * a + (under & 0xff00ff) * (255 - a);
    uint32_t g = (colour & 0x00ff00) * a + (under & 0x00ff00) * (255 - a);
    rb = (rb + 0x800080 + ((rb >> 8) & 0xff00ff)) >> 8;
    g = (g + 0x008000 + ((g >> 8) & 0x00ff00)) >> 8;
    return (rb & 0xff00ff) | (g & 0x00ff00);
}

/* Blends the rectangle (x, y, width, height) of the track anew, in the image's own rows, and sends it. */
static void put_slider(Display *d, Window w, GC gc, struct slider *s, int x, int y, int width, int height) {
    for (int row = y; row < y + height; row++) {
        uint32_t *pixels = (uint32_t *)(void *)(s->image->data + (size_t)row * (size_t)s->image->bytes_per_line);
        const int ly = row - LABEL_Y, ty = row - PAD;
        for (int col = x; col < x + width; col++) {
            uint32_t pixel = TRACK_COLOUR;
            const int lx = col - LABEL_X, tx = col - s->thumbAt;
            if (lx >= 0 && lx < LABEL_W && ly >= 0 && ly < LABEL_H)
                pixel = blend(pixel, LABEL_COLOUR, (uint32_t)(s->label[ly][lx] * s->alpha + 127) / 255);
            if (tx >= 0 && tx < THUMB && ty >= 0 && ty < THUMB) {
                const uint32_t t = s->thumb[ty][tx];
                pixel = blend(pixel, t & 0xffffff, t >> 24);
            }
            pixels[col] = pixel;
        }
    }
    XPutImage(d, w, gc, s->image, x, y, TRACK_X + x, TRACK_Y + y, (unsigned)width, (unsigned)height);
}

static int label_alpha(int thumbAt) {
    const double value = (double)(thumbAt - PAD) / (TRACK_W - 2 * PAD - THUMB), left = 1 - value / 0.65;
    return left > 0 ? (int)(left * 255 + 0.5) : 0;
}

static struct slider *prepare_slider(Display *d, Window w, GC gc) {
    struct slider *s = calloc(1, sizeof *s);
    const int screen = DefaultScreen(d);
    s->image = XCreateImage(d, DefaultVisual(d, screen), (unsigned)DefaultDepth(d, screen), ZPixmap, 0,
        malloc((size_t)TRACK_W * TRACK_H * 4), TRACK_W, TRACK_H, 32, 0);
    for (int y = 0; y < LABEL_H; y++)
        for (int x = 0; x < LABEL_W; x++)
            s->label[y][x] = (x % 9 < 5 && y > 3 && y < LABEL_H - 3) ? 255 : (x % 9 == 5 ? 128 : 0);
    for (int y = 0; y < THUMB; y++)
        for (int x = 0; x < THUMB; x++) {
            const double dx = x + 0.5 - THUMB / 2.0, dy = y + 0.5 - THUMB / 2.0;
            double cover = THUMB / 2.0 - sqrt(dx * dx + dy * dy) + 0.5;
            cover = cover < 0 ? 0 : cover > 1 ? 1 : cover;
            s->thumb[y][x] = (uint32_t)(cover * 255 + 0.5) << 24 | THUMB_COLOUR;
        }
    s->thumbAt = PAD;
    s->alpha = label_alpha(PAD);
    put_slider(d, w, gc, s, 0, 0, TRACK_W, TRACK_H);
    return s;
}

/* Moves the thumb under the pointer's `x` and fades the label to match: the thumb's old
 * and new places as one rectangle, and the label's when its alpha changed. */
static void move_slider(Display *d, Window w, GC gc, struct slider *s, int x) {
    const int lowest = PAD, highest = TRACK_W - PAD - THUMB;
    int to = x - TRACK_X - THUMB / 2;
    to = to < lowest ? lowest : to > highest ? highest : to;
    if (to == s->thumbAt)
        return;
    const int from = s->thumbAt, alpha = label_alpha(to), faded = alpha != s->alpha;
    s->thumbAt = to;
    s->alpha = alpha;
    const int left = from < to ? from : to, right = (from > to ? from : to) + THUMB;
    put_slider(d, w, gc, s, left, PAD, right - left, THUMB);
    if (faded)
        put_slider(d, w, gc, s, LABEL_X, LABEL_Y, LABEL_W, LABEL_H);
}

int main(int argc, char **argv) {
    const int timerOnly = argc > 1 && strcmp(argv[1], "--blind") == 0;
    const int thumb = argc > 1 && strcmp(argv[1], "--thumb") == 0;
    const int shown = argc > 1 && strcmp(argv[1], "--slider") == 0;
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
    struct slider *slider = shown ? prepare_slider(d, w, gc) : NULL;
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
            else if (slider)
                move_slider(d, w, gc, slider, x);
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
