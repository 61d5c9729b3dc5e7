#ifndef SLIDEGATE_CPRESENT_H
#define SLIDEGATE_CPRESENT_H

#include <stdbool.h>
#include <stdint.h>
#include <X11/Xlib.h>

/* The Present extension through Xlib's own XCB connection: frames handed to the X server
   ahead, each shown at the vertical blank it names, with no client waking up for it. */

/* Whether the server has Present. */
bool sg_present_available(Display *display);

/* Waits for vertical blank `target_msc` of `window`'s monitor (0: the counter as it is
   now) with a NotifyMSC request, at most timeout_ms; gives the blank's counter (MSC) and
   time (UST, microseconds). Events the wait reads are left in Xlib's queue. False when no
   answer came (or the extension is missing). */
bool sg_present_msc(Display *display, Window window, uint64_t target_msc, int timeout_ms, uint64_t *msc, uint64_t *ust);

/* Queues `pixmap` to be copied into `window` at (x, y) at vertical blank `target_msc` (at
   the next one when that has passed). A later present for the same window and blank
   replaces one still queued. */
void sg_present_pixmap(Display *display, Window window, Pixmap pixmap, uint32_t serial, int x, int y, uint64_t target_msc);

#endif
