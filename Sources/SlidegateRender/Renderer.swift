import CGraphics
import SlidegateCore

/// Paints a `Scene` into any Cairo context, with the slider's rectangle at the layout's
/// bounds. Each label is shaped once per string and width and kept as an image; the track
/// and thumb are drawn once as images.
package final class Renderer {
    package let layout: SliderLayout
    package let background: Color
    private let backdrop: Backdrop
    package let foreground: Color
    /// The label's Pango contexts, made at the first text drawn: what needs no text is drawn
    /// while the fonts load (`prepare`).
    private var madeContexts: TextContexts?
    private let family: String
    private let fontMap: FontMap
    private var texts: [(string: String, width: Double, text: ShapedText)] = []
    private let shimmer: Shimmer
    private var baseImage: OpaquePointer?
    private var thumbImages: [ThumbGlyph: OpaquePointer] = [:]
    /// `--theme`: the track and thumb are these images instead of drawn shapes.
    private let theme: ThemeImages?
    /// What is drawn on the thumb (the arrow, padlock, busy dots): the foreground, or the theme's colour.
    private let glyph: Color
    /// The shimmer's two looks of the label's rectangle over the track, dim and lit, made
    /// once per label (text, place, alpha): a frame of the sweep copies the dim look and
    /// blends the lit one in through the band's gradient, an alpha image made once per band
    /// and placed on whole pixels, so a frame builds nothing and every pixel comes out the
    /// same whatever part of the slider is repainted.
    private var shimmerLooks: (label: Scene.Label, rect: Rect, dim: OpaquePointer, lit: OpaquePointer)?
    private var bandMask: (half: Double, height: Double, image: OpaquePointer)?

    /// What the thumb shows: an arrow to slide, dots while busy, a lock on the password stage.
    private enum ThumbGlyph: Hashable {
        case arrow, busy, lock

        init(_ scene: Scene) {
            self = scene.busy ? .busy : scene.field != nil ? .lock : .arrow
        }
    }

    /// - Parameters:
    ///   - layout: where the slider is, in the target surface's coordinates.
    ///   - family: a Pango family list such as "Sans" or "DejaVu Sans,VL Gothic".
    package init(
        layout: SliderLayout, background: Color, foreground: Color, fontMap: FontMap = FontMap(),
        family: String = "Sans", shimmer: Shimmer = Shimmer(), theme: ThemeImages? = nil, backdrop: Backdrop? = nil, glyph: Color? = nil
    ) {
        self.theme = theme
        self.glyph = glyph ?? foreground
        self.layout = layout
        self.background = background
        self.backdrop = backdrop ?? Backdrop(color: background)
        self.foreground = foreground
        self.fontMap = fontMap
        self.shimmer = shimmer
        self.family = family
    }

    deinit {
        if let baseImage { cairo_surface_destroy(baseImage) }
        if let shimmerLooks {
            cairo_surface_destroy(shimmerLooks.dim)
            cairo_surface_destroy(shimmerLooks.lit)
        }
        if let bandMask { cairo_surface_destroy(bandMask.image) }
        thumbImages.values.forEach { cairo_surface_destroy($0) }
    }

    private var contexts: TextContexts {
        if let madeContexts { return madeContexts }
        let made = TextContexts(fontMap: fontMap, family: family, size: (layout.bounds.height * 0.34).rounded())
        madeContexts = made
        return made
    }

    /// Draws what `scene` shows that needs no fonts (the track, the thumb), so that the
    /// first frame waits for the fonts only for its text.
    package func prepare(_ scene: Scene) throws(RenderError) {
        _ = try base()
        _ = try thumbImage(ThumbGlyph(scene))
    }

    private var trackColor: Color { background.mixed(with: foreground.fading(1), 0.10).opaque(like: background) }
    private var trackEdge: Color { background.mixed(with: foreground, 0.18).opaque(like: background) }
    private var thumbTop: Color { background.mixed(with: foreground, 0.46).opaque(like: background) }
    private var thumbBottom: Color { background.mixed(with: foreground, 0.30).opaque(like: background) }

    /// Paints the whole slider rectangle for `scene`.
    package func draw(_ scene: Scene, into cr: OpaquePointer) throws(RenderError) {
        try draw(scene, into: cr, clip: layout.bounds)
    }

    /// Paints only what changed since `previous` was painted into the same surface (all of
    /// it when `previous` is nil); returns the rectangles it repainted, none when nothing
    /// changed. While the shimmer runs that is the band's path through the text; while the
    /// thumb moves, the thumb's path and, apart from it, the fading text.
    @discardableResult
    package func draw(_ scene: Scene, after previous: Scene?, into cr: OpaquePointer) throws(RenderError) -> [Rect] {
        let dirty = try changedRects(from: previous, to: scene)
        for rect in dirty { try draw(scene, into: cr, clip: rect) }
        return dirty
    }

    private func draw(_ scene: Scene, into cr: OpaquePointer, clip: Rect) throws(RenderError) {
        let b = layout.bounds
        let looks = try scene.label.flatMap { (label) throws(RenderError) in try self.looks(for: label) }
        let frame = try Compositing(cr, within: clip.intersection(b))
        // A shimmer frame inside the label's looks needs no track under them.
        if looks.map({ frame.area.intersection($0.rect) != frame.area }) ?? true {
            try frame.copy(try base(), at: (b.x, b.y))
        }
        if let label = scene.label, label.alpha > 0 {
            if let looks, case .shimmer(let band) = label.emphasis {
                try drawShimmer(label, band: band, looks, frame)
            } else {
                try drawLabel(label, cr, frame)
            }
        }
        if let field = scene.field {
            try frame.cairoDraws(cr) { () throws(RenderError) in try drawField(field, busy: scene.busy, cr) }
        }
        let thumb = thumbRect(scene.thumbValue)
        try frame.over(try thumbImage(ThumbGlyph(scene)), at: (thumb.x, thumb.y))
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(status: status, "drawing the slider") }
    }

    /// What a drag's frame is made of, for `scene` with the thumb held: the track (at the
    /// layout's origin), the thumb with its arrow, and the label's text image with where it
    /// goes and the factors of its alpha; nil when a frame is more than these (a prompt, a
    /// busy thumb, a shimmer band). The images are the renderer's: the caller copies them.
    package func dragParts(for scene: Scene) throws(RenderError) -> DragParts? {
        guard scene.field == nil, !scene.busy else { return nil }
        var label: DragParts.Label?
        if let shown = scene.label {
            let emphasis: Double
            switch shown.emphasis {
            case .solid: emphasis = 1
            case .shimmer(nil): emphasis = shimmer.dimAlpha
            case .shimmer(.some): return nil
            }
            if let (text, x, y) = try place(shown), let ink = Self.ink(of: text.image) {
                label = DragParts.Label(
                    image: text.image, ink: ink, x: x + text.imageX, y: y + text.imageY, foregroundAlpha: foreground.alpha,
                    emphasis: emphasis)
            }
        }
        return DragParts(track: try base(), thumb: try thumbImage(.arrow), label: label)
    }

    /// The smallest rectangle of a Cairo ARGB32 `image` that holds every pixel not wholly
    /// transparent; nil when there is none. Outside it the image adds nothing to a frame.
    package static func ink(of image: OpaquePointer) -> Rect? {
        cairo_surface_flush(image)
        let width = Int(cairo_image_surface_get_width(image))
        let height = Int(cairo_image_surface_get_height(image))
        let stride = Int(cairo_image_surface_get_stride(image))
        guard let data = cairo_image_surface_get_data(image) else { return nil }
        var left = width, right = -1, top = height, bottom = -1
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where row[x] >> 24 != 0 {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = y
            }
        }
        guard right >= 0 else { return nil }
        return Rect(x: Double(left), y: Double(top), width: Double(right - left + 1), height: Double(bottom - top + 1))
    }

    /// The thumb's rectangle, on whole pixels so its cached image stays sharp.
    private func thumbRect(_ value: Double) -> Rect {
        let r = layout.thumb(at: value)
        return Rect(x: r.x.rounded(), y: r.y.rounded(), width: r.width, height: r.height)
    }

    /// The rectangles that differ between two scenes, none when they look the same: the
    /// thumb's old and new places as one, and the label's changed part as another (less the
    /// columns the thumb's rectangle already repaints), or one holding both when the label
    /// reaches above or below the thumb.
    func changedRects(from old: Scene?, to new: Scene) throws(RenderError) -> [Rect] {
        guard let old, old.field == new.field else { return [layout.bounds] }
        var thumb: Rect?
        if thumbRect(old.thumbValue) != thumbRect(new.thumbValue) || ThumbGlyph(old) != ThumbGlyph(new) {
            thumb = thumbRect(old.thumbValue).union(thumbRect(new.thumbValue))
        }
        var label: Rect?
        func add(_ r: Rect?) {
            guard let r else { return }
            label = label.map { $0.union(r) } ?? r
        }
        if old.label != new.label {
            if let a = old.label, let b = new.label, a.text == b.text, a.placement == b.placement, a.alpha == b.alpha,
                case .shimmer(let bandA) = a.emphasis, case .shimmer(let bandB) = b.emphasis
            {
                add(try bandRect(a, bandA))
                add(try bandRect(b, bandB))
            } else {
                add(try labelRect(old.label))
                add(try labelRect(new.label))
            }
        }
        var dirty: [Rect]
        switch (thumb, label) {
        case (nil, nil): return []
        case (let one?, nil), (nil, let one?): dirty = [one]
        case (let thumb?, let label?): dirty = label.outside(columnsOf: thumb).map { [thumb] + $0 } ?? [thumb.union(label)]
        }
        return dirty.map { $0.intersection(layout.bounds) }.filter { $0.width > 0 && $0.height > 0 }
    }

    /// Where a label's pixels are, in the target's coordinates.
    private func labelRect(_ label: Scene.Label?) throws(RenderError) -> Rect? {
        guard let label, let placed = try place(label) else { return nil }
        return Rect(
            x: placed.x + placed.text.imageX, y: placed.y + placed.text.imageY,
            width: Double(cairo_image_surface_get_width(placed.text.image)),
            height: Double(cairo_image_surface_get_height(placed.text.image)))
    }

    /// The part of a label the shimmer band brightens (nil band: none), whole pixels.
    private func bandRect(_ label: Scene.Label, _ band: Double?) throws(RenderError) -> Rect? {
        guard let band, let placed = try place(label), let whole = try labelRect(label) else { return nil }
        let half = shimmer.bandWidth / 2 * placed.text.width
        let centre = placed.x + placed.text.logicalX + band * placed.text.width
        let left = (centre - half).rounded(.down) - 1
        let right = (centre + half).rounded(.up) + 1
        return Rect(x: left, y: whole.y, width: right - left, height: whole.height).intersection(whole)
    }

    /// The background and the track, drawn once.
    private func base() throws(RenderError) -> OpaquePointer {
        if let cached = baseImage { return cached }
        let b = layout.bounds
        let image = try Self.imageSurface(Int(b.width), Int(b.height))
        let cr = cairo_create(image)!
        defer { cairo_destroy(cr) }
        cairo_translate(cr, -b.x, -b.y)
        backdrop.paint(cr)
        drawTrack(cr)
        cairo_surface_flush(image)
        baseImage = image
        return image
    }

    /// The thumb with its glyph, drawn once each.
    private func thumbImage(_ glyph: ThumbGlyph) throws(RenderError) -> OpaquePointer {
        if let cached = thumbImages[glyph] { return cached }
        let side = layout.thumbSide
        let image = try Self.imageSurface(Int(side), Int(side))
        let cr = cairo_create(image)!
        defer { cairo_destroy(cr) }
        drawThumb(cr, Rect(x: 0, y: 0, width: side, height: side), glyph: glyph)
        cairo_surface_flush(image)
        thumbImages[glyph] = image
        return image
    }

    private static func imageSurface(_ width: Int, _ height: Int) throws(RenderError) -> OpaquePointer {
        let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(max(width, 1)), Int32(max(height, 1)))!
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            throw RenderError(status: status, "allocating a \(width)x\(height) image")
        }
        return image
    }

    private func cornerRadius(for side: Double) -> Double { side * 0.22 }

    private func drawTrack(_ cr: OpaquePointer) {
        let b = layout.bounds
        if let theme {
            theme.draw(theme.track, caps: theme.trackCaps, into: b, cr)
            return
        }
        let radius = cornerRadius(for: layout.thumbSide) + layout.padding
        roundedRectPath(cr, Rect(x: b.x + 0.5, y: b.y + 0.5, width: b.width - 1, height: b.height - 1), radius: radius - 0.5)
        setColor(cr, trackColor)
        cairo_fill_preserve(cr)
        setColor(cr, trackEdge)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
    }

    private func drawThumb(_ cr: OpaquePointer, _ r: Rect, glyph: ThumbGlyph) {
        if let theme {
            // The theme's thumb carries its own arrow; a busy image its own dots.
            let busyImage = glyph == .busy ? theme.busy : nil
            theme.draw(busyImage ?? theme.thumb, caps: theme.thumbCaps, into: r, cr)
            guard glyph != .arrow, busyImage == nil else { return }
            setColor(cr, self.glyph)
            drawGlyph(cr, r, glyph: glyph)
            return
        }
        roundedRectPath(cr, r, radius: cornerRadius(for: r.width))
        let gradient = cairo_pattern_create_linear(0, r.y, 0, r.maxY)
        addStop(gradient, 0, thumbTop)
        addStop(gradient, 1, thumbBottom)
        cairo_set_source(cr, gradient)
        cairo_pattern_destroy(gradient)
        cairo_fill(cr)
        setColor(cr, self.glyph)
        drawGlyph(cr, r, glyph: glyph)
    }

    /// The thumb's glyph in the current colour: busy dots, a padlock, or the arrow.
    private func drawGlyph(_ cr: OpaquePointer, _ r: Rect, glyph: ThumbGlyph) {
        let s = r.width
        switch glyph {
        case .busy:
            for i in -1...1 {
                cairo_arc(cr, r.midX + Double(i) * s * 0.2, r.midY, s * 0.06, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
            return
        case .lock:
            // A padlock: a rounded body and, above it, the shackle.
            roundedRectPath(cr, Rect(x: r.x + s * 0.30, y: r.y + s * 0.46, width: s * 0.40, height: s * 0.30), radius: s * 0.05)
            cairo_fill(cr)
            cairo_set_line_width(cr, max(1.5, s * 0.07))
            cairo_new_sub_path(cr)
            cairo_arc(cr, r.midX, r.y + s * 0.40, s * 0.12, Double.pi, 2 * Double.pi)
            cairo_line_to(cr, r.midX + s * 0.12, r.y + s * 0.47)
            cairo_move_to(cr, r.midX - s * 0.12, r.y + s * 0.47)
            cairo_line_to(cr, r.midX - s * 0.12, r.y + s * 0.40)
            cairo_stroke(cr)
            return
        case .arrow:
            break
        }
        cairo_set_line_width(cr, max(1.5, s * 0.08))
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if layout.rightToLeft {
            // The arrow points the way the thumb goes: mirrored about the thumb's middle.
            cairo_translate(cr, 2 * r.midX, 0)
            cairo_scale(cr, -1, 1)
        }
        cairo_move_to(cr, r.x + s * 0.28, r.midY)
        cairo_line_to(cr, r.x + s * 0.70, r.midY)
        cairo_move_to(cr, r.x + s * 0.52, r.midY - s * 0.19)
        cairo_line_to(cr, r.x + s * 0.71, r.midY)
        cairo_line_to(cr, r.x + s * 0.52, r.midY + s * 0.19)
        cairo_stroke(cr)
    }

    /// A label's shaped text and the whole-pixel origin it is drawn at, or nil when its
    /// area has no room.
    private func place(_ label: Scene.Label) throws(RenderError) -> (text: ShapedText, x: Double, y: Double)? {
        let area = label.placement == .afterThumb ? layout.labelArea : layout.areaBeforeEnd
        guard area.width >= 1 else { return nil }
        let text = try shaped(label.text, width: area.width)
        let x = (area.midX - text.logicalX - text.width / 2).rounded()
        let y = (area.midY - text.logicalY - text.height / 2).rounded()
        return (text, x, y)
    }

    /// The shimmering label's looks: nil for a label that does not shimmer, one fading
    /// under a drag (its alpha changes every frame), or one over a background that is not
    /// opaque (the looks would not cover what is under them).
    private func looks(for label: Scene.Label) throws(RenderError) -> (label: Scene.Label, rect: Rect, dim: OpaquePointer, lit: OpaquePointer)? {
        guard case .shimmer = label.emphasis, label.alpha == 1, background.isOpaque else { return nil }
        var key = label
        key.emphasis = .shimmer(band: nil)
        if let cached = shimmerLooks, cached.label == key { return cached }
        guard let rect = try labelRect(label), let (text, x, y) = try place(label) else { return nil }
        let base = try base()
        func look(_ alpha: Double) throws(RenderError) -> OpaquePointer {
            let image = try Self.imageSurface(Int(rect.width), Int(rect.height))
            let cr = cairo_create(image)!
            defer { cairo_destroy(cr) }
            cairo_translate(cr, -rect.x, -rect.y)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(cr, base, layout.bounds.x, layout.bounds.y)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            cairo_set_source_surface(cr, text.image, x + text.imageX, y + text.imageY)
            cairo_paint_with_alpha(cr, foreground.alpha * label.alpha * alpha)
            cairo_surface_flush(image)
            return image
        }
        let looks = (label: key, rect: rect, dim: try look(shimmer.dimAlpha), lit: try look(1))
        if let old = shimmerLooks {
            cairo_surface_destroy(old.dim)
            cairo_surface_destroy(old.lit)
        }
        shimmerLooks = looks
        return looks
    }

    /// The dim look, and the lit one blended in under the band (the lit look is opaque, so
    /// OVER through the gradient is a blend of the two).
    private func drawShimmer(
        _ label: Scene.Label, band: Double?, _ looks: (label: Scene.Label, rect: Rect, dim: OpaquePointer, lit: OpaquePointer),
        _ frame: Compositing
    ) throws(RenderError) {
        let r = looks.rect
        try frame.copy(looks.dim, at: (r.x, r.y))
        if let band, let (text, originX, _) = try place(label) {
            let mask = try bandImage(half: (shimmer.bandWidth / 2 * text.width).rounded(.up), height: r.height)
            let centre = (originX + text.logicalX + band * text.width).rounded()
            try frame.over(looks.lit, at: (r.x, r.y), mask: (mask, (centre - Double(cairo_image_surface_get_width(mask) / 2), r.y)))
        }
    }

    /// The band as an alpha image `2 × half` wide: clear, opaque at the middle, clear.
    private func bandImage(half: Double, height: Double) throws(RenderError) -> OpaquePointer {
        if let bandMask, bandMask.half == half, bandMask.height == height { return bandMask.image }
        let image = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(2 * half), Int32(max(height, 1)))!
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            throw RenderError(status: status, "allocating the shimmer's band")
        }
        let cr = cairo_create(image)!
        let gradient = cairo_pattern_create_linear(0, 0, 2 * half, 0)!
        cairo_pattern_add_color_stop_rgba(gradient, 0, 0, 0, 0, 0)
        cairo_pattern_add_color_stop_rgba(gradient, 0.5, 0, 0, 0, 1)
        cairo_pattern_add_color_stop_rgba(gradient, 1, 0, 0, 0, 0)
        cairo_set_source(cr, gradient)
        cairo_paint(cr)
        cairo_pattern_destroy(gradient)
        cairo_destroy(cr)
        cairo_surface_flush(image)
        if let bandMask { cairo_surface_destroy(bandMask.image) }
        bandMask = (half, height, image)
        return image
    }

    private func drawLabel(_ label: Scene.Label, _ cr: OpaquePointer, _ frame: Compositing) throws(RenderError) {
        guard let (text, originX, originY) = try place(label) else { return }
        let origin = (originX + text.imageX, originY + text.imageY)
        let alpha = foreground.alpha * label.alpha
        switch label.emphasis {
        case .solid:
            try frame.over(text.image, at: origin, alpha: alpha)
        case .shimmer(nil):
            try frame.over(text.image, at: origin, alpha: alpha * shimmer.dimAlpha)
        case .shimmer(let band?):
            // Without looks (a background that is not opaque): the band's rectangle gets the
            // gradient; the rest of the text is painted dim exactly as with no band, so
            // repainting only the band's path stays exact.
            guard let whole = try labelRect(label), let lit = try bandRect(label, band) else { return }
            let beside = [
                Rect(x: whole.x, y: whole.y, width: lit.x - whole.x, height: whole.height),
                Rect(x: lit.maxX, y: whole.y, width: whole.maxX - lit.maxX, height: whole.height),
            ]
            for part in beside { try frame.over(text.image, at: origin, within: part, alpha: alpha * shimmer.dimAlpha) }
            try frame.cairoDraws(cr) { () throws(RenderError) in
                cairo_set_source_surface(cr, text.image, origin.0, origin.1)
                let half = shimmer.bandWidth / 2 * text.width
                let centre = originX + text.logicalX + band * text.width
                let mask = cairo_pattern_create_linear(centre - half, 0, centre + half, 0)
                cairo_pattern_add_color_stop_rgba(mask, 0, 0, 0, 0, alpha * shimmer.dimAlpha)
                cairo_pattern_add_color_stop_rgba(mask, 0.5, 0, 0, 0, alpha)
                cairo_pattern_add_color_stop_rgba(mask, 1, 0, 0, 0, alpha * shimmer.dimAlpha)
                cairo_pattern_set_extend(mask, CAIRO_EXTEND_PAD)
                cairo_rectangle(cr, lit.x, lit.y, lit.width, lit.height)
                cairo_clip(cr)
                cairo_mask(cr, mask)
                cairo_pattern_destroy(mask)
            }
        }
    }

    /// The password field in the track left of the thumb: what was typed (a bullet per
    /// character, or the text itself for a prompt that may show it) and a caret, or PAM's
    /// prompt dimmed while nothing is typed, or a notice; pushed sideways by the shake.
    private func drawField(_ field: Scene.Field, busy: Bool, _ cr: OpaquePointer) throws(RenderError) {
        var area = layout.areaBeforeEnd
        guard area.width >= 1 else { return }
        if let name = field.layout {
            var dim = foreground
            dim.alpha *= shimmer.dimAlpha
            area.width -= try drawBadge(name, outline: dim, textAlpha: shimmer.dimAlpha, at: area, cr)
        }
        if let failed = field.failedAttempts {
            area.width -= try drawBadge(Gate.failedMark + "\(failed)", outline: NoticeRenderer.accent(.error), textAlpha: 1, at: area, cr)
        }
        let typed = field.count > 0 ? (field.echoText ?? String(repeating: "\u{25CF}", count: field.count)) : nil
        let string = field.notice ?? typed ?? field.prompt
        let caretWidth = max(1, (layout.bounds.height * 0.03).rounded())
        let inset = caretWidth + 3
        let text = try ShapedText(string, width: area.width - inset, contexts: contexts, color: foreground)
        let x = (area.x + inset - text.logicalX + field.shake * layout.bounds.height).rounded()
        let y = (area.midY - text.logicalY - text.height / 2).rounded()
        cairo_set_source_surface(cr, text.image, x + text.imageX, y + text.imageY)
        cairo_paint_with_alpha(cr, foreground.alpha * (field.notice == nil && typed == nil ? shimmer.dimAlpha : 1))
        guard !busy, field.notice == nil else { return }
        // The caret: before the prompt, after what was typed.
        let caretX = typed == nil ? x + text.logicalX - inset : x + text.logicalX + text.width + 2
        setColor(cr, foreground)
        cairo_rectangle(cr, caretX.rounded(), area.midY - text.height * 0.4, caretWidth, text.height * 0.8)
        cairo_fill(cr)
    }

    /// `text` in an outlined box at the right end of `area`: the keyboard layout's name
    /// dimmed, the failed attempts' count outlined in the error colour; returns the width it
    /// takes, the gap before it included (0 when it does not fit).
    private func drawBadge(_ string: String, outline: Color, textAlpha: Double, at area: Rect, _ cr: OpaquePointer) throws(RenderError) -> Double {
        let text = try shaped(string, width: area.width / 3)
        let pad = (layout.bounds.height * 0.12).rounded()
        let box = Rect(
            x: (area.x + area.width - text.width - 3 * pad).rounded(), y: (area.midY - text.height / 2 - pad / 2).rounded(),
            width: (text.width + 2 * pad).rounded(), height: (text.height + pad).rounded())
        guard box.x > area.x + area.width / 2 else { return 0 }
        let line = max(1, (layout.bounds.height * 0.025).rounded())
        setColor(cr, outline)
        roundedRectPath(cr, Rect(x: box.x + line / 2, y: box.y + line / 2, width: box.width - line, height: box.height - line), radius: pad)
        cairo_set_line_width(cr, line)
        cairo_stroke(cr)
        cairo_set_source_surface(cr, text.image, box.x + pad - text.logicalX + text.imageX, box.y + pad / 2 - text.logicalY + text.imageY)
        cairo_paint_with_alpha(cr, foreground.alpha * textAlpha)
        return area.x + area.width - box.x + pad
    }

    /// The ink-free box of a label's text: where the shimmer band is measured.
    package func textExtent(_ string: String, width: Double) throws(RenderError) -> (x: Double, width: Double) {
        let t = try shaped(string, width: width)
        return (t.logicalX, t.width)
    }

    /// The shaped text for a string at a width; a renderer sees a handful (the label, the
    /// busy and failure messages), so a list compared by value is the cheapest cache.
    private func shaped(_ string: String, width: Double) throws(RenderError) -> ShapedText {
        if let cached = texts.first(where: { $0.width == width && $0.string == string }) { return cached.text }
        let text = try ShapedText(string, width: width, contexts: contexts, color: foreground)
        texts.append((string, width, text))
        return text
    }

    private func setColor(_ cr: OpaquePointer, _ c: Color) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }

    private func addStop(_ pattern: OpaquePointer?, _ offset: Double, _ c: Color) {
        cairo_pattern_add_color_stop_rgba(pattern, offset, c.red, c.green, c.blue, c.alpha)
    }
}

extension Color {
    /// Keeps the alpha of `base`: track and thumb are as opaque as the background.
    fileprivate func opaque(like base: Color) -> Color {
        Color(red: red, green: green, blue: blue, alpha: base.alpha)
    }
}

/// A drag's frame in parts (`Renderer.dragParts`): ARGB32 Cairo images the renderer owns.
package struct DragParts {
    package struct Label {
        package var image: OpaquePointer
        /// The part of the image that has ink: the rest is transparent and need not be lent.
        package var ink: Rect
        /// Where the image's top-left corner goes, in whole pixels.
        package var x: Double
        package var y: Double
        /// The label is painted at `foregroundAlpha × the scene's alpha × emphasis`.
        package var foregroundAlpha: Double
        package var emphasis: Double
    }

    package var track: OpaquePointer
    package var thumb: OpaquePointer
    package var label: Label?
}
