import CX11
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// Where the PIN wheels are drawn: the guard's wheels window (lock mode), or the top of the
/// window that also holds the track (windowed mode). Owns its back buffer and renderer.
final class WheelsPanel {
    let window: Window
    /// Where the buffer goes in `window`.
    let origin: (x: Int32, y: Int32)
    let surface: WindowSurface
    let renderer: WheelRenderer
    /// The wheels as last painted.
    var shown: Scene.WheelsView?

    /// A buffer of `size` at `origin` in `window`, with the row of `count` wheels `rowHeight`
    /// tall at its top (the rest is background: the gap above the track in windowed mode).
    init(
        display: XDisplay, window: Window, size: (width: Double, height: Double), rowHeight: Double, origin: (x: Int32, y: Int32),
        count: Int, visual: UnsafeMutablePointer<Visual>, depth: Int32, options: Options, fontMap: FontMap, backdrop: Backdrop? = nil
    ) throws(UserError) {
        self.window = window
        self.origin = origin
        surface = try WindowSurface(
            display: display, drawable: window, visual: visual, depth: depth, width: max(Int(size.width), 1),
            height: max(Int(size.height), 1))
        renderer = WheelRenderer(
            row: WheelRow(area: Rect(x: 0, y: 0, width: size.width, height: rowHeight), count: count),
            background: options.background, backdrop: backdrop, foreground: options.foreground, fontMap: fontMap)
    }

    /// Lock mode: the guard's window, at the size the server gives it now.
    convenience init(
        display: XDisplay, guardWindow window: Window, count: Int, options: Options, fontMap: FontMap, backdrop: Backdrop?
    ) throws(UserError) {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, window, &attributes) != 0, let visual = attributes.visual else {
            throw UserError("--lock-ui: no window \(window)", status: .internalError)
        }
        XSelectInput(display.pointer, window, ExposureMask)
        try self.init(
            display: display, window: window, size: (Double(attributes.width), Double(attributes.height)),
            rowHeight: Double(attributes.height), origin: (0, 0), count: count, visual: visual, depth: attributes.depth, options: options, fontMap: fontMap,
            backdrop: backdrop)
    }

    /// Paints the wheels that changed, and sends that part to the window.
    func paint(_ wheels: Scene.WheelsView) throws(UserError) {
        guard wheels != shown else { return }
        var dirty: Rect?
        try surface.paint { (cr) throws(RenderError) in dirty = try renderer.draw(wheels, after: shown, into: cr) }
        if let dirty { surface.present(on: window, rect: dirty, at: origin) }
        shown = wheels
    }

    func present() {
        surface.present(on: window, at: origin)
    }
}
