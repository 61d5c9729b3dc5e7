import CGraphics
import SlidegateCore

/// What a window shows where nothing is drawn: the background colour, or the part of the
/// background image (`--image`) that lies under the window. Owns that image.
package final class Backdrop {
    package let color: Color
    private let image: OpaquePointer?

    package init(color: Color) {
        self.color = color
        image = nil
    }

    /// - Parameter image: a Cairo image surface the window's size, its top-left corner at
    ///   the window's; the backdrop takes it over.
    package init(color: Color, image: OpaquePointer) {
        self.color = color
        self.image = image
    }

    deinit {
        if let image { cairo_surface_destroy(image) }
    }

    /// Replaces everything inside the current clip with the backdrop, the window's
    /// top-left corner at user-space (0, 0).
    package func paint(_ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        if let image {
            cairo_set_source_surface(cr, image, 0, 0)
        } else {
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        }
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Shows `layout` at (`x`, `y`) in the current source; over a picture, a dark copy
    /// `offset` pixels lower goes first, so that light text stays legible on a light one.
    package func show(_ layout: OpaquePointer, x: Double, y: Double, shadow offset: Double, _ cr: OpaquePointer) {
        if image != nil {
            cairo_save(cr)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.45)
            cairo_move_to(cr, x, y + offset)
            pango_cairo_show_layout(cr, layout)
            cairo_restore(cr)
        }
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }
}
