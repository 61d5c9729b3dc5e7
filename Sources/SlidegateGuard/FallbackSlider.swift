import CX11
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// The slider the guard draws itself, with plain X rectangles, when no UI has drawn one
/// within `UISupervision.fallbackDelay` of being needed (the UI cannot start: no memory, the X server full, a
/// broken installation): an outlined track and a solid thumb, so a person can always see
/// where to slide. Owns its GC.
final class FallbackSlider {
    private let display: XDisplay
    private let window: Window
    private let gc: GC
    private var shownValue: Double?

    init(display: XDisplay, window: Window, foreground: Color) {
        self.display = display
        self.window = window
        gc = XCreateGC(display.pointer, window, 0, nil)
        XSetForeground(display.pointer, gc, display.pixel(for: Color(red: foreground.red, green: foreground.green, blue: foreground.blue)))
        XSetLineAttributes(display.pointer, gc, 2, LineSolid, CapButt, JoinMiter)
    }

    deinit {
        XFreeGC(display.pointer, gc)
    }

    /// Draws the slider of `layout` with the thumb at `value`, unless it shows that already.
    func draw(_ layout: SliderLayout, value: Double) {
        guard value != shownValue else { return }
        shownValue = value
        let dpy = display.pointer
        let bounds = layout.bounds
        XClearWindow(dpy, window)
        XDrawRectangle(dpy, window, gc, 1, 1, UInt32(xExtent: bounds.width - 2), UInt32(xExtent: bounds.height - 2))
        let thumb = layout.thumb(at: value)
        XFillRectangle(
            dpy, window, gc, Int32(xCoordinate: thumb.x), Int32(xCoordinate: thumb.y), UInt32(xExtent: thumb.width),
            UInt32(xExtent: thumb.height))
    }

    /// The window was cleared or resized: the next `draw` paints everything.
    func invalidate() {
        shownValue = nil
    }
}
