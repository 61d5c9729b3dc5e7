#ifndef SLIDEGATE_CSCREENCOPY_H
#define SLIDEGATE_CSCREENCOPY_H

#include <stdbool.h>
#include <stdint.h>
#include <X11/Xlib.h>

/* `--image desktop`'s copy of the screen, made with XRender through Xlib's own XCB
   connection, in two steps so that its questions ride on the grabs' round trips:
   sg_screen_copy_ask sends them, sg_screen_copy_make reads the answers and copies. */

/* The sequences of the two questions: XRender's picture formats and the root window's
   geometry. */
typedef struct {
    uint32_t formats;
    uint32_t geometry;
} sg_screen_copy_asked;

/* Asks for XRender's picture formats (the extension's own query waits for its answer)
   and for the root window's size; false, with nothing asked, when the server has no
   XRender. */
bool sg_screen_copy_ask(Display *display, sg_screen_copy_asked *asked);

/* A pixmap at the default depth holding the root window with everything in it, shrunk
   `factor` times each way (bilinear) from the size the answer to `asked` gives; 0 when
   the answers name no format for the default visual or no size (the pixmap is not
   made). Reads both answers. */
Pixmap sg_screen_copy_make(Display *display, sg_screen_copy_asked asked, int factor);

#endif
