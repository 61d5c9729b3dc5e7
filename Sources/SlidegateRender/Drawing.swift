import CGraphics
import SlidegateCore

/// Adds a rectangle with rounded corners to the current path.
func roundedRectPath(_ cr: OpaquePointer, _ r: Rect, radius: Double) {
    let rad = min(radius, r.width / 2, r.height / 2)
    cairo_new_sub_path(cr)
    cairo_arc(cr, r.maxX - rad, r.y + rad, rad, -Double.pi / 2, 0)
    cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, Double.pi / 2)
    cairo_arc(cr, r.x + rad, r.maxY - rad, rad, Double.pi / 2, Double.pi)
    cairo_arc(cr, r.x + rad, r.y + rad, rad, Double.pi, 3 * Double.pi / 2)
    cairo_close_path(cr)
}

/// A Pango context for `fontMap` with the font options every slidegate drawing uses (grey
/// antialiasing, no hinting: the same pixels on any X server and offscreen), and `family`
/// at `size` pixels.
func makePangoContext(_ fontMap: FontMap, family: String, size: Double) -> OpaquePointer {
    let description = pango_font_description_from_string(family)
    defer { pango_font_description_free(description) }
    pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
    return makePangoContext(fontMap, description: description)
}

/// A Pango context for `fontMap` with slidegate's font options and `description`.
func makePangoContext(_ fontMap: FontMap, description: OpaquePointer?) -> OpaquePointer {
    let context = pango_font_map_create_context(fontMap.pointer)!
    let options = cairo_font_options_create()
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    pango_context_set_font_description(context, description)
    // Every drawing's target is an image surface, whose font options Pango merges into the
    // context's when it draws: merged now, text measured before its first drawing is shaped
    // with the fonts it is drawn with, and each font is set up (its metrics laid out) once.
    let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
    let cr = cairo_create(image)
    pango_cairo_update_context(cr, context)
    cairo_destroy(cr)
    cairo_surface_destroy(image)
    return context
}
