import CGraphics
import SlidegateCore

/// Paints the lock screen's clock: the time large, the date in a line under it, and
/// `--status-command`'s line in a strip at the bottom, all centred (the window is centred
/// on the slider).
package final class ClockRenderer {
    package let width: Double
    package let height: Double
    /// The status line's strip at the bottom (0: none); the clock has the rest.
    private let statusHeight: Double
    private let backdrop: Backdrop
    private let foreground: Color
    private let timeContext: OpaquePointer
    private let dateContext: OpaquePointer
    private let statusContext: OpaquePointer

    package init(
        width: Double, height: Double, statusHeight: Double = 0, background: Color, backdrop: Backdrop? = nil, foreground: Color,
        fontMap: FontMap, family: String = "Sans"
    ) {
        self.width = width
        self.height = height
        self.statusHeight = min(max(statusHeight, 0), height)
        self.backdrop = backdrop ?? Backdrop(color: background)
        self.foreground = foreground
        let clockHeight = height - self.statusHeight
        timeContext = makePangoContext(fontMap, family: family + " Light", size: max(1, (clockHeight * 0.54).rounded()))
        dateContext = makePangoContext(fontMap, family: family, size: max(10, (clockHeight * 0.13).rounded()))
        statusContext = makePangoContext(fontMap, family: family, size: max(10, (self.statusHeight * 0.55).rounded()))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(timeContext))
        g_object_unref(UnsafeMutableRawPointer(dateContext))
        g_object_unref(UnsafeMutableRawPointer(statusContext))
    }

    /// Paints the whole window: the time in the upper part of the clock's and the date under
    /// it, then the status line in its strip (any may be empty).
    package func draw(time: String, date: String, status: String = "", into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, foreground.alpha)
        let clockHeight = height - statusHeight
        let split = date.isEmpty ? clockHeight : (clockHeight * 0.76).rounded()
        if !time.isEmpty { line(time, timeContext, in: Rect(x: 0, y: 0, width: width, height: split), cr) }
        if !date.isEmpty {
            let top = time.isEmpty ? 0 : split
            line(date, dateContext, in: Rect(x: 0, y: top, width: width, height: clockHeight - top), cr)
        }
        if !status.isEmpty, statusHeight > 0 {
            cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, foreground.alpha * 0.8)
            line(status, statusContext, in: Rect(x: 0, y: clockHeight, width: width, height: statusHeight), cr)
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
