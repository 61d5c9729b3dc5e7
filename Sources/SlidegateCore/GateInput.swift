/// What the person (or the system) did, as plain values in the slider's coordinates.
package enum GateInput: Equatable, Sendable {
    /// The primary button went down at (x, y).
    case press(x: Double, y: Double)
    /// The pointer moved to (x, y).
    case motion(x: Double, y: Double)
    /// The primary button came up.
    case release
    /// The unlock command ended; `succeeded` when it exited 0.
    case unlockCommandFinished(succeeded: Bool)
    /// The window manager asked the window to close.
    case closeRequested
    /// A terminating signal arrived.
    case signal(Int32)
    /// A key for the password stage (`--auth pam`).
    case key(EntryKey)
    /// Caps Lock went on or off.
    case capsLock(Bool)
    /// The keyboard layout now in use, by its short name, when there is more than one.
    case keyboardLayout(String?)
    /// PAM asked a question.
    case authPrompt(PasswordEntry.Prompt)
    /// PAM said something (PAM_TEXT_INFO, PAM_ERROR_MSG).
    case authMessage(Banner.Kind, String)
    /// PAM's verdict on the answers: granted, or refused with PAM's reason if it gave one.
    case authVerdict(granted: Bool, message: String?)
    /// The person clicked the banner.
    case bannerClicked
    /// The scroll wheel turned one notch at (x, y): down (toward the person) or up.
    case scroll(x: Double, y: Double, down: Bool)
    /// A key for the PIN wheels (`--auth pin`).
    case wheelKey(WheelKey)
    /// The helper's verdict on the wheels' digits: granted, or refused with its reason.
    case pinVerdict(granted: Bool, message: String?)
    /// The wheels spin to these (random) digits: at the start and after each wrong PIN.
    case scramble([Int])
    /// A method that needs no typing (a fingerprint, a security key) ended a transaction:
    /// granted (the helper then exited as it must), or refused.
    case methodVerdict(AuthMethod, granted: Bool)
}

/// What the gate asks the program around it to do.
package enum GateAction: Equatable, Sendable {
    case exit(ExitStatus)
    case runUnlockCommand(String)
    /// What the guard does to the secret it holds (append the typed character, …).
    case secret(SecretEdit)
    /// Check the wheels' digits against the PIN file.
    case checkPin
    /// Draw random digits for the wheels and hand them back as `.scramble`.
    case scrambleWheels
}
