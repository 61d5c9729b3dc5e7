import CX11
import SlidegateCore
import SlidegateRender
import SlidegateXlib

/// The on-screen keyboard's window, which the guard shows at its place or puts out of
/// sight: painted from the face and state the guard sends, with the layout function the
/// guard hit-tests with. It never hears which character key was tapped.
final class KeyboardPanel {
    let window: Window
    private let display: XDisplay
    private let options: Options
    private let fontMap: FontMap
    private let backdrop: () -> Backdrop?
    private var painted: NoticeWindow?

    init(display: XDisplay, window: Window, options: Options, fontMap: FontMap, backdrop: @escaping () -> Backdrop?) {
        self.display = display
        self.window = window
        self.options = options
        self.fontMap = fontMap
        self.backdrop = backdrop
    }

    /// Paints `face` on the page `state` says, at the window's size now (the guard placed it
    /// before it said so); nil: hidden, nothing kept.
    func show(_ face: KeyboardFace?, _ state: KeyboardState) throws(UserError) {
        guard let face else {
            painted = nil
            return
        }
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, window, &attributes) != 0, attributes.width > 1, attributes.height > 1 else { return }
        let size = (Double(attributes.width), Double(attributes.height))
        if painted.map({ ($0.renderer.width, $0.renderer.height) != size }) ?? true {
            painted = try NoticeWindow(display: display, window: window, options: options, fontMap: fontMap, textScale: 0.09, backdrop: backdrop())
        }
        guard let panel = painted else { return }
        let area = Rect(x: 0, y: 0, width: panel.renderer.width, height: panel.renderer.height)
        let keys = ScreenKeyboard.keys(face: face, state: state, in: area, rightToLeft: options.rightToLeft).map { key in
            (
                label: ScreenKeyboard.label(key.action, face: face, state: state), rect: key.rect, function: !key.action.types,
                pressed: key.action == state.pressed || (key.action == .shift && state.shifted)
            )
        }
        try panel.surface.paint { (cr) throws(RenderError) in try panel.renderer.drawKeyboard(keys, into: cr) }
        panel.surface.present(on: window)
    }

    func exposed() {
        painted.map { $0.surface.present(on: window) }
    }
}
