import CGraphics
import Glibc
import SlidegateCore

/// Paints the PIN wheels (a spin control): each wheel a drum of the digits 0–9
/// seen from the side. The digit in front is full size; its neighbours are rotated away on
/// the cylinder, squeezed by cos θ and shaded toward the edges, where gradients from the
/// background colour make the drum turn away into depth. A highlight band runs across the
/// row where the digits are read; the focused wheel is ringed.
///
/// What does not move is drawn once into images — the drum, its shading, each digit — so a
/// frame of a turning wheel is a few image copies, not text rendering at a new scale each
/// time (which Cairo's glyph cache could never hit). Owns the images and the Pango context.
package final class WheelRenderer {
    package let row: WheelRow
    private let background: Color
    private let backdrop: Backdrop
    private let foreground: Color
    private let context: OpaquePointer
    /// The ten digits, each its coverage as an 8-bit mask, and its size.
    private var digits: [OpaquePointer] = []
    private var digitSize: [(width: Double, height: Double)] = []
    /// One wheel's body (the lit drum) and the shading laid over its digits, at the size of
    /// `row.wheel(_:)`.
    private var drum: OpaquePointer?
    private var shade: OpaquePointer?

    static let accent = Color(hex: "#4a90d9")!
    /// The drum's angle per digit: ten digits round.
    static let step = 2 * Double.pi / 10

    /// `row` in the coordinates of the surface painted (usually its area at 0, 0).
    package init(row: WheelRow, background: Color, backdrop: Backdrop? = nil, foreground: Color, fontMap: FontMap, family: String = "Sans"
    ) {
        self.row = row
        self.background = background
        self.backdrop = backdrop ?? Backdrop(color: background)
        self.foreground = foreground
        // As tall as the drum's pitch allows, but narrow wheels (twelve in a row) get digits
        // that fit them.
        context = makePangoContext(fontMap, family: family + " Bold", size: min(row.pitch * 0.78, row.wheelWidth * 0.8).rounded())
    }

    deinit {
        (digits + [drum, shade].compactMap { $0 }).forEach { cairo_surface_destroy($0) }
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Makes the images on first use: the digits (their ink, in the foreground colour), the
    /// drum and its shade.
    private func prepare() throws(RenderError) {
        guard drum == nil else { return }
        for d in 0...9 {
            let layout = pango_layout_new(context)!
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            pango_layout_set_text(layout, String(d), -1)
            var ink = PangoRectangle()
            var logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, &ink, &logical)
            let width = Double(max(logical.width, 1))
            let height = Double(max(ink.height, 1)) + 2
            let image = try makeImage(width: width, height: height, format: CAIRO_FORMAT_A8) { cr in
                cairo_move_to(cr, 0, 1 - Double(ink.y))
                pango_cairo_update_context(cr, context)
                pango_cairo_show_layout(cr, layout)
            }
            digits.append(image)
            digitSize.append((width, height))
        }
        let r = row.wheel(0)
        let body = Rect(x: 0, y: 2, width: r.width, height: r.height - 4)
        let radius = min(r.width * 0.16, 14)
        let lit = background.mixed(with: foreground, 0.16)
        let dark = background.mixed(with: Color(red: 0, green: 0, blue: 0, alpha: 1), 0.35)
        drum = try makeImage(width: r.width, height: r.height) { cr in
            // Lit in the middle, dark where it turns away.
            let gradient = cairo_pattern_create_linear(0, body.y, 0, body.maxY)!
            cairo_pattern_add_color_stop_rgb(gradient, 0, dark.red, dark.green, dark.blue)
            cairo_pattern_add_color_stop_rgb(gradient, 0.5, lit.red, lit.green, lit.blue)
            cairo_pattern_add_color_stop_rgb(gradient, 1, dark.red, dark.green, dark.blue)
            roundedRectPath(cr, body, radius: radius)
            cairo_set_source(cr, gradient)
            cairo_fill(cr)
            cairo_pattern_destroy(gradient)
        }
        shade = try makeImage(width: r.width, height: r.height) { cr in
            // Depth: the background closes over the drum toward its top and bottom edges.
            let gradient = cairo_pattern_create_linear(0, body.y, 0, body.maxY)!
            cairo_pattern_add_color_stop_rgba(gradient, 0, dark.red, dark.green, dark.blue, 0.95)
            cairo_pattern_add_color_stop_rgba(gradient, 0.3, dark.red, dark.green, dark.blue, 0)
            cairo_pattern_add_color_stop_rgba(gradient, 0.7, dark.red, dark.green, dark.blue, 0)
            cairo_pattern_add_color_stop_rgba(gradient, 1, dark.red, dark.green, dark.blue, 0.95)
            roundedRectPath(cr, body, radius: radius)
            cairo_set_source(cr, gradient)
            cairo_fill_preserve(cr)
            cairo_pattern_destroy(gradient)
            cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, 0.18)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
        }
    }

    /// A transparent image of `width`x`height` with `draw` painted on it.
    private func makeImage(width: Double, height: Double, format: cairo_format_t = CAIRO_FORMAT_ARGB32, _ draw: (OpaquePointer) -> Void)
        throws(RenderError) -> OpaquePointer
    {
        let image = cairo_image_surface_create(format, Int32(width.rounded(.up)), Int32(height.rounded(.up)))!
        let cr = cairo_create(image)!
        draw(cr)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        cairo_surface_flush(image)
        guard status == CAIRO_STATUS_SUCCESS, cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            throw RenderError(status: status == CAIRO_STATUS_SUCCESS ? cairo_surface_status(image) : status, "drawing a wheel's images")
        }
        return image
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
        try prepare()
        cairo_save(cr)
        backdrop.paint(cr)
        if !wheels.enabled { cairo_push_group(cr) }
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
        guard let drum, let shade else { return }
        cairo_save(cr)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_clip(cr)
        cairo_set_source_surface(cr, drum, r.x, r.y)
        cairo_paint(cr)
        let front = position.rounded(.down)
        for k in Int(front) - 3...Int(front) + 3 {
            let theta = (Double(k) - position) * Self.step
            guard abs(theta) < Double.pi / 2 - 0.05 else { continue }
            let squeeze = cos(theta)
            let digit = Wheel.digit(of: Double(k))
            let size = digitSize[digit]
            cairo_save(cr)
            cairo_translate(cr, r.midX, r.midY + row.radius * sin(theta))
            cairo_scale(cr, 1, squeeze)
            let alpha = foreground.alpha * (0.2 + 0.8 * squeeze * squeeze)
            cairo_set_source_rgba(cr, foreground.red, foreground.green, foreground.blue, alpha)
            let mask = cairo_pattern_create_for_surface(digits[digit])!
            var offset = cairo_matrix_t()
            cairo_matrix_init_translate(&offset, (size.width / 2).rounded(), size.height / 2)
            cairo_pattern_set_matrix(mask, &offset)
            cairo_pattern_set_filter(mask, CAIRO_FILTER_BILINEAR)
            cairo_mask(cr, mask)
            cairo_pattern_destroy(mask)
            cairo_restore(cr)
        }
        cairo_set_source_surface(cr, shade, r.x, r.y)
        cairo_paint(cr)
        cairo_restore(cr)
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
