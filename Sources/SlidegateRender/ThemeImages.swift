import CGraphics
import SlidegateCore

/// A theme's images, decoded (a custom track and thumb), and how they stretch:
/// nine-slice, corners as they are, edges along one axis, the middle both ways. Owns the
/// decoded images.
package final class ThemeImages {
    let track: OpaquePointer
    let thumb: OpaquePointer
    let busy: OpaquePointer?
    let trackCaps: ThemeConfig.Caps
    let thumbCaps: ThemeConfig.Caps
    /// Device pixels per image pixel at the corners: the scale, halved for @2x images.
    let capScale: Double

    /// Decodes the PNGs; throws naming the file that does not decode.
    package init(
        track trackPath: String, thumb thumbPath: String, busy busyPath: String?, trackCaps: ThemeConfig.Caps,
        thumbCaps: ThemeConfig.Caps, capScale: Double
    ) throws(RenderError) {
        func load(_ path: String) throws(RenderError) -> OpaquePointer {
            let image = cairo_image_surface_create_from_png(path)!
            let status = cairo_surface_status(image)
            guard status == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(image)
                throw RenderError(status: status, "decoding \(path)")
            }
            return image
        }
        track = try load(trackPath)
        do {
            thumb = try load(thumbPath)
        } catch {
            cairo_surface_destroy(track)
            throw error
        }
        do {
            busy = try busyPath.map { (path) throws(RenderError) in try load(path) }
        } catch {
            cairo_surface_destroy(track)
            cairo_surface_destroy(thumb)
            throw error
        }
        self.trackCaps = trackCaps
        self.thumbCaps = thumbCaps
        self.capScale = capScale
    }

    deinit {
        ([track, thumb] + (busy.map { [$0] } ?? [])).forEach { cairo_surface_destroy($0) }
    }

    /// Draws `image` stretched nine-slice over `r`.
    func draw(_ image: OpaquePointer, caps: ThemeConfig.Caps, into r: Rect, _ cr: OpaquePointer) {
        let w = Double(cairo_image_surface_get_width(image))
        let h = Double(cairo_image_surface_get_height(image))
        let source = (
            x: [0, Double(caps.left), w - Double(caps.right), w], y: [0, Double(caps.top), h - Double(caps.bottom), h]
        )
        // Corners at the scale, shrunk together if the rectangle is smaller than them.
        let fitX = min(1, r.width / max(Double(caps.left + caps.right) * capScale, 1))
        let fitY = min(1, r.height / max(Double(caps.top + caps.bottom) * capScale, 1))
        let left = (Double(caps.left) * capScale * fitX).rounded()
        let right = (Double(caps.right) * capScale * fitX).rounded()
        let top = (Double(caps.top) * capScale * fitY).rounded()
        let bottom = (Double(caps.bottom) * capScale * fitY).rounded()
        let target = (x: [r.x, r.x + left, r.maxX - right, r.maxX], y: [r.y, r.y + top, r.maxY - bottom, r.maxY])
        for i in 0..<3 {
            for j in 0..<3 {
                let sw = source.x[i + 1] - source.x[i]
                let sh = source.y[j + 1] - source.y[j]
                let dw = target.x[i + 1] - target.x[i]
                let dh = target.y[j + 1] - target.y[j]
                guard sw > 0, sh > 0, dw > 0, dh > 0 else { continue }
                cairo_save(cr)
                cairo_rectangle(cr, target.x[i], target.y[j], dw, dh)
                cairo_clip(cr)
                cairo_translate(cr, target.x[i], target.y[j])
                cairo_scale(cr, dw / sw, dh / sh)
                cairo_set_source_surface(cr, image, -source.x[i], -source.y[j])
                cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                cairo_paint(cr)
                cairo_restore(cr)
            }
        }
    }
}
