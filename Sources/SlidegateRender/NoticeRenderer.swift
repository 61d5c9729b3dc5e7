import CGraphics
import SlidegateCore

/// Paints lock mode's other two windows: the banner strip at the top of the primary monitor
/// (a notification view: a rounded box with an icon and one or two lines of text,
/// sliding down from the top edge) and the `--message` line above the slider.
package final class NoticeRenderer {
    package let width: Double
    package let height: Double
    private let background: Color
    private let backdrop: Backdrop
    private let foreground: Color
    private let context: OpaquePointer

    /// The box's margin from the top of the strip once fully in.
    static let margin = 12.0

    package init(width: Double, height: Double, background: Color, backdrop: Backdrop? = nil, foreground: Color, fontMap: FontMap, family: String = "Sans",
        textSize: Double
    ) {
        self.width = width
        self.height = height
        self.background = background
        self.backdrop = backdrop ?? Backdrop(color: background)
        self.foreground = foreground
        context = makePangoContext(fontMap, family: family, size: textSize.rounded())
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// The icon's colour for each kind of banner.
    static func accent(_ kind: Banner.Kind) -> Color {
        switch kind {
        case .info: Color(hex: "#4a90d9")!
        case .warning: Color(hex: "#e0a030")!
        case .error: Color(hex: "#d9534f")!
        }
    }

    /// Paints the whole strip: the background, and the banner (if any) slid in `shown` of
    /// the way.
    package func drawBanner(_ banner: Scene.BannerView?, into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        if let banner {
            let boxHeight = height - Self.margin
            let y = -boxHeight + banner.shown * height
            let box = Rect(x: 1, y: y, width: width - 2, height: boxHeight - 1)
            roundedRectPath(cr, box, radius: boxHeight * 0.22)
            let fill = background.mixed(with: foreground, 0.12)
            cairo_set_source_rgb(cr, fill.red, fill.green, fill.blue)
            cairo_fill_preserve(cr)
            let accent = Self.accent(banner.kind)
            cairo_set_source_rgb(cr, accent.red, accent.green, accent.blue)
            cairo_set_line_width(cr, 1.5)
            cairo_stroke(cr)
            let r = boxHeight * 0.22
            let cx = box.x + boxHeight * 0.5
            let cy = box.y + boxHeight / 2
            cairo_arc(cr, cx, cy, r, 0, 2 * Double.pi)
            cairo_fill(cr)
            drawIcon(cr, banner.kind, cx: cx, cy: cy, r: r)
            let left = box.x + boxHeight
            try drawText(banner.text, cr, in: Rect(x: left, y: box.y, width: box.maxX - left - boxHeight * 0.3, height: boxHeight), lines: 2, centred: false)
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing a banner") }
    }

    /// Paints the message line: the text centred, ellipsized to one line.
    package func drawMessage(_ text: String, into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        try drawText(text, cr, in: Rect(x: 0, y: 0, width: width, height: height), lines: 1, centred: true, shadow: true)
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the message") }
    }

    /// Paints the switch-user button: a pill in the track's colour with a thin edge, and
    /// `text` centred in it, ellipsized to one line.
    package func drawButton(_ text: String, into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        let box = Rect(x: 1, y: 1, width: width - 2, height: height - 2)
        roundedRectPath(cr, box, radius: box.height / 2)
        let fill = background.mixed(with: foreground, 0.10)
        cairo_set_source_rgb(cr, fill.red, fill.green, fill.blue)
        cairo_fill_preserve(cr)
        let edge = background.mixed(with: foreground, 0.28)
        cairo_set_source_rgb(cr, edge.red, edge.green, edge.blue)
        cairo_set_line_width(cr, 1.5)
        cairo_stroke(cr)
        try drawText(text, cr, in: Rect(x: box.height * 0.4, y: 0, width: width - box.height * 0.8, height: height), lines: 1, centred: true)
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the switch-user button") }
    }

    /// "i", "!" or "×" in the icon's circle, in the background colour.
    private func drawIcon(_ cr: OpaquePointer, _ kind: Banner.Kind, cx: Double, cy: Double, r: Double) {
        cairo_set_source_rgb(cr, background.red, background.green, background.blue)
        cairo_set_line_width(cr, max(1.5, r * 0.22))
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        switch kind {
        case .info:
            cairo_move_to(cr, cx, cy - r * 0.05)
            cairo_line_to(cr, cx, cy + r * 0.5)
            cairo_stroke(cr)
            cairo_arc(cr, cx, cy - r * 0.45, r * 0.13, 0, 2 * Double.pi)
            cairo_fill(cr)
        case .warning:
            cairo_move_to(cr, cx, cy - r * 0.5)
            cairo_line_to(cr, cx, cy + r * 0.1)
            cairo_stroke(cr)
            cairo_arc(cr, cx, cy + r * 0.45, r * 0.13, 0, 2 * Double.pi)
            cairo_fill(cr)
        case .error:
            let d = r * 0.4
            cairo_move_to(cr, cx - d, cy - d)
            cairo_line_to(cr, cx + d, cy + d)
            cairo_move_to(cr, cx + d, cy - d)
            cairo_line_to(cr, cx - d, cy + d)
            cairo_stroke(cr)
        }
    }

    /// `shadow`: the text lies on the backdrop itself (the message line), not on a banner's box.
    private func drawText(_ text: String, _ cr: OpaquePointer, in area: Rect, lines: Int, centred: Bool, shadow: Bool = false)
        throws(RenderError)
    {
        guard area.width >= 1, let layout = pango_layout_new(context) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_text(layout, text, -1)
        pango_layout_set_width(layout, Int32(area.width * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_height(layout, Int32(-lines))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(layout, centred ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, foreground.alpha)
        let y = (area.midY - Double(logical.height) / 2 - Double(logical.y)).rounded()
        pango_cairo_update_context(cr, context)
        if shadow {
            backdrop.show(layout, x: area.x, y: y, shadow: max(1, (Double(logical.height) * 0.025).rounded()), cr)
        } else {
            cairo_move_to(cr, area.x, y)
            pango_cairo_show_layout(cr, layout)
        }
    }

}
