import CX11
import SlidegateCore

/// A key as the password stage takes it, with the character it types; the keys that edit
/// the field (Backspace, Ctrl+U, Escape, Enter) type none.
package struct PasswordKey {
    package var entry: EntryKey
    package var character: Unicode.Scalar?

    package init(entry: EntryKey, character: Unicode.Scalar? = nil) {
        self.entry = entry
        self.character = character
    }

    /// The key whose keysym in the keyboard's current layout is `keysym`; nil for a key
    /// that means nothing there (Shift, the arrows, a key with Ctrl that is not an editing one).
    package init?(keysym: UInt32, control: Bool) {
        switch Int32(truncatingIfNeeded: keysym) {
        case XK_Return, XK_KP_Enter: entry = .enter
        case XK_Escape: entry = .escape
        case XK_BackSpace: entry = control ? .clear : .backspace
        case XK_u where control, XK_U where control: entry = .clear
        default:
            guard !control, let scalar = Keysym.character(keysym) else { return nil }
            entry = .character
            character = scalar
        }
    }
}

extension WheelKey {
    /// The key whose keysym in the keyboard's current layout is `keysym`, as the PIN wheels
    /// take it (`--auth pin`): digits on the main row or the keypad, the arrows, Enter; nil
    /// for any other key.
    package init?(keysym: UInt32) {
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
