#ifndef SLIDEGATE_CSCREENCOPY_H
#define SLIDEGATE_CSCREENCOPY_H

#include <stdbool.h>
#include <stdint.h>
#include <X11/Xlib.h>

/* `--image desktop`'s copy of the screen, made with XRender through Xlib's own XCB
   connection, in steps so that its questions ride on round trips the guard makes anyway:
   sg_screen_copy_prefetch sends the extension's query, sg_screen_copy_ask the rest,
   sg_screen_copy_make reads the answers and copies, sg_screen_copy_check reads whether the
   server did. */

/* The sequences of the two questions: XRender's picture formats and the root window's
   geometry. */
typedef struct {
    uint32_t formats;
    uint32_t geometry;
} sg_screen_copy_asked;

/* Sends XRender's own query, whose answer sg_screen_copy_ask waits for, so that it comes
   with the answer to the next request that waits. */
void sg_screen_copy_prefetch(Display *display);

/* Asks for XRender's picture formats (the extension's own query waits for its answer)
   and for the root window's size, sent with the next request that waits; false, with
   nothing asked, when the server has no XRender. */
bool sg_screen_copy_ask(Display *display, sg_screen_copy_asked *asked);

/* The copy's pixmap and the sequences of the requests that made it, each checked: the
   server's errors for them come to sg_screen_copy_check, not to Xlib's handler. */
typedef struct {
    Pixmap pixmap;
    uint32_t requests[8];
    int count;
} sg_screen_copy_made;

/* Queues the requests for a pixmap at the default depth holding the root window with
   everything in it, shrunk `factor` times each way (nearest) from the size the answer to
   `asked` gives, to go with the next request that waits; a pixmap of 0 when the answers
   name no format for the default visual or no size (nothing is made). Reads both
   answers. */
sg_screen_copy_made sg_screen_copy_make(Display *display, sg_screen_copy_asked asked, int factor);

/* 0 when the server made `made`; else the first error's code, and its pixmap is let go.
   Waits only for answers not yet come: after a round trip that followed the requests,
   none. */
int sg_screen_copy_check(Display *display, sg_screen_copy_made made);

#endif
