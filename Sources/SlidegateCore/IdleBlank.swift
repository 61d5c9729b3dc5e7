/// `--blank-after`: when the lock blanks the screen by itself — that long after the
/// person's last input — and Escape on the slider stage, which blanks it once the key is
/// released (the X server ends a blank screen at any input, the release too). A blank
/// screen is asked for once; the next only after new input.
package struct IdleBlank: Equatable, Sendable {
    package let after: Double
    package private(set) var lastInput: Double
    /// Blanked since the last input: no deadline until the person acts again.
    package private(set) var blanked = false
    /// Escape went down on the slider stage: its release blanks.
    package private(set) var escapeHeld = false

    /// Nil for `after` 0: the lock never blanks the screen.
    package init?(after: Double, start: Double) {
        guard after > 0 else { return nil }
        self.after = after
        lastInput = start
    }

    /// Input from the person: the wait starts again.
    package mutating func personActed(at now: Double) {
        lastInput = now
        blanked = false
    }

    /// Escape went down on the slider stage (no password field open).
    package mutating func escapePressed(at now: Double) {
        personActed(at: now)
        escapeHeld = true
    }

    /// A key went up: true when the screen is to blank now (the Escape pressed before).
    package mutating func keyReleased(at now: Double) -> Bool {
        guard escapeHeld else {
            personActed(at: now)
            return false
        }
        escapeHeld = false
        lastInput = now
        blanked = true
        return true
    }

    /// When the screen is next to blank by itself; nil once it was, until new input.
    package var deadline: Double? { blanked || escapeHeld ? nil : lastInput + after }

    /// True, once, when the wait without input has run out by `now`.
    package mutating func isDue(at now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        blanked = true
        return true
    }
}
