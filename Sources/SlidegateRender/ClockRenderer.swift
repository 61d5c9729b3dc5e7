import CGraphics
import SlidegateCore

/// Paints the lock screen's clock window, top to bottom: `--show-user`'s picture in a
/// circle and the name under it, the time large with the date in a line under it, and
/// `--status-command`'s line, all centred (the window is centred on the slider).
package final class ClockRenderer {
    package let width: Double
    package let height: Double
    /// The user's strip at the top and the status line's at the bottom (0: none); the clock
    /// has the rest.
    private let userHeight: Double
    private let statusHeight: Double
    private let backdrop: Backdrop
    private let foreground: Color
    private let timeContext: OpaquePointer
    private let dateContext: OpaquePointer
    private let statusContext: OpaquePointer
    private let nameContext: OpaquePointer
    private let initialContext: OpaquePointer
    /// `--show-user`: the name, and the picture (a Cairo image this renderer owns), if any.
    private let user: (name: String, picture: OpaquePointer?)?

    /// `user`'s picture becomes this renderer's, which destroys it.
    package init(
        width: Double, height: Double, statusHeight: Double = 0, user: (name: String, picture: OpaquePointer?)? = nil,
        userHeight: Double = 0, background: Color, backdrop: Backdrop? = nil, foreground: Color, fontMap: FontMap,
        family: String = "Sans"
    ) {
        self.width = width
        self.height = height
        self.statusHeight = min(max(statusHeight, 0), height)
        self.userHeight = user == nil ? 0 : min(max(userHeight, 0), height - self.statusHeight)
        self.user = user
        self.backdrop = backdrop ?? Backdrop(color: background)
        self.foreground = foreground
        let clockHeight = height - self.statusHeight - self.userHeight
        timeContext = makePangoContext(fontMap, family: family + " Light", size: max(1, (clockHeight * 0.54).rounded()))
        dateContext = makePangoContext(fontMap, family: family, size: max(10, (clockHeight * 0.13).rounded()))
        statusContext = makePangoContext(fontMap, family: family, size: max(10, (self.statusHeight * 0.55).rounded()))
        nameContext = makePangoContext(fontMap, family: family, size: max(10, (self.userHeight * 0.15).rounded()))
        initialContext = makePangoContext(fontMap, family: family + " Light", size: max(10, (self.userHeight * 0.36).rounded()))
    }

    deinit {
        for context in [timeContext, dateContext, statusContext, nameContext, initialContext] {
            g_object_unref(UnsafeMutableRawPointer(context))
        }
        if let picture = user?.picture { cairo_surface_destroy(picture) }
    }

    /// Paints the whole window: the user, the time with the date under it, then the status
    /// line, each in its part (any may be empty).
    package func draw(time: String, date: String, status: String = "", battery: Battery? = nil, into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        setColor(cr, alpha: 1)
        if let user, userHeight > 0 { drawUser(user.name, user.picture, cr) }
        let top = userHeight
        let clockHeight = height - statusHeight - userHeight
        let split = date.isEmpty ? clockHeight : (clockHeight * 0.76).rounded()
        if !time.isEmpty { line(time, timeContext, in: Rect(x: 0, y: top, width: width, height: split), cr) }
        if !date.isEmpty {
            let dateTop = time.isEmpty ? 0 : split
            line(date, dateContext, in: Rect(x: 0, y: top + dateTop, width: width, height: clockHeight - dateTop), cr)
        }
        if !status.isEmpty || battery != nil, statusHeight > 0 {
            setColor(cr, alpha: 0.8)
            statusLine(status, battery: battery, in: Rect(x: 0, y: height - statusHeight, width: width, height: statusHeight), cr)
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the clock") }
    }

    private func setColor(_ cr: OpaquePointer, alpha: Double) {
        cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, foreground.alpha * alpha)
    }

    /// The picture in a circle (scaled to cover it, centred), or the name's initial on a
    /// faint disc; the name under it.
    private func drawUser(_ name: String, _ picture: OpaquePointer?, _ cr: OpaquePointer) {
        let diameter = (userHeight * 0.68).rounded()
        let centre = (x: (width / 2).rounded(), y: (userHeight * 0.04).rounded() + diameter / 2)
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_arc(cr, centre.x, centre.y, diameter / 2, 0, 2 * Double.pi)
        if let picture, cairo_image_surface_get_width(picture) > 0, cairo_image_surface_get_height(picture) > 0 {
            let w = Double(cairo_image_surface_get_width(picture))
            let h = Double(cairo_image_surface_get_height(picture))
            let scale = diameter / min(w, h)
            cairo_clip(cr)
            cairo_translate(cr, centre.x - w * scale / 2, centre.y - h * scale / 2)
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, picture, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
        } else {
            setColor(cr, alpha: 0.16)
            cairo_fill(cr)
            setColor(cr, alpha: 0.9)
            line(UserIdentity.initial(of: name), initialContext, in: Rect(x: 0, y: centre.y - diameter / 2, width: width, height: diameter), cr)
        }
        cairo_restore(cr)
        let nameTop = centre.y + diameter / 2
        line(name, nameContext, in: Rect(x: 0, y: nameTop, width: width, height: userHeight - nameTop), cr)
    }

    /// The status strip: `--show-battery`'s gauge and level, then the status command's
    /// line, centred together.
    private func statusLine(_ status: String, battery: Battery?, in area: Rect, _ cr: OpaquePointer) {
        guard let battery else { return line(status, statusContext, in: area, cr) }
        let text = status.isEmpty ? battery.text : battery.text + "  ·  " + status
        let icon = (width: (area.height * 0.78).rounded(), height: (area.height * 0.4).rounded())
        let bolt = battery.charging ? (area.height * 0.32).rounded() : 0
        let room = icon.width + bolt + (area.height * 0.3).rounded()
        let textArea = Rect(x: area.x + room, y: area.y, width: max(area.width - room, 1), height: area.height)
        let textWidth = min(measure(text, statusContext), textArea.width)
        let left = (textArea.x + (textArea.width - textWidth) / 2 - room).rounded()
        let body = Rect(x: left + 0.75, y: (area.midY - icon.height / 2).rounded() + 0.75, width: icon.width - 3, height: icon.height - 1.5)
        cairo_save(cr)
        roundedRectPath(cr, body, radius: icon.height * 0.18)
        cairo_set_line_width(cr, 1.5)
        cairo_stroke(cr)
        // The terminal's nub, and the charge.
        cairo_rectangle(cr, body.maxX + 0.75, body.midY - body.height * 0.2, 1.5, body.height * 0.4)
        cairo_fill(cr)
        let inset = 2.0
        let full = max(body.width - 2 * inset, 0)
        cairo_rectangle(cr, body.x + inset, body.y + inset, (full * Double(battery.percent) / 100).rounded(), max(body.height - 2 * inset, 0))
        cairo_fill(cr)
        if battery.charging {
            // A bolt after the gauge.
            let (cx, cy, h) = (body.maxX + 2.25 + bolt / 2, body.midY, area.height * 0.5)
            cairo_move_to(cr, cx + h * 0.12, cy - h / 2)
            cairo_line_to(cr, cx - h * 0.28, cy + h * 0.08)
            cairo_line_to(cr, cx - h * 0.02, cy + h * 0.08)
            cairo_line_to(cr, cx - h * 0.12, cy + h / 2)
            cairo_line_to(cr, cx + h * 0.28, cy - h * 0.08)
            cairo_line_to(cr, cx + h * 0.02, cy - h * 0.08)
            cairo_close_path(cr)
            cairo_fill(cr)
        }
        cairo_restore(cr)
        line(text, statusContext, in: textArea, cr)
    }

    /// How wide `text` is in `context`, in pixels.
    private func measure(_ text: String, _ context: OpaquePointer) -> Double {
        guard let layout = pango_layout_new(context) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_text(layout, text, -1)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return Double(logical.width)
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
