#ifndef SLIDEGATE_CSCREENCOPY_H
#define SLIDEGATE_CSCREENCOPY_H

#include <stdbool.h>
#include <stdint.h>
#include <X11/Xlib.h>

/* `--image desktop`'s copy of the screen, made with XRender through Xlib's own XCB
   connection, in two steps so that its questions ride on the grabs' round trips:
   sg_screen_copy_ask sends them, sg_screen_copy_make reads the answers and copies. */

/* Asks for XRender's picture formats (the extension's own query waits for its answer);
   gives the question's sequence, 0 when the server has no XRender. */
uint32_t sg_screen_copy_ask(Display *display);

/* A pixmap of `width` x `height` at the default depth holding the root window with
   everything in it, shrunk `factor` times each way (bilinear); 0 when the answer to the
   question `asked` names no format for the default visual (the pixmap is not made). */
Pixmap sg_screen_copy_make(Display *display, uint32_t asked, uint16_t width, uint16_t height, int factor);

#endif
