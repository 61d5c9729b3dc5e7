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
        try drawButtons([(text, Rect(x: 0, y: 0, width: width, height: height))], focused: nil, into: cr)
    }

    /// Paints a row of such buttons (the power row): each text in its rect, the rest the
    /// backdrop; the `focused` one (an index) ringed.
    package func drawButtons(_ buttons: [(text: String, rect: Rect)], focused: Int?, into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        for (index, button) in buttons.enumerated() {
            let box = Rect(x: button.rect.x + 1, y: button.rect.y + 1, width: button.rect.width - 2, height: button.rect.height - 2)
            pill(box, cr)
            try drawText(
                button.text, cr, in: Rect(
                    x: button.rect.x + box.height * 0.4, y: button.rect.y, width: button.rect.width - box.height * 0.8,
                    height: button.rect.height),
                lines: 1, centred: true)
            if index == focused { ring(box, radius: box.height / 2, cr) }
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing a button") }
    }

    /// Paints the media panel: a rounded box, the title over the artist at its left, and
    /// round buttons (previous, play or pause as `playing` says, next) in their rects; the
    /// `focused` one ringed. Nothing but the backdrop when `title` is nil (no player).
    package func drawMedia(
        title: String?, artist: String, playing: Bool, text: Rect, buttons: [(LockControl, Rect)], focused: LockControl?,
        into cr: OpaquePointer
    ) throws(RenderError) {
        cairo_save(cr)
        backdrop.paint(cr)
        if let title {
            let box = Rect(x: 1, y: 1, width: width - 2, height: height - 2)
            roundedRectPath(cr, box, radius: height * 0.22)
            let fill = background.mixed(with: foreground, 0.10)
            cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, 0.92)
            cairo_fill(cr)
            // The title over the artist, or alone in the middle.
            let half = (text.height / 2).rounded()
            let titleTop = artist.isEmpty ? text.y : text.y + half * 0.18
            try drawText(title, cr, in: Rect(x: text.x, y: titleTop, width: text.width, height: artist.isEmpty ? text.height : half), lines: 1, centred: false)
            if !artist.isEmpty {
                cairo_push_group(cr)
                try drawText(artist, cr, in: Rect(x: text.x, y: text.y + half * 0.82, width: text.width, height: half), lines: 1, centred: false)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, 0.7)
            }
            for (control, rect) in buttons {
                let r = rect.width / 2
                cairo_arc(cr, rect.midX, rect.midY, r - 1, 0, 2 * Double.pi)
                let disc = background.mixed(with: foreground, control == .playPause ? 0.85 : 0.22)
                cairo_set_source_rgb(cr, disc.red, disc.green, disc.blue)
                cairo_fill(cr)
                let glyph = control == .playPause ? background : foreground
                cairo_set_source_rgb(cr, glyph.red, glyph.green, glyph.blue)
                mediaGlyph(control, playing: playing, cx: rect.midX, cy: rect.midY, r: r * 0.42, cr)
                // Around the disc, clear of it.
                if control == focused { ring(Rect(x: rect.x - 5, y: rect.y - 5, width: rect.width + 10, height: rect.height + 10), radius: r + 5, cr) }
            }
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the media panel") }
    }

    /// Paints the on-screen keyboard: rounded keys on the backdrop, each with its label
    /// centred; the editing and page keys a shade darker, a `pressed` one lighter. With
    /// `only`, just those rectangles (a key pressed or let go) are painted again.
    package func drawKeyboard(
        _ keys: [(label: String, rect: Rect, function: Bool, pressed: Bool)], only: [Rect]? = nil, into cr: OpaquePointer
    ) throws(RenderError) {
        cairo_save(cr)
        if let only {
            for r in only { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }
            cairo_clip(cr)
        }
        backdrop.paint(cr)
        for key in keys where only?.contains(where: { $0.overlaps(key.rect) }) ?? true {
            let r = key.rect
            roundedRectPath(cr, Rect(x: r.x + 0.5, y: r.y + 0.5, width: r.width - 1, height: r.height - 1), radius: max(r.height * 0.16, 1))
            let fill = background.mixed(with: foreground, key.pressed ? 0.30 : key.function ? 0.08 : 0.16)
            cairo_set_source_rgb(cr, fill.red, fill.green, fill.blue)
            cairo_fill_preserve(cr)
            let edge = background.mixed(with: foreground, 0.30)
            cairo_set_source_rgb(cr, edge.red, edge.green, edge.blue)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            try drawText(key.label, cr, in: Rect(x: r.x + 2, y: r.y, width: r.width - 4, height: r.height), lines: 1, centred: true)
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the on-screen keyboard") }
    }

    /// A button's pill: the track's colour with a thin edge.
    private func pill(_ box: Rect, _ cr: OpaquePointer) {
        roundedRectPath(cr, box, radius: box.height / 2)
        let fill = background.mixed(with: foreground, 0.10)
        cairo_set_source_rgb(cr, fill.red, fill.green, fill.blue)
        cairo_fill_preserve(cr)
        let edge = background.mixed(with: foreground, 0.28)
        cairo_set_source_rgb(cr, edge.red, edge.green, edge.blue)
        cairo_set_line_width(cr, 1.5)
        cairo_stroke(cr)
    }

    /// The keyboard focus: a ring in the info accent just inside `box`.
    private func ring(_ box: Rect, radius: Double, _ cr: OpaquePointer) {
        let accent = Self.accent(.info)
        let inset = 2.5
        roundedRectPath(
            cr, Rect(x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset, height: box.height - 2 * inset),
            radius: max(radius - inset, 0))
        cairo_set_source_rgb(cr, accent.red, accent.green, accent.blue)
        cairo_set_line_width(cr, 3)
        cairo_stroke(cr)
    }

    /// Previous (a bar and a triangle pointing left), play (a triangle) or pause (two bars),
    /// next, in `r` of the centre.
    private func mediaGlyph(_ control: LockControl, playing: Bool, cx: Double, cy: Double, r: Double, _ cr: OpaquePointer) {
        func triangle(pointing direction: Double, tip: Double) {
            cairo_move_to(cr, tip, cy)
            cairo_line_to(cr, tip - direction * r * 1.1, cy - r * 0.9)
            cairo_line_to(cr, tip - direction * r * 1.1, cy + r * 0.9)
            cairo_close_path(cr)
        }
        switch control {
        case .playPause where playing:
            cairo_rectangle(cr, cx - r * 0.75, cy - r * 0.9, r * 0.5, r * 1.8)
            cairo_rectangle(cr, cx + r * 0.25, cy - r * 0.9, r * 0.5, r * 1.8)
        case .playPause:
            triangle(pointing: 1, tip: cx + r * 0.7)
        case .previous:
            cairo_rectangle(cr, cx - r * 0.9, cy - r * 0.9, r * 0.3, r * 1.8)
            triangle(pointing: -1, tip: cx - r * 0.55)
        case .next:
            cairo_rectangle(cr, cx + r * 0.6, cy - r * 0.9, r * 0.3, r * 1.8)
            triangle(pointing: 1, tip: cx + r * 0.55)
        case .power, .switchUser:
            break
        }
        cairo_fill(cr)
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
