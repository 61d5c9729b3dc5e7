import SlidegateCore
import SlidegateSystem

/// What the decider (`GateHost`) asks of the X server. `XDisplay` answers it in both modes;
/// a test's stand-in answers it too, so that the decider runs without a server.
package protocol HostServer: AnyObject {
    /// Caps Lock as the server has it now; nil when the server cannot say.
    var capsLock: Bool? { get }
    /// The short name of the keyboard's layout when the keymap has several, else nil.
    var keyboardLayout: String? { get }
    /// Someone touched the reader or the key: the screen wakes.
    func wakeScreen()
    /// `--blank-after`: the screen saver on, and the monitors off where DPMS is on; the
    /// server ends both at the next input.
    func blankScreen()
}

/// What a watched descriptor's handler does when it is readable: nil to go on, or the status
/// to end with.
package typealias DescriptorHandler = () throws(UserError) -> ExitStatus?

/// One `watch` call's registration: what `unwatch` takes. A descriptor's number is no
/// name for it, since a closed one's number is given to the next descriptor opened (one
/// helper's socket closed, another's opened under that number: unwatching by number
/// would end the other's watch).
package struct DescriptorWatch: Equatable, Sendable {
    package let id: UInt64

    package init(id: UInt64) {
        self.id = id
    }
}

/// Who calls the decider back when a helper's socket is readable: the event loop, or a
/// test's stand-in.
package protocol DescriptorWatcher: AnyObject {
    @discardableResult
    func watch(_ descriptor: Int32, name: String, peer: Bool, _ handler: @escaping DescriptorHandler) -> DescriptorWatch
    func unwatch(_ watch: DescriptorWatch)
}

/// A key press as the decider takes it, read from the X event once, in both modes.
package struct KeyPress {
    /// The key's first keysym, the one the keyboard's first layout prints on it: what
    /// `--key-command` binds.
    package var keysym: UInt32
    /// Ctrl and Alt are both held.
    package var controlAlt: Bool
    /// Shift is held (Shift+Tab).
    package var shift: Bool
    /// The key as the password stage takes it, if it means anything there.
    package var password: PasswordKey?
    /// The key as the PIN wheels take it, if they take it.
    package var wheel: WheelKey?

    package init(keysym: UInt32, controlAlt: Bool = false, shift: Bool = false, password: PasswordKey? = nil, wheel: WheelKey? = nil) {
        self.keysym = keysym
        self.controlAlt = controlAlt
        self.shift = shift
        self.password = password
        self.wheel = wheel
    }
}
