import CGraphics
import Glibc
import SlidegateCore

/// Paints the PIN wheels (seed 003's spin control): each wheel a drum of the digits 0–9
/// seen from the side. The digit in front is full size; its neighbours are rotated away on
/// the cylinder, squeezed by cos θ and shaded toward the edges, where gradients from the
/// background colour make the drum turn away into depth. A highlight band runs across the
/// row where the digits are read; the focused wheel is ringed.
package final class WheelRenderer {
    package let row: WheelRow
    private let background: Color
    private let foreground: Color
    private let context: OpaquePointer
    /// The ten digits, laid out once.
    private var digits: [OpaquePointer] = []
    private var digitSize: [(width: Double, height: Double, y: Double)] = []

    static let accent = Color(hex: "#4a90d9")!
    /// The drum's angle per digit: ten digits round.
    static let step = 2 * Double.pi / 10

    /// `row` in the coordinates of the surface painted (usually its area at 0, 0).
    package init(row: WheelRow, background: Color, foreground: Color, fontMap: FontMap, family: String = "Sans") {
        self.row = row
        self.background = background
        self.foreground = foreground
        // As tall as the drum's pitch allows, but narrow wheels (twelve in a row) get digits
        // that fit them.
        context = makePangoContext(fontMap, family: family + " Bold", size: min(row.pitch * 0.78, row.wheelWidth * 0.8).rounded())
        for d in 0...9 {
            let layout = pango_layout_new(context)!
            pango_layout_set_text(layout, String(d), -1)
            var ink = PangoRectangle()
            var logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, &ink, &logical)
            digits.append(layout)
            digitSize.append((Double(logical.width), Double(ink.height), Double(ink.y)))
        }
    }

    deinit {
        digits.forEach { g_object_unref(UnsafeMutableRawPointer($0)) }
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Paints only the wheels that changed since `previous` was painted into the same
    /// surface (all of the row when `previous` is nil or the row dims or lights up);
    /// returns the rectangle it repainted, or nil when nothing changed. A spinning wheel
    /// costs its own rectangle, not the row's.
    @discardableResult
    package func draw(_ wheels: Scene.WheelsView, after previous: Scene.WheelsView?, into cr: OpaquePointer) throws(RenderError)
        -> Rect?
    {
        let whole = Rect(x: 0, y: 0, width: row.area.maxX, height: row.area.maxY)
        guard let previous, previous.enabled == wheels.enabled, previous.positions.count == wheels.positions.count else {
            try draw(wheels, into: cr)
            return whole
        }
        var dirty: Rect?
        for i in wheels.positions.indices where i < row.count {
            guard previous.positions[i] != wheels.positions[i] || (previous.focus == i) != (wheels.focus == i) else { continue }
            let r = row.wheel(i)
            // The focus ring and the band reach a few pixels past the wheel.
            let around = Rect(x: r.x - 5, y: r.y, width: r.width + 10, height: r.height).intersection(whole)
            dirty = dirty.map { $0.union(around) } ?? around
        }
        guard let dirty else { return nil }
        cairo_save(cr)
        cairo_rectangle(cr, dirty.x, dirty.y, dirty.width, dirty.height)
        cairo_clip(cr)
        try draw(wheels, into: cr)
        cairo_restore(cr)
        return dirty
    }

    /// Paints the whole row over the background.
    package func draw(_ wheels: Scene.WheelsView, into cr: OpaquePointer) throws(RenderError) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, background.red, background.green, background.blue, background.alpha)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        if !wheels.enabled { cairo_push_group(cr) }
        pango_cairo_update_context(cr, context)
        for (i, position) in wheels.positions.enumerated() where i < row.count {
            drawWheel(row.wheel(i), position: position, cr)
        }
        drawBand(cr)
        if let focus = wheels.focus, focus < row.count {
            let r = row.wheel(focus)
            roundedRectPath(cr, Rect(x: r.x - 2, y: r.y + 1, width: r.width + 4, height: r.height - 2), radius: r.width * 0.18)
            cairo_set_source_rgb(cr, Self.accent.red, Self.accent.green, Self.accent.blue)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
        }
        if !wheels.enabled {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, 0.35)
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the wheels") }
    }

    private func drawWheel(_ r: Rect, position: Double, _ cr: OpaquePointer) {
        let radius = min(r.width * 0.16, 14)
        let body = Rect(x: r.x, y: r.y + 2, width: r.width, height: r.height - 4)
        // The drum: lit in the middle, dark where it turns away.
        let lit = background.mixed(with: foreground, 0.16)
        let dark = background.mixed(with: Color(red: 0, green: 0, blue: 0, alpha: 1), 0.35)
        let drum = cairo_pattern_create_linear(0, body.y, 0, body.maxY)!
        cairo_pattern_add_color_stop_rgb(drum, 0, dark.red, dark.green, dark.blue)
        cairo_pattern_add_color_stop_rgb(drum, 0.5, lit.red, lit.green, lit.blue)
        cairo_pattern_add_color_stop_rgb(drum, 1, dark.red, dark.green, dark.blue)
        roundedRectPath(cr, body, radius: radius)
        cairo_set_source(cr, drum)
        cairo_fill_preserve(cr)
        cairo_pattern_destroy(drum)
        cairo_save(cr)
        cairo_clip(cr)
        let cx = r.midX
        let cy = r.midY
        let front = position.rounded(.down)
        for k in Int(front) - 3...Int(front) + 3 {
            let theta = (Double(k) - position) * Self.step
            guard abs(theta) < Double.pi / 2 - 0.05 else { continue }
            let squeeze = cos(theta)
            let y = cy + row.radius * sin(theta)
            let digit = Wheel.digit(of: Double(k))
            let size = digitSize[digit]
            cairo_save(cr)
            cairo_translate(cr, cx, y)
            cairo_scale(cr, 1, squeeze)
            cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, foreground.alpha * (0.2 + 0.8 * squeeze * squeeze))
            cairo_move_to(cr, -size.width / 2, -size.height / 2 - size.y)
            pango_cairo_show_layout(cr, digits[digit])
            cairo_restore(cr)
        }
        // Depth: the background closes over the drum toward its top and bottom edges.
        let shade = cairo_pattern_create_linear(0, body.y, 0, body.maxY)!
        cairo_pattern_add_color_stop_rgba(shade, 0, dark.red, dark.green, dark.blue, 0.95)
        cairo_pattern_add_color_stop_rgba(shade, 0.3, dark.red, dark.green, dark.blue, 0)
        cairo_pattern_add_color_stop_rgba(shade, 0.7, dark.red, dark.green, dark.blue, 0)
        cairo_pattern_add_color_stop_rgba(shade, 1, dark.red, dark.green, dark.blue, 0.95)
        cairo_set_source(cr, shade)
        cairo_paint(cr)
        cairo_pattern_destroy(shade)
        cairo_restore(cr)
        cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, 0.18)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
    }

    /// The band across the row where the digits are read.
    private func drawBand(_ cr: OpaquePointer) {
        let first = row.wheel(0)
        let last = row.wheel(row.count - 1)
        let height = (row.pitch * 1.08).rounded()
        let band = Rect(x: first.x - 4, y: (first.midY - height / 2).rounded(), width: last.maxX - first.x + 8, height: height)
        roundedRectPath(cr, band, radius: height * 0.2)
        cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, 0.07)
        cairo_fill_preserve(cr)
        cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, 0.32)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
    }
}
