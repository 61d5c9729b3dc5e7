import CX11
import SlidegateCore
import SlidegateRender
import SlidegateXlib

/// The on-screen keyboard's window, which the guard shows at its place or puts out of
/// sight: painted from the face and state the guard sends, with the layout function the
/// guard hit-tests with. It never hears which character key was tapped. What the guard
/// says is painted after the slider's frame (`paintIfDue`), so a key's bullet never waits
/// for the keyboard; a key pressed or let go repaints that key alone.
final class KeyboardPanel {
    let window: Window
    private let display: XDisplay
    private let options: Options
    private let fontMap: FontMap
    private let backdrop: () -> Backdrop?
    private var painted: NoticeWindow?
    /// What the guard said last, and what the window shows.
    private var wanted: (face: KeyboardFace?, state: KeyboardState) = (nil, KeyboardState())
    private var shown: (face: KeyboardFace, state: KeyboardState)?
    private var due = false

    init(display: XDisplay, window: Window, options: Options, fontMap: FontMap, backdrop: @escaping () -> Backdrop?) {
        self.display = display
        self.window = window
        self.options = options
        self.fontMap = fontMap
        self.backdrop = backdrop
    }

    /// The guard showed (or hid) the keyboard with this face and state.
    func show(_ face: KeyboardFace?, _ state: KeyboardState) {
        wanted = (face, state)
        due = true
    }

    /// Paints what the guard last said, at the window's size now (the guard placed it
    /// before it said so); a hidden keyboard keeps nothing.
    func paintIfDue() throws(UserError) {
        guard due else { return }
        due = false
        guard let face = wanted.face else {
            painted = nil
            shown = nil
            return
        }
        let state = wanted.state
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, window, &attributes) != 0, attributes.width > 1, attributes.height > 1 else { return }
        let size = (Double(attributes.width), Double(attributes.height))
        if painted.map({ ($0.renderer.width, $0.renderer.height) != size }) ?? true {
            painted = try NoticeWindow(
                display: display, window: window, options: options, fontMap: fontMap, textScale: 0.09, backdrop: backdrop(), keepsImage: true)
            shown = nil
        }
        guard let panel = painted else { return }
        let area = Rect(x: 0, y: 0, width: panel.renderer.width, height: panel.renderer.height)
        let placed = ScreenKeyboard.keys(face: face, state: state, in: area, rightToLeft: options.rightToLeft)
        let keys = placed.map { key in
            (
                label: ScreenKeyboard.label(key.action, face: face, state: state), rect: key.rect, function: !key.action.types,
                pressed: key.action == state.pressed || (key.action == .shift && state.shifted)
            )
        }
        // Only the held key changed: that key, and the one let go, are painted again.
        var only: [Rect]?
        if let shown, shown.face == face, shown.state.symbols == state.symbols, shown.state.shifted == state.shifted {
            let changed = [shown.state.pressed, state.pressed].compactMap { $0 }
            only = placed.filter { changed.contains($0.action) }.map(\.rect)
        }
        try panel.paint(only: only) { (renderer, cr) throws(RenderError) in try renderer.drawKeyboard(keys, only: only, into: cr) }
        shown = (face, state)
    }

    func exposed() throws(UserError) {
        try painted?.exposed()
    }
}
