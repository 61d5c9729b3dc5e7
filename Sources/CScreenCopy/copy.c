#include "CScreenCopy.h"

#include <X11/Xlib-xcb.h>
#include <stdlib.h>
#include <xcb/render.h>

void sg_screen_copy_prefetch(Display *display) {
    xcb_prefetch_extension_data(XGetXCBConnection(display), &xcb_render_id);
}

bool sg_screen_copy_ask(Display *display, sg_screen_copy_asked *asked) {
    xcb_connection_t *c = XGetXCBConnection(display);
    const xcb_query_extension_reply_t *render = xcb_get_extension_data(c, &xcb_render_id);
    if (render == NULL || !render->present) return false;
    asked->formats = xcb_render_query_pict_formats(c).sequence;
    asked->geometry = xcb_get_geometry(c, (xcb_drawable_t)RootWindow(display, DefaultScreen(display))).sequence;
    return true;
}

/* The picture format of `visual` in the formats' answer; 0 when none. */
static xcb_render_pictformat_t format_of(xcb_render_query_pict_formats_reply_t *formats, xcb_visualid_t visual) {
    xcb_render_pictscreen_iterator_t screens = xcb_render_query_pict_formats_screens_iterator(formats);
    for (; screens.rem; xcb_render_pictscreen_next(&screens)) {
        xcb_render_pictdepth_iterator_t depths = xcb_render_pictscreen_depths_iterator(screens.data);
        for (; depths.rem; xcb_render_pictdepth_next(&depths)) {
            xcb_render_pictvisual_t *visuals = xcb_render_pictdepth_visuals(depths.data);
            int count = xcb_render_pictdepth_visuals_length(depths.data);
            for (int i = 0; i < count; i++) {
                if (visuals[i].visual == visual) return visuals[i].format;
            }
        }
    }
    return 0;
}

sg_screen_copy_made sg_screen_copy_make(Display *display, sg_screen_copy_asked asked, int factor) {
    sg_screen_copy_made made = {0};
    xcb_connection_t *c = XGetXCBConnection(display);
    xcb_render_query_pict_formats_cookie_t formats_cookie = {asked.formats};
    xcb_render_query_pict_formats_reply_t *formats = xcb_render_query_pict_formats_reply(c, formats_cookie, NULL);
    xcb_get_geometry_cookie_t geometry_cookie = {asked.geometry};
    xcb_get_geometry_reply_t *geometry = xcb_get_geometry_reply(c, geometry_cookie, NULL);
    if (factor < 1) factor = 1;
    int screen = DefaultScreen(display);
    xcb_render_pictformat_t format =
        formats == NULL ? 0 : format_of(formats, (xcb_visualid_t)XVisualIDFromVisual(DefaultVisual(display, screen)));
    bool sized = geometry != NULL;
    uint16_t width = sized && geometry->width >= factor ? geometry->width / factor : 1;
    uint16_t height = sized && geometry->height >= factor ? geometry->height / factor : 1;
    free(formats);
    free(geometry);
    if (format == 0 || !sized) return made;
    xcb_window_t root = (xcb_window_t)RootWindow(display, screen);
    xcb_pixmap_t pixmap = xcb_generate_id(c);
    made.requests[made.count++] =
        xcb_create_pixmap_checked(c, (uint8_t)DefaultDepth(display, screen), pixmap, root, width, height).sequence;
    uint32_t include_inferiors = XCB_SUBWINDOW_MODE_INCLUDE_INFERIORS;
    xcb_render_picture_t source = xcb_generate_id(c);
    made.requests[made.count++] =
        xcb_render_create_picture_checked(c, source, root, format, XCB_RENDER_CP_SUBWINDOW_MODE, &include_inferiors).sequence;
    xcb_render_picture_t copy = xcb_generate_id(c);
    made.requests[made.count++] = xcb_render_create_picture_checked(c, copy, pixmap, format, 0, NULL).sequence;
    if (factor > 1) {
        xcb_render_fixed_t scale = (xcb_render_fixed_t)factor << 16;
        xcb_render_transform_t transform = {scale, 0, 0, 0, scale, 0, 0, 0, 1 << 16};
        made.requests[made.count++] = xcb_render_set_picture_transform_checked(c, source, transform).sequence;
        made.requests[made.count++] = xcb_render_set_picture_filter_checked(c, source, 7, "nearest", 0, NULL).sequence;
    }
    made.requests[made.count++] =
        xcb_render_composite_checked(c, XCB_RENDER_PICT_OP_SRC, source, 0, copy, 0, 0, 0, 0, 0, 0, width, height).sequence;
    made.requests[made.count++] = xcb_render_free_picture_checked(c, copy).sequence;
    made.requests[made.count++] = xcb_render_free_picture_checked(c, source).sequence;
    made.pixmap = (Pixmap)pixmap;
    return made;
}

int sg_screen_copy_check(Display *display, sg_screen_copy_made made) {
    xcb_connection_t *c = XGetXCBConnection(display);
    int code = 0;
    for (int i = 0; i < made.count && i < 8; i++) {
        xcb_void_cookie_t cookie = {made.requests[i]};
        xcb_generic_error_t *error = xcb_request_check(c, cookie);
        if (error != NULL && code == 0) code = error->error_code;
        free(error);
    }
    if (code != 0 && made.pixmap != 0) xcb_discard_reply(c, xcb_free_pixmap_checked(c, (xcb_pixmap_t)made.pixmap).sequence);
    return code;
}
