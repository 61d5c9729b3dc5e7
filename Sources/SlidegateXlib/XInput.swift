import CX11
import CXScreenSaver
import SlidegateCore
import SlidegateSystem
import SlidegateHost

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

    package func blankScreen() {
        XForceScreenSaver(pointer, ScreenSaverActive)
        // DPMS refuses a level while it is disabled: then the screen saver alone.
        if dpms?.enabled == true { DPMSForceLevel(pointer, UInt16(DPMSModeOff)) }
        XFlush(pointer)
    }
}

extension KeyPress {
    /// The key in `event`, looked up once in the keyboard's current layout (Xlib's copy of
    /// the keymap).
    package init(_ event: inout XEvent) {
        var typed: KeySym = 0
        var bytes = [CChar](repeating: 0, count: 8)
        _ = XLookupString(&event.xkey, &bytes, Int32(clamping: bytes.count), &typed, nil)
        self.init(
            keysym: UInt32(truncatingIfNeeded: XLookupKeysym(&event.xkey, 0)), layoutKeysym: UInt32(truncatingIfNeeded: typed),
            state: event.xkey.state)
    }

    /// A key whose first keysym is `keysym`, `layoutKeysym` in the current layout with the
    /// modifiers of `state` (an X event's).
    package init(keysym: UInt32, layoutKeysym: UInt32, state: UInt32) {
        let controlAltMask = UInt32(clamping: ControlMask | Mod1Mask)
        self.init(
            keysym: keysym, controlAlt: state & controlAltMask == controlAltMask, shift: state & UInt32(ShiftMask) != 0,
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
