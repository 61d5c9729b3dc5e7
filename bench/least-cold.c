/* The least a lock whose first frame shows a label can cost to start: the benchmark's
 * reference for slidegate's first frame with nothing kept. One process, linked with
 * Pango and Cairo as any locker that draws text is: it covers the screen, takes both
 * grabs, and then draws bench/run's slider into a pixmap (the track, a bright thumb, the
 * label "slide to unlock" shaped by Pango with slidegate's font options) and copies it
 * to the cover in one request. It keeps nothing between runs and does no more: no
 * privilege split, no configuration, no second process, no checks. i3lock's first frame
 * shows no text at all (its indicator appears when a key is typed), so it pays no font
 * set-up and no shaping.
 *
 * Usage: least-cold (DISPLAY from the environment). Runs until killed. Built by bench/run
 * with cc -O2 ... $(pkg-config --cflags --libs pangocairo cairo-xlib x11). */
#include <X11/Xlib.h>
#include <cairo-xlib.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* bench/run's slider: 560x80 at (680, 800), the 68 px thumb at rest 6 px in. */
enum { X = 680, Y = 800, W = 560, H = 80, PAD = 6, THUMB = 68 };

int main(void) {
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fputs("least-cold: cannot open the display\n", stderr);
        return 1;
    }
    int screen = DefaultScreen(d);
    XSetWindowAttributes attributes = {.override_redirect = True, .background_pixel = 0x15171c};
    Window w = XCreateWindow(d, RootWindow(d, screen), 0, 0, DisplayWidth(d, screen), DisplayHeight(d, screen), 0,
        CopyFromParent, InputOutput, CopyFromParent, CWOverrideRedirect | CWBackPixel, &attributes);
    XMapRaised(d, w);
    XSync(d, False);
    struct timespec retry = {0, 1000000};
    while (XGrabKeyboard(d, w, False, GrabModeAsync, GrabModeAsync, CurrentTime) != GrabSuccess)
        nanosleep(&retry, NULL);
    while (XGrabPointer(d, w, False, ButtonPressMask | ButtonReleaseMask | PointerMotionMask, GrabModeAsync,
               GrabModeAsync, None, None, CurrentTime) != GrabSuccess)
        nanosleep(&retry, NULL);

    Pixmap frame = XCreatePixmap(d, w, W, H, (unsigned)DefaultDepth(d, screen));
    cairo_surface_t *surface = cairo_xlib_surface_create(d, frame, DefaultVisual(d, screen), W, H);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 0x15 / 255.0, 0x17 / 255.0, 0x1c / 255.0);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0.16, 0.17, 0.2);
    cairo_rectangle(cr, 0, 0, W, H);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    cairo_rectangle(cr, PAD, PAD, THUMB, THUMB);
    cairo_fill(cr);

    PangoLayout *layout = pango_cairo_create_layout(cr);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), options);
    cairo_font_options_destroy(options);
    PangoFontDescription *font = pango_font_description_from_string("Sans");
    pango_font_description_set_absolute_size(font, 24 * PANGO_SCALE);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    pango_layout_set_text(layout, "slide to unlock", -1);
    int textW, textH;
    pango_layout_get_pixel_size(layout, &textW, &textH);
    cairo_move_to(cr, (W - textW) / 2.0, (H - textH) / 2.0);
    pango_cairo_show_layout(cr, layout);
    g_object_unref(layout);
    cairo_surface_flush(surface);

    GC gc = XCreateGC(d, w, 0, NULL);
    XCopyArea(d, frame, w, gc, 0, 0, W, H, X, Y);
    XFlush(d);
    for (;;)
        pause();
}
