import CGraphics
import CX11
import SlidegateCore
import SlidegateProtocol
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// Lock mode: the slider's parts lent to the guard for a drag (`lend`), copied from the
/// renderer's images into pixmaps of depth 32 on the server, which the guard composites
/// until it gives the slider back. Owns the pixmaps.
final class LentParts {
    private let display: XDisplay
    private let pixmaps: [Pixmap]
    let parts: SliderParts

    /// Nil when the server has no pixmaps of depth 32 or refused one, or memory ran out;
    /// the pixmaps are on the server when it returns.
    init?(display: XDisplay, window: Window, parts: DragParts) {
        let dpy = display.pointer
        var count: Int32 = 0
        guard let depths = XListDepths(dpy, display.screen, &count) else { return nil }
        let hasDepth32 = UnsafeBufferPointer(start: depths, count: Int(count)).contains(32)
        XFree(depths)
        guard hasDepth32 else { return nil }
        var pixmaps: [Pixmap] = []
        var complete = true
        func upload(_ image: OpaquePointer, part: Rect? = nil) -> Pixmap {
            let width = part.map { UInt32($0.width) } ?? UInt32(cairo_image_surface_get_width(image))
            let height = part.map { UInt32($0.height) } ?? UInt32(cairo_image_surface_get_height(image))
            let pixmap = XCreatePixmap(dpy, window, width, height, 32)
            if let gc = XCreateGC(dpy, pixmap, 0, nil) {
                complete =
                    display.put(image, part: part, into: pixmap, gc: gc, visual: XDefaultVisual(dpy, display.screen), depth: 32)
                    && complete
                XFreeGC(dpy, gc)
            } else {
                complete = false
            }
            pixmaps.append(pixmap)
            return pixmap
        }
        let track = upload(parts.track)
        let thumb = upload(parts.thumb)
        // Only the text's ink: the guard redraws the label's rectangle at each step of its
        // fade, and the transparent rows and columns around the letters would cost it for nothing.
        let label = parts.label.map { (shown) in
            SliderParts.Label(
                pixmap: UInt64(upload(shown.image, part: shown.ink)),
                rect: Rect(x: shown.x + shown.ink.x, y: shown.y + shown.ink.y, width: shown.ink.width, height: shown.ink.height),
                foregroundAlpha: shown.foregroundAlpha, emphasis: shown.emphasis)
        }
        guard complete, display.sync() == nil else {
            for pixmap in pixmaps { XFreePixmap(dpy, pixmap) }
            return nil
        }
        self.display = display
        self.pixmaps = pixmaps
        self.parts = SliderParts(track: UInt64(track), thumb: UInt64(thumb), label: label)
    }

    deinit {
        for pixmap in pixmaps { XFreePixmap(display.pointer, pixmap) }
    }
}
