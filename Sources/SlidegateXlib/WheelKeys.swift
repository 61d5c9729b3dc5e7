import CX11
import SlidegateCore

extension WheelKey {
    /// The key in `event` as the PIN wheels take it (`--auth pin`): digits on the main
    /// row or the keypad, the arrows, Enter; nil for any other key.
    package init?(_ event: inout XEvent) {
        var keysym: KeySym = 0
        var bytes = [CChar](repeating: 0, count: 8)
        _ = XLookupString(&event.xkey, &bytes, Int32(clamping: bytes.count), &keysym, nil)
        switch Int32(truncatingIfNeeded: keysym) {
        case XK_0...XK_9: self = .digit(Int(clamping: keysym) - Int(XK_0))
        case XK_KP_0...XK_KP_9: self = .digit(Int(clamping: keysym) - Int(XK_KP_0))
        case XK_Left, XK_KP_Left: self = .left
        case XK_Right, XK_KP_Right: self = .right
        case XK_Up, XK_KP_Up: self = .up
        case XK_Down, XK_KP_Down: self = .down
        case XK_Return, XK_KP_Enter: self = .enter
        default: return nil
        }
    }
}
