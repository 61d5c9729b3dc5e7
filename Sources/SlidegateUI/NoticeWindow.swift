import CX11
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// One of the windows the guard made for lock mode's notices — the banner strip or the
/// `--message` line — with its back buffer and renderer, sized as the server says.
final class NoticeWindow {
    let window: Window
    let surface: WindowSurface
    let renderer: NoticeRenderer

    /// `textScale`: the text's size as a fraction of the window's height.
    init(display: XDisplay, window: Window, options: Options, fontMap: FontMap, textScale: Double, backdrop: Backdrop?)
        throws(UserError)
    {
        self.window = window
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, window, &attributes) != 0, let visual = attributes.visual else {
            throw UserError("--lock-ui: no window \(window)", status: .internalError)
        }
        XSelectInput(display.pointer, window, ExposureMask)
        surface = try WindowSurface(
            display: display, drawable: window, visual: visual, depth: attributes.depth, width: Int(attributes.width),
            height: Int(attributes.height))
        renderer = NoticeRenderer(
            width: Double(attributes.width), height: Double(attributes.height), background: options.background,
            backdrop: backdrop, foreground: options.foreground, fontMap: fontMap,
            textSize: max(10, Double(attributes.height) * textScale))
    }
}
