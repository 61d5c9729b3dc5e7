import CGraphics
import CX11
import SlidegateCore
import SlidegateXlib
import SlidegateRender

/// The slider's back buffer: a pixmap the size of the slider that the renderer paints
/// into, copied onto the window in one request so nothing flickers. Owns the pixmap, its
/// Cairo surface and context, and the GC used for the copy.
final class SliderSurface {
    private let display: XDisplay
    let pixmap: Pixmap
    private let gc: GC
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    let width: Int
    let height: Int

    init(display: XDisplay, drawable: Drawable, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int)
        throws(UserError)
    {
        self.display = display
        self.width = width
        self.height = height
        pixmap = XCreatePixmap(display.pointer, drawable, UInt32(width), UInt32(height), UInt32(depth))
        gc = XCreateGC(display.pointer, pixmap, 0, nil)
        surface = cairo_xlib_surface_create(display.pointer, pixmap, visual, Int32(width), Int32(height))
        cr = cairo_create(surface)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
            XFreeGC(display.pointer, gc)
            XFreePixmap(display.pointer, pixmap)
            throw UserError("cannot draw on the X server: \(String(cString: cairo_status_to_string(status)))", status: .internalError)
        }
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        XFreeGC(display.pointer, gc)
        XFreePixmap(display.pointer, pixmap)
    }

    /// Paints `scene` into the back buffer.
    func paint(_ scene: Scene, with renderer: Renderer) throws(UserError) {
        do {
            try renderer.draw(scene, into: cr)
        } catch {
            throw UserError("cannot draw the slider: \(error.description)", status: .internalError)
        }
        cairo_surface_flush(surface)
    }

    /// Copies the back buffer onto `window` at (x, y).
    func present(on window: Window, x: Int, y: Int) {
        XCopyArea(display.pointer, pixmap, window, gc, 0, 0, UInt32(width), UInt32(height), Int32(x), Int32(y))
    }
}
