import CGraphics
import SlidegateCore

/// Paints the lock screen's clock: the time large, the date in a line under it, both
/// centred (the window is centred on the slider).
package final class ClockRenderer {
    package let width: Double
    package let height: Double
    private let backdrop: Backdrop
    private let foreground: Color
    private let timeContext: OpaquePointer
    private let dateContext: OpaquePointer

    package init(width: Double, height: Double, background: Color, backdrop: Backdrop? = nil, foreground: Color, fontMap: FontMap, family: String = "Sans"
    ) {
        self.width = width
        self.height = height
        self.backdrop = backdrop ?? Backdrop(color: background)
        self.foreground = foreground
        timeContext = makePangoContext(fontMap, family: family + " Light", size: (height * 0.54).rounded())
        dateContext = makePangoContext(fontMap, family: family, size: max(10, (height * 0.13).rounded()))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(timeContext))
        g_object_unref(UnsafeMutableRawPointer(dateContext))
    }

    /// Paints the whole window: the time in its upper two thirds and the date under it
    /// (either may be empty).
    package func draw(time: String, date: String, into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, foreground.alpha)
        let split = date.isEmpty ? height : (height * 0.76).rounded()
        if !time.isEmpty { line(time, timeContext, in: Rect(x: 0, y: 0, width: width, height: split), cr) }
        if !date.isEmpty {
            let top = time.isEmpty ? 0 : split
            line(date, dateContext, in: Rect(x: 0, y: top, width: width, height: height - top), cr)
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the clock") }
    }

    /// One line of text centred in `area`, ellipsized to its width.
    private func line(_ text: String, _ context: OpaquePointer, in area: Rect, _ cr: OpaquePointer) {
        guard let layout = pango_layout_new(context) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_text(layout, text, -1)
        pango_layout_set_width(layout, Int32(area.width * Double(PANGO_SCALE)))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        pango_cairo_update_context(cr, context)
        backdrop.show(
            layout, x: area.x, y: (area.midY - Double(logical.height) / 2 - Double(logical.y)).rounded(),
            shadow: max(1, (Double(logical.height) * 0.025).rounded()), cr)
    }
}
