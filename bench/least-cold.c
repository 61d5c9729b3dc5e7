/* The least a lock whose first frame shows a label can cost to start: the benchmark's
 * reference for slidegate's first frame with nothing kept. One process, linked with
 * Pango and Cairo as any locker that draws text is: it covers the screen, takes both
 * grabs, and then draws bench/run's slider into a pixmap (the track, a bright thumb, the
 * label "slide to unlock" shaped by Pango with slidegate's font options) and copies it
 * to the cover in one request. It keeps nothing between runs and does no more: no
 * configuration, no checks, no second process. i3lock's first frame shows no text at all
 * (its indicator appears when a key is typed), so it pays no font set-up and no shaping.
 *
 * With --into WINDOW it covers and grabs nothing and draws the slider into WINDOW: the
 * drawing half of bench/least-split.c, which locks and then starts it, as slidegate's
 * guard starts its UI.
 *
 * Usage: least-cold [--into WINDOW] (DISPLAY from the environment). Runs until killed.
 * Built by bench/run with cc -O2 ... $(pkg-config --cflags --libs pangocairo cairo-xlib x11). */
#include "least.h"
#include <cairo-xlib.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

/* The slider, drawn into `w` at bench/run's place. */
static void draw_slider(Display *d, Window w) {
    int screen = DefaultScreen(d);
    Pixmap frame = XCreatePixmap(d, w, TRACK_W, TRACK_H, (unsigned)DefaultDepth(d, screen));
    cairo_surface_t *surface = cairo_xlib_surface_create(d, frame, DefaultVisual(d, screen), TRACK_W, TRACK_H);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 0.16, 0.17, 0.2);
    cairo_paint(cr);
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
    cairo_move_to(cr, (TRACK_W - textW) / 2.0, (TRACK_H - textH) / 2.0);
    pango_cairo_show_layout(cr, layout);
    g_object_unref(layout);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);

    GC gc = XCreateGC(d, w, 0, NULL);
    XCopyArea(d, frame, w, gc, 0, 0, TRACK_W, TRACK_H, TRACK_X, TRACK_Y);
    XFreeGC(d, gc);
    XFreePixmap(d, frame);
    XFlush(d);
}

int main(int argc, char **argv) {
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fputs("least-cold: cannot open the display\n", stderr);
        return 1;
    }
    const int into = argc > 2 && strcmp(argv[1], "--into") == 0;
    /* Drawing for least-split, it ends with it, as slidegate's UI ends with its guard. */
    if (into && (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() == 1))
        return 1;
    Window w = into ? (Window)strtoul(argv[2], NULL, 0)
                    : cover_and_grab(d, 0x15171c, ButtonPressMask | ButtonReleaseMask | PointerMotionMask);
    draw_slider(d, w);
    for (;;)
        pause();
}
