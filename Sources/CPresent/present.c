#include "CPresent.h"

#include <X11/Xlib-xcb.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <xcb/present.h>

static xcb_connection_t *connection(Display *display) { return XGetXCBConnection(display); }

bool sg_present_available(Display *display) {
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(connection(display), &xcb_present_id);
    return ext != NULL && ext->present;
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

bool sg_present_msc(Display *display, Window window, uint64_t target_msc, int timeout_ms, uint64_t *msc, uint64_t *ust) {
    if (!sg_present_available(display)) return false;
    xcb_connection_t *c = connection(display);
    uint32_t context = xcb_generate_id(c);
    /* Present's events go to a queue of their own, never to Xlib's. */
    xcb_special_event_t *queue = xcb_register_for_special_xge(c, &xcb_present_id, context, NULL);
    if (queue == NULL) return false;
    static uint32_t serial = 0;
    uint32_t asked = ++serial;
    xcb_present_select_input(c, context, (xcb_window_t)window, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    xcb_present_notify_msc(c, (xcb_window_t)window, asked, target_msc, 0, 0);
    xcb_flush(c);
    bool found = false;
    double deadline = seconds_now() + timeout_ms / 1000.0;
    while (!found) {
        xcb_generic_event_t *event;
        while ((event = xcb_poll_for_special_event(c, queue)) != NULL) {
            xcb_present_complete_notify_event_t *done = (xcb_present_complete_notify_event_t *)event;
            if (done->event_type == XCB_PRESENT_EVENT_COMPLETE_NOTIFY && done->kind == XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC &&
                done->serial == asked) {
                *msc = done->msc;
                *ust = done->ust;
                found = true;
            }
            free(event);
        }
        double left = deadline - seconds_now();
        if (found || left <= 0 || xcb_connection_has_error(c)) break;
        /* Waits for the socket; the next poll of the queue reads what came (ordinary events
           into XCB's own queue). */
        struct pollfd fd = {.fd = xcb_get_file_descriptor(c), .events = POLLIN};
        poll(&fd, 1, (int)(left * 1000) + 1);
    }
    xcb_present_select_input(c, context, (xcb_window_t)window, 0);
    xcb_flush(c);
    xcb_unregister_for_special_event(c, queue);
    /* Events XCB read meanwhile wait in its queue; move them into Xlib's, which the event
       loop checks before every wait. */
    XEventsQueued(display, QueuedAfterReading);
    return found;
}

void sg_present_pixmap(Display *display, Window window, Pixmap pixmap, uint32_t serial, int x, int y, uint64_t target_msc) {
    xcb_present_pixmap(
        connection(display), (xcb_window_t)window, (xcb_pixmap_t)pixmap, serial, XCB_NONE, XCB_NONE, (int16_t)x, (int16_t)y,
        XCB_NONE, XCB_NONE, XCB_NONE, XCB_PRESENT_OPTION_NONE, target_msc, 0, 0, 0, NULL);
}
