import CGraphics
import SlidegateCore

/// A frame's copies and blends, done by pixman straight on the pixels of Cairo image
/// surfaces: a frame of the slider is a few of these (the track, the label's look, the
/// thumb), and Cairo's work around each (its state, clip and pattern set-up) cost more than
/// the pixels. Cairo still draws everything that is drawn once (the images these copy) and
/// what a frame draws as shapes or text (the password field); `cairoDraws` hands the
/// target back and forth. Owns its pixman image of the target.
final class Compositing {
    private let surface: OpaquePointer
    private let target: OpaquePointer
    /// Where `cr`'s origin is on the target: it may be moved by whole pixels, no more.
    private let offset: (x: Double, y: Double)
    /// The part of the target the frame may change, in whole pixels, in `cr`'s coordinates.
    let area: Rect
    /// The same on the target.
    private let targetArea: Rect

    /// - Throws: when `cr` does not draw on an ARGB32 image surface, or is scaled, turned
    ///   or moved by part of a pixel.
    init(_ cr: OpaquePointer, within clip: Rect) throws(RenderError) {
        surface = cairo_get_target(cr)
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
            cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32,
            m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0, m.x0 == m.x0.rounded(), m.y0 == m.y0.rounded()
        else { throw RenderError("the slider is drawn only on ARGB32 images, unscaled, at whole pixels") }
        offset = (m.x0, m.y0)
        cairo_surface_flush(surface)
        target = try Self.image(surface)
        let width = Double(cairo_image_surface_get_width(surface))
        let height = Double(cairo_image_surface_get_height(surface))
        targetArea = clip.wholePixels.moved(offset).intersection(Rect(x: 0, y: 0, width: width, height: height))
        area = targetArea.moved((-offset.x, -offset.y))
    }

    deinit {
        let a = targetArea
        cairo_surface_mark_dirty_rectangle(surface, Int32(a.x), Int32(a.y), Int32(a.width), Int32(a.height))
        pixman_image_unref(target)
    }

    /// A pixman image over an ARGB32 or A8 Cairo image's pixels (no copy); the caller
    /// unrefs it.
    private static func image(_ surface: OpaquePointer) throws(RenderError) -> OpaquePointer {
        let format = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_A8 ? PIXMAN_a8 : PIXMAN_a8r8g8b8
        guard let data = cairo_image_surface_get_data(surface),
            let image = pixman_image_create_bits(
                format, cairo_image_surface_get_width(surface), cairo_image_surface_get_height(surface),
                UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self), cairo_image_surface_get_stride(surface))
        else { throw RenderError("pixman could not take an image") }
        return image
    }

    /// Copies `source` (its top-left corner at `origin`) onto the target within the
    /// frame's area.
    func copy(_ source: OpaquePointer, at origin: (x: Double, y: Double)) throws(RenderError) {
        try composite(PIXMAN_OP_SRC, source, at: origin, within: nil)
    }

    /// Lays `source` over the target within `rect` (all of it by default) and the frame's
    /// area, at `alpha` (1: as it is) or through `mask` (an A8 image, its corner at the
    /// origin given with it; clear outside it).
    func over(
        _ source: OpaquePointer, at origin: (x: Double, y: Double), within rect: Rect? = nil, alpha: Double = 1,
        mask: (image: OpaquePointer, origin: (x: Double, y: Double))? = nil
    ) throws(RenderError) {
        try composite(PIXMAN_OP_OVER, source, at: origin, within: rect, alpha: alpha, mask: mask)
    }

    private func composite(
        _ op: pixman_op_t, _ source: OpaquePointer, at origin: (x: Double, y: Double), within rect: Rect?, alpha: Double = 1,
        mask: (image: OpaquePointer, origin: (x: Double, y: Double))? = nil
    ) throws(RenderError) {
        let placed = Rect(
            x: origin.x, y: origin.y, width: Double(cairo_image_surface_get_width(source)),
            height: Double(cairo_image_surface_get_height(source)))
        var box = area.intersection(placed)
        if let rect { box = box.intersection(rect.wholePixels) }
        if let mask {
            box = box.intersection(
                Rect(
                    x: mask.origin.x, y: mask.origin.y, width: Double(cairo_image_surface_get_width(mask.image)),
                    height: Double(cairo_image_surface_get_height(mask.image))))
        }
        guard box.width > 0, box.height > 0, alpha > 0 else { return }
        let onTarget = box.moved(offset)
        let sourceImage = try Self.image(source)
        defer { pixman_image_unref(sourceImage) }
        var maskImage: OpaquePointer?
        var maskX = 0
        var maskY = 0
        if let mask {
            maskImage = try Self.image(mask.image)
            maskX = Int(box.x - mask.origin.x)
            maskY = Int(box.y - mask.origin.y)
        } else if alpha < 1 {
            // What Cairo makes of paint_with_alpha: a solid mask of the alpha in 16 bits.
            var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(alpha * 65535 + 0.5))
            maskImage = pixman_image_create_solid_fill(&color)
            guard maskImage != nil else { throw RenderError("pixman could not make a solid mask") }
        }
        defer { if let maskImage { pixman_image_unref(maskImage) } }
        pixman_image_composite32(
            op, sourceImage, maskImage, target, Int32(box.x - origin.x), Int32(box.y - origin.y), Int32(maskX), Int32(maskY),
            Int32(onTarget.x), Int32(onTarget.y), Int32(box.width), Int32(box.height))
    }

    /// Runs Cairo drawing on the target, clipped to the frame's area: its pixels are
    /// handed over first and taken back after.
    func cairoDraws(_ cr: OpaquePointer, _ draw: () throws(RenderError) -> Void) throws(RenderError) {
        let a = targetArea
        cairo_surface_mark_dirty_rectangle(surface, Int32(a.x), Int32(a.y), Int32(a.width), Int32(a.height))
        cairo_save(cr)
        cairo_rectangle(cr, area.x, area.y, area.width, area.height)
        cairo_clip(cr)
        defer {
            cairo_restore(cr)
            cairo_surface_flush(surface)
        }
        try draw()
    }
}

extension Rect {
    fileprivate func moved(_ by: (x: Double, y: Double)) -> Rect {
        Rect(x: x + by.x, y: y + by.y, width: width, height: height)
    }
}
