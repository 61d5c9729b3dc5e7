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
