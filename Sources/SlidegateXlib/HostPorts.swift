import CX11
import SlidegateCore

/// What the decider (`GateHost`) asks of the X server. `XDisplay` answers it in both modes;
/// a test's stand-in answers it too, so that the decider runs without a server.
package protocol HostServer: AnyObject {
    /// Caps Lock as the server has it now; nil when the server cannot say.
    var capsLock: Bool? { get }
    /// The short name of the keyboard's layout when the keymap has several, else nil.
    var keyboardLayout: String? { get }
    /// Someone touched the reader or the key: the screen wakes.
    func wakeScreen()
}

/// Who calls the decider back when a helper's socket is readable: the event loop, or a
/// test's stand-in.
package protocol DescriptorWatcher: AnyObject {
    @discardableResult
    func watch(_ descriptor: Int32, name: String, peer: Bool, _ handler: @escaping EventLoop.Handler) -> EventLoop.Watch
    func unwatch(_ watch: EventLoop.Watch)
}

extension EventLoop: DescriptorWatcher {}

extension XDisplay: HostServer {
    package var capsLock: Bool? {
        var state = XkbStateRec()
        guard XkbGetState(pointer, UInt32(XkbUseCoreKbd), &state) == Success else { return nil }
        return UInt32(clamping: state.locked_mods) & UInt32(LockMask) != 0
    }

    package var keyboardLayout: String? { KeyboardLayouts.current(self) }

    package func wakeScreen() {
        XForceScreenSaver(pointer, ScreenSaverReset)
    }
}

/// A key press as the decider takes it, read from the X event once, in both modes.
package struct KeyPress {
    /// The key's first keysym, the one the keyboard's first layout prints on it: what
    /// `--key-command` binds.
    package var keysym: UInt32
    /// Ctrl and Alt are both held.
    package var controlAlt: Bool
    /// The key as the password stage takes it, if it means anything there.
    package var password: PasswordKey?
    /// The key as the PIN wheels take it, if they take it.
    package var wheel: WheelKey?

    package init(keysym: UInt32, controlAlt: Bool = false, password: PasswordKey? = nil, wheel: WheelKey? = nil) {
        self.keysym = keysym
        self.controlAlt = controlAlt
        self.password = password
        self.wheel = wheel
    }

    /// The key in `event`, looked up once in the keyboard's current layout.
    package init(_ event: inout XEvent) {
        var typed: KeySym = 0
        var bytes = [CChar](repeating: 0, count: 8)
        _ = XLookupString(&event.xkey, &bytes, Int32(clamping: bytes.count), &typed, nil)
        let layoutKeysym = UInt32(truncatingIfNeeded: typed)
        let state = event.xkey.state
        let controlAltMask = UInt32(clamping: ControlMask | Mod1Mask)
        self.init(
            keysym: UInt32(truncatingIfNeeded: XLookupKeysym(&event.xkey, 0)), controlAlt: state & controlAltMask == controlAltMask,
            password: PasswordKey(keysym: layoutKeysym, control: state & UInt32(ControlMask) != 0), wheel: WheelKey(keysym: layoutKeysym))
    }
}

/// A pointer event as both modes take it, read from the X event once: what the button or
/// the motion was, and where in the slider's coordinates.
package enum PointerInput: Equatable {
    /// The primary button went down.
    case press(x: Double, y: Double)
    /// The primary button came up.
    case release(x: Double, y: Double)
    /// The pointer moved; `hinted` when the server only said that it did (motion hints):
    /// where it went is asked later.
    case motion(x: Double, y: Double, hinted: Bool)
    /// The wheel turned a notch (buttons 4 and 5).
    case scroll(x: Double, y: Double, down: Bool)

    /// The event's pointer input; nil for any other event, or another button. The guard
    /// reads the root window's coordinates (its grabs are on the root), windowed mode its
    /// window's; `origin` is the slider's top-left corner in them.
    package init?(_ event: inout XEvent, origin: (x: Double, y: Double), root: Bool) {
        switch event.type {
        case ButtonPress, ButtonRelease:
            let button = event.xbutton
            let x = (root ? Double(button.x_root) : Double(button.x)) - origin.x
            let y = (root ? Double(button.y_root) : Double(button.y)) - origin.y
            switch button.button {
            case UInt32(Button1): self = event.type == ButtonPress ? .press(x: x, y: y) : .release(x: x, y: y)
            case UInt32(Button4) where event.type == ButtonPress: self = .scroll(x: x, y: y, down: false)
            case UInt32(Button5) where event.type == ButtonPress: self = .scroll(x: x, y: y, down: true)
            default: return nil
            }
        case MotionNotify:
            let motion = event.xmotion
            let x = (root ? Double(motion.x_root) : Double(motion.x)) - origin.x
            let y = (root ? Double(motion.y_root) : Double(motion.y)) - origin.y
            self = .motion(x: x, y: y, hinted: motion.is_hint != 0)
        default:
            return nil
        }
    }
}
