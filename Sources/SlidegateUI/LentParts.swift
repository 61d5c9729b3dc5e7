import CGraphics
import CX11
import CXShim
import SlidegateCore
import SlidegateProtocol
import SlidegateRender
import SlidegateXlib

/// Lock mode: the slider's parts lent to the guard for a drag (`lend`), copied from the
/// renderer's images into pixmaps of depth 32 on the server, which the guard composites
/// until it gives the slider back. Owns the pixmaps.
final class LentParts {
    private let display: XDisplay
    private let pixmaps: [Pixmap]
    let parts: SliderParts

    /// Nil when the server has no pixmaps of depth 32.
    init?(display: XDisplay, window: Window, parts: DragParts) {
        let dpy = display.pointer
        var count: Int32 = 0
        guard let depths = XListDepths(dpy, display.screen, &count) else { return nil }
        let hasDepth32 = UnsafeBufferPointer(start: depths, count: Int(count)).contains(32)
        XFree(depths)
        guard hasDepth32 else { return nil }
        self.display = display
        func upload(_ image: OpaquePointer) -> Pixmap {
            let width = cairo_image_surface_get_width(image)
            let height = cairo_image_surface_get_height(image)
            let pixmap = XCreatePixmap(dpy, window, UInt32(width), UInt32(height), 32)
            let gc = XCreateGC(dpy, pixmap, 0, nil)
            if let data = cairo_image_surface_get_data(image),
                let ximage = XCreateImage(
                    dpy, XDefaultVisual(dpy, display.screen), 32, ZPixmap, 0, UnsafeMutableRawPointer(data).assumingMemoryBound(to: CChar.self),
                    UInt32(width), UInt32(height), 32, cairo_image_surface_get_stride(image))
            {
                ximage.pointee.byte_order = LSBFirst
                XPutImage(dpy, pixmap, gc, ximage, 0, 0, 0, 0, UInt32(width), UInt32(height))
                ximage.pointee.data = nil
                sg_image_destroy(ximage)
            }
            XFreeGC(dpy, gc)
            return pixmap
        }
        let track = upload(parts.track)
        let thumb = upload(parts.thumb)
        var label: SliderParts.Label?
        var pixmaps = [track, thumb]
        if let shown = parts.label {
            let pixmap = upload(shown.image)
            pixmaps.append(pixmap)
            let rect = Rect(
                x: shown.x, y: shown.y, width: Double(cairo_image_surface_get_width(shown.image)),
                height: Double(cairo_image_surface_get_height(shown.image)))
            label = SliderParts.Label(pixmap: UInt64(pixmap), rect: rect, foregroundAlpha: shown.foregroundAlpha, emphasis: shown.emphasis)
        }
        self.pixmaps = pixmaps
        self.parts = SliderParts(track: UInt64(track), thumb: UInt64(thumb), label: label)
    }

    deinit {
        for pixmap in pixmaps { XFreePixmap(display.pointer, pixmap) }
    }
}
