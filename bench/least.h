/* What bench/least-drag.c, least-cold.c and least-split.c share: the lock itself, as a
 * locker takes it, and bench/run's slider geometry. */
#include <X11/Xlib.h>
#include <time.h>

/* bench/run's slider: a 560x80 track at (680, 800), its 68 px thumb 6 px in from the edges. */
enum { TRACK_X = 680, TRACK_Y = 800, TRACK_W = 560, TRACK_H = 80, PAD = 6, THUMB = 68 };

/* Maps an override-redirect window over the screen in `background`, then holds the
 * keyboard and the pointer (asking for `pointerEvents`), trying each grab again every
 * millisecond until it is taken, as a locker does; returns the window. */
static Window cover_and_grab(Display *d, unsigned long background, unsigned int pointerEvents) {
    int screen = DefaultScreen(d);
    XSetWindowAttributes attributes = {.override_redirect = True, .background_pixel = background};
    Window w = XCreateWindow(d, RootWindow(d, screen), 0, 0, (unsigned)DisplayWidth(d, screen), (unsigned)DisplayHeight(d, screen),
        0, CopyFromParent, InputOutput, CopyFromParent, CWOverrideRedirect | CWBackPixel, &attributes);
    XMapRaised(d, w);
    XSync(d, False);
    struct timespec retry = {0, 1000000};
    while (XGrabKeyboard(d, w, False, GrabModeAsync, GrabModeAsync, CurrentTime) != GrabSuccess)
        nanosleep(&retry, NULL);
    while (XGrabPointer(d, w, False, pointerEvents, GrabModeAsync, GrabModeAsync, None, None, CurrentTime) != GrabSuccess)
        nanosleep(&retry, NULL);
    return w;
}
