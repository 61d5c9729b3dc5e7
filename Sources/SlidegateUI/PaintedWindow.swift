import CX11
import SlidegateCore
import SlidegateRender
import SlidegateXlib

/// One of the guard's windows that the UI paints whole now and then (the clock, the banner
/// strip, the message line, the media panel, the power row, the switch-user button), at
/// the size the server gives it. Its image is made for a paint and freed once sent, so a
/// lock at rest keeps no copy of what these windows show; an Expose draws the last picture
/// again. A window that repaints a part at a time (the on-screen keyboard) keeps its image.
final class PaintedWindow {
    typealias Drawing = (OpaquePointer) throws(RenderError) -> Void
    let window: Window
    let width: Int
    let height: Int
    private let display: XDisplay
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let keepsImage: Bool
    private var kept: WindowSurface?
    private var drawing: Drawing?

    init(display: XDisplay, window: Window, keepsImage: Bool = false) throws(UserError) {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, window, &attributes) != 0, let visual = attributes.visual else {
            throw UserError("--lock-ui: no window \(window)", status: .internalError)
        }
        XSelectInput(display.pointer, window, ExposureMask)
        self.display = display
        self.window = window
        self.visual = visual
        depth = attributes.depth
        width = Int(attributes.width)
        height = Int(attributes.height)
        self.keepsImage = keepsImage
    }

    /// Paints the window with `draw` and sends it; with a kept image, `only` these
    /// rectangles of it when given.
    func paint(only rects: [Rect]? = nil, _ draw: @escaping Drawing) throws(UserError) {
        let surface: WindowSurface
        if let kept {
            surface = kept
        } else {
            surface = try WindowSurface(display: display, drawable: window, visual: visual, depth: depth, width: width, height: height)
        }
        try surface.paint(draw)
        if keepsImage, let rects {
            for rect in rects { surface.present(on: window, rect: rect) }
        } else {
            surface.present(on: window)
        }
        if keepsImage { kept = surface } else { drawing = draw }
    }

    /// The window was exposed: it shows its picture again.
    func exposed() throws(UserError) {
        if let kept {
            kept.present(on: window)
        } else if let drawing {
            try paint(drawing)
        }
    }
}
