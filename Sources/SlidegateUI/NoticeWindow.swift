import CX11
import SlidegateCore
import SlidegateRender
import SlidegateXlib

/// One of the windows the guard made for lock mode's notices and controls — the banner
/// strip, the `--message` line, the media panel, the power row, the switch-user button,
/// the on-screen keyboard — with its renderer, sized as the server says.
final class NoticeWindow {
    private let painted: PaintedWindow
    let renderer: NoticeRenderer
    var window: Window { painted.window }

    /// `textScale`: the text's size as a fraction of the window's height; `keepsImage`: for
    /// a window painted a part at a time.
    init(
        display: XDisplay, window: Window, options: Options, fontMap: FontMap, textScale: Double, backdrop: Backdrop?,
        keepsImage: Bool = false
    ) throws(UserError) {
        painted = try PaintedWindow(display: display, window: window, keepsImage: keepsImage)
        renderer = NoticeRenderer(
            width: Double(painted.width), height: Double(painted.height), background: options.background,
            backdrop: backdrop, foreground: options.foreground, fontMap: fontMap,
            textSize: max(10, Double(painted.height) * textScale))
    }

    /// Paints the window with `draw`, given the renderer (`only`: see `PaintedWindow.paint`).
    func paint(only rects: [Rect]? = nil, _ draw: @escaping (NoticeRenderer, OpaquePointer) throws(RenderError) -> Void)
        throws(UserError)
    {
        let renderer = renderer
        try painted.paint(only: rects) { (cr) throws(RenderError) in try draw(renderer, cr) }
    }

    func exposed() throws(UserError) {
        try painted.exposed()
    }
}
