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
        switch keysym {
        case KeysymValue.enter, KeysymValue.keypadEnter: entry = .enter
        case KeysymValue.escape: entry = .escape
        case KeysymValue.backspace: entry = control ? .clear : .backspace
        case KeysymValue.u where control, KeysymValue.capitalU where control: entry = .clear
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
        switch keysym {
        case KeysymValue.digits: self = .digit(Int(truncatingIfNeeded: keysym &- KeysymValue.digits.lowerBound))
        case KeysymValue.keypadDigits: self = .digit(Int(truncatingIfNeeded: keysym &- KeysymValue.keypadDigits.lowerBound))
        case KeysymValue.left, KeysymValue.keypadLeft: self = .left
        case KeysymValue.right, KeysymValue.keypadRight: self = .right
        case KeysymValue.up, KeysymValue.keypadUp: self = .up
        case KeysymValue.down, KeysymValue.keypadDown: self = .down
        case KeysymValue.enter, KeysymValue.keypadEnter: self = .enter
        default: return nil
        }
    }
}

/// The keysyms the password stage and the wheels take, as X defines them (keysymdef.h).
enum KeysymValue {
    static let backspace: UInt32 = 0xff08
    static let enter: UInt32 = 0xff0d
    static let escape: UInt32 = 0xff1b
    static let capitalU: UInt32 = 0x55
    static let u: UInt32 = 0x75
    static let left: UInt32 = 0xff51
    static let up: UInt32 = 0xff52
    static let right: UInt32 = 0xff53
    static let down: UInt32 = 0xff54
    static let keypadEnter: UInt32 = 0xff8d
    static let keypadLeft: UInt32 = 0xff96
    static let keypadUp: UInt32 = 0xff97
    static let keypadRight: UInt32 = 0xff98
    static let keypadDown: UInt32 = 0xff99
    static let keypadDigits: ClosedRange<UInt32> = 0xffb0...0xffb9
    static let digits: ClosedRange<UInt32> = 0x30...0x39
}
