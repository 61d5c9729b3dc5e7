import CGraphics
import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// A window's back buffer (the slider's, the wheels', the keyboard's; a `PaintedWindow`'s
/// for one paint): a Cairo image in this process that a renderer paints into, of which
/// only the changed rectangles are sent to the window (a PutImage each), so a frame moves
/// a few kilobytes and the X server composites nothing; or kept as pixmaps for frames
/// handed over ahead (`PresentedSweep`). Owns the image, its pixels (mapped for it alone, so that freeing the
/// image gives them back to the system at once), the XImage header that describes it to
/// Xlib, and a GC.
final class WindowSurface {
    private let display: XDisplay
    private let gc: GC
    private let pixels: UnsafeMutableRawPointer
    private let pixelBytes: Int
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private let image: UnsafeMutablePointer<XImage>
    let width: Int
    let height: Int

    /// - Throws: when the window's visual is not 24- or 32-bit true colour with 8-bit red,
    ///   green and blue (every X server in use today), or memory runs out.
    init(display: XDisplay, drawable: Drawable, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int)
        throws(UserError)
    {
        let v = visual.pointee
        guard depth == 24 || depth == 32, v.red_mask == 0xff0000, v.green_mask == 0x00ff00, v.blue_mask == 0x0000ff else {
            throw UserError("the X server's visual (depth \(depth)) is not 24- or 32-bit true colour", status: .internalError)
        }
        let stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: width))
        let (product, overflow) = Int(stride).multipliedReportingOverflow(by: height)
        let bytes = max(product, 1)
        guard stride > 0, !overflow,
            let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED
        else {
            throw UserError("cannot allocate a \(width)x\(height) image", status: .internalError)
        }
        self.display = display
        self.width = width
        self.height = height
        pixels = mapped
        pixelBytes = bytes
        surface = cairo_image_surface_create_for_data(
            mapped.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), stride)
        cr = cairo_create(surface)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS,
            let ximage = XCreateImage(
                display.pointer, visual, UInt32(depth), ZPixmap, 0, mapped.assumingMemoryBound(to: CChar.self),
                UInt32(width), UInt32(height), 32, stride)
        else {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
            munmap(mapped, bytes)
            throw UserError("cannot allocate a \(width)x\(height) image", status: .internalError)
        }
        ximage.pointee.byte_order = LSBFirst
        image = ximage
        gc = XCreateGC(display.pointer, drawable, 0, nil)
    }

    deinit {
        image.pointee.data = nil
        sg_image_destroy(image)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        munmap(pixels, pixelBytes)
        XFreeGC(display.pointer, gc)
    }

    /// Paints what changed between `previous` and `scene`; returns those rectangles.
    func paint(_ scene: Scene, after previous: Scene?, with renderer: Renderer) throws(UserError) -> [Rect] {
        do {
            let dirty = try renderer.draw(scene, after: previous, into: cr)
            cairo_surface_flush(surface)
            return dirty
        } catch {
            throw error.userError(drawing: "the slider")
        }
    }

    /// Paints the whole image with `draw` (the banner strip, the message line).
    func paint(_ draw: (OpaquePointer) throws(RenderError) -> Void) throws(UserError) {
        do {
            try draw(cr)
            cairo_surface_flush(surface)
        } catch {
            throw error.userError()
        }
    }

    /// A new pixmap holding `rect` of the image as it is now, for `drawable`'s screen and
    /// depth (the caller frees it).
    func pixmap(of rect: Rect, for drawable: Drawable, depth: Int32) -> Pixmap {
        let r = rect.wholePixels
        let pixmap = XCreatePixmap(display.pointer, drawable, UInt32(r.width), UInt32(r.height), UInt32(depth))
        XPutImage(display.pointer, pixmap, gc, image, Int32(r.x), Int32(r.y), 0, 0, UInt32(r.width), UInt32(r.height))
        return pixmap
    }

    /// The whole image as X's 32-bit ZPixmap rows, least significant byte first (nil if
    /// its rows are padded, which Cairo does not do for ARGB32).
    func withPixels<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
        guard cairo_image_surface_get_stride(surface) == Int32(width * 4), let data = cairo_image_surface_get_data(surface) else {
            return nil
        }
        return body(UnsafeRawBufferPointer(start: data, count: width * height * 4))
    }

    /// Sends `rect` of the image (all of it by default) to the same place in `window`,
    /// the image's top-left corner at `origin`.
    func present(on window: Window, rect: Rect? = nil, at origin: (x: Int32, y: Int32) = (0, 0)) {
        let r = (rect ?? Rect(x: 0, y: 0, width: Double(width), height: Double(height))).wholePixels
        let left = Int32(r.x)
        let top = Int32(r.y)
        XPutImage(display.pointer, window, gc, image, left, top, left + origin.x, top + origin.y, UInt32(r.width), UInt32(r.height))
    }
}

extension RenderError {
    /// What the UI says, and ends with, when it cannot draw `what` (or a part named by the
    /// error alone).
    func userError(drawing what: String? = nil) -> UserError {
        UserError("cannot draw\(what.map { " \($0)" } ?? ""): \(description)", status: .internalError)
    }
}
