import CX11
import SlidegateCore
import SlidegateHost
import SlidegateProtocol
import SlidegateXlib

/// `--keyboard`: the on-screen keyboard's state in the guard, which hit-tests its keys
/// (`ScreenKeyboard.keys`, the layout the UI draws with) and types what they type into the
/// password as the same key typed on a keyboard would. The UI is told the face, the page,
/// Shift and the key held down, never a character's key.
final class OnScreenKeyboard {
    var visibility: KeyboardVisibility
    var state = KeyboardState()
    var face = KeyboardFace.latin
    /// The newest input that reached the gate was the pointer's (a slide or a tap).
    var pointerLast = false
    /// The button went down on a key: its release is the keyboard's too.
    var tapHeld = false
    /// What the UI was last told, to tell it only of a change.
    var told: GuardMessage?

    init(mode: KeyboardMode) {
        visibility = KeyboardVisibility(mode: mode)
    }

    var message: GuardMessage { .screenKeyboard(visibility.visible ? face : nil, state) }
}

extension Guard {
    /// The on-screen key at `point` (root coordinates), while the keyboard shows.
    func onScreenKey(at point: (x: Double, y: Double)) -> KeyboardAction? {
        guard let keyboard, keyboard.visibility.visible else { return nil }
        return ScreenKeyboard.key(at: point, face: keyboard.face, state: keyboard.state, in: cover.keyboard, rightToLeft: options.rightToLeft)
    }

    /// A tap on an on-screen key: a character or an editing key goes into the password as
    /// if typed; the others turn the page, Shift, the layout, or hide the keyboard.
    func tap(_ action: KeyboardAction, at now: Double) -> ExitStatus? {
        guard let keyboard else { return nil }
        keyboard.pointerLast = true
        keyboard.tapHeld = true
        keyboard.state.pressed = action.types ? nil : action
        var status: ExitStatus?
        switch action {
        case .type(let keysym):
            status = typeOnScreen(keysym, at: now)
            keyboard.state.shifted = false
        case .backspace: status = typeOnScreen(0xff08, at: now)
        case .enter: status = typeOnScreen(0xff0d, at: now)
        case .shift: keyboard.state.shifted.toggle()
        case .page:
            keyboard.state.symbols.toggle()
            keyboard.state.shifted = false
        case .layout:
            var xkb = XkbStateRec()
            if XkbGetState(display.pointer, UInt32(XkbUseCoreKbd), &xkb) == Success {
                XkbLockGroup(display.pointer, UInt32(XkbUseCoreKbd), (UInt32(truncatingIfNeeded: xkb.group) &+ 1) % 4)
                XFlush(display.pointer)
            }
        case .hide: keyboard.visibility.hide()
        }
        tellKeyboard()
        return status
    }

    private func typeOnScreen(_ keysym: UInt32, at now: Double) -> ExitStatus? {
        let status = host.keyPressed(KeyPress(keysym: keysym, layoutKeysym: keysym, state: 0), at: now)
        if status == nil, let text = host.echo { send(.echo(text)) }
        return status
    }

    /// The button came up: no key is held. True when it went down on a key: the gate, which
    /// never saw that press, does not see its release either (the UI would paint a frame for
    /// nothing, and the next key's bullet would wait for the frame after).
    func keyboardReleased() -> Bool {
        guard let keyboard, keyboard.tapHeld else { return false }
        keyboard.tapHeld = false
        if keyboard.state.pressed != nil {
            keyboard.state.pressed = nil
            tellKeyboard()
        }
        return true
    }

    /// A press the gate takes (the slider's): a tap on the open field shows the keyboard again.
    func pointerPressed(at point: (x: Double, y: Double)) {
        guard let keyboard else { return }
        keyboard.pointerLast = true
        if gate.entry.isOpen && cover.slider.contains(x: point.x, y: point.y) { keyboard.visibility.fieldTapped() }
        tellKeyboard()
    }

    /// A physical key: `auto` hides the keyboard.
    func physicalKeyTyped() {
        guard let keyboard else { return }
        keyboard.pointerLast = false
        keyboard.visibility.keyTyped()
        tellKeyboard()
    }

    /// The password field opened or closed (the host followed the stage).
    func fieldFollowed(open: Bool) {
        guard let keyboard else { return }
        if !open { keyboard.state = KeyboardState() }
        keyboard.visibility.fieldOpen(open, byPointer: keyboard.pointerLast)
        tellKeyboard()
    }

    /// The keymap or its layout changed: the keys are read again.
    func readKeyboardFace() {
        guard let keyboard else { return }
        var xkb = XkbStateRec()
        let group = XkbGetState(display.pointer, UInt32(XkbUseCoreKbd), &xkb) == Success ? Int(truncatingIfNeeded: xkb.group) : 0
        keyboard.face = grabs.keymap.face(group: group, layoutName: KeyboardLayouts.current(display))
        tellKeyboard()
    }

    /// Shows or hides the keyboard's window, and tells the UI what changed.
    func tellKeyboard(always: Bool = false) {
        guard let keyboard else { return }
        cover.showKeyboard(keyboard.visibility.visible)
        let message = keyboard.message
        guard always || message != keyboard.told else { return }
        keyboard.told = message
        send(message)
    }
}
