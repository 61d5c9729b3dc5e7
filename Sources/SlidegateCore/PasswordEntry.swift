/// A key that means something to the password stage. The characters themselves never come
/// here: they go straight into the guard's locked buffer, and the core keeps their count.
package enum EntryKey: Equatable, Sendable {
    /// A character the keyboard layout typed.
    case character
    /// Backspace: one character less.
    case backspace
    /// Ctrl+U or Ctrl+Backspace: the field emptied.
    case clear
    /// Escape: the field emptied; on an empty field, back to the slider.
    case escape
    /// Enter: the answer goes to PAM.
    case enter
}

/// What the guard does to the secret it holds, as the entry decides.
package enum SecretEdit: Equatable, Sendable {
    case append
    case deleteLast
    case clear
    /// Send what was typed as the answer to the current prompt, then wipe it.
    case submit
}

/// The password stage: open or closed, the prompt PAM gave, how many characters are typed,
/// whether an answer is being checked, and when a refusal made the field shake.
///
/// Time is an argument; nothing here reads a clock.
package struct PasswordEntry: Equatable, Sendable {
    /// PAM's question: its text, and whether the answer may be shown.
    package struct Prompt: Equatable, Sendable {
        package var text: String
        package var echo: Bool

        package init(text: String, echo: Bool) {
            self.text = text
            self.echo = echo
        }
    }

    /// Seconds without a key after which the stage closes and what was typed is wiped.
    package static let idleLimit = 30.0
    /// How long the field shakes after a refusal.
    package static let shakeDuration = 0.4
    /// The most characters the field takes: more than any password, and what the guard's
    /// secret buffer (4096 bytes) holds of any characters (4 bytes of UTF-8 at most each).
    package static let maximumCount = 1024

    package private(set) var isOpen = false
    package private(set) var prompt: Prompt?
    package private(set) var count = 0
    /// An answer is with PAM: no typing.
    package private(set) var checking = false
    package private(set) var lastActivity = 0.0
    package private(set) var shakeStart: Double?
    /// Enter came before PAM's prompt: the answer goes as soon as PAM asks.
    package private(set) var submitWhenAsked = false

    package init() {}

    /// An entry as another process had it (the guard hands its state to a new UI).
    package init(
        isOpen: Bool, prompt: Prompt?, count: Int, checking: Bool, lastActivity: Double, shakeStart: Double?,
        submitWhenAsked: Bool
    ) {
        self.submitWhenAsked = submitWhenAsked
        self.isOpen = isOpen
        self.prompt = prompt
        self.count = count
        self.checking = checking
        self.lastActivity = lastActivity
        self.shakeStart = shakeStart
    }

    package mutating func open(at now: Double) {
        isOpen = true
        count = 0
        checking = false
        lastActivity = now
    }

    package mutating func close() {
        self = PasswordEntry()
    }

    /// PAM asked a question: the field shows it and takes an answer; what was typed before
    /// it came stays. Returns `.submit` when Enter was pressed before it came.
    package mutating func ask(_ prompt: Prompt, at now: Double) -> SecretEdit? {
        self.prompt = prompt
        lastActivity = now
        guard submitWhenAsked else {
            checking = false
            return nil
        }
        submitWhenAsked = false
        checking = true
        count = 0
        return .submit
    }

    /// A key while the stage is open; returns what the guard does to the secret.
    package mutating func handle(_ key: EntryKey, at now: Double) -> SecretEdit? {
        guard isOpen, !checking else { return nil }
        lastActivity = now
        switch key {
        case .character:
            // Keys past the longest password are dropped: a held key or a flood of them
            // must not grow the field, the dots the UI shapes each frame, or the secret.
            guard count < Self.maximumCount else { return nil }
            count += 1
            return .append
        case .backspace:
            guard count > 0 else { return nil }
            count -= 1
            return .deleteLast
        case .clear:
            count = 0
            return .clear
        case .escape:
            guard count > 0 else {
                close()
                return .clear
            }
            count = 0
            return .clear
        case .enter:
            checking = true
            guard prompt != nil else {
                submitWhenAsked = true
                return nil
            }
            count = 0
            return .submit
        }
    }

    /// The answers were refused: the field shakes and waits for PAM's next prompt.
    package mutating func refused(at now: Double) {
        checking = false
        submitWhenAsked = false
        count = 0
        prompt = nil
        shakeStart = now
        lastActivity = now
    }

    /// How far the field is pushed sideways at `now`, in field heights: three swings that
    /// die away.
    package func shakeOffset(at now: Double) -> Double {
        guard let shakeStart, now >= shakeStart, now < shakeStart + Self.shakeDuration else { return 0 }
        let t = (now - shakeStart) / Self.shakeDuration
        let phase = (t * 3).truncatingRemainder(dividingBy: 1)
        let triangle = 1 - 4 * abs(phase - 0.5)
        return 0.12 * (1 - t) * triangle
    }
}

/// Failed attempts in a row and how long the next must wait. A success resets it.
///
/// Passwords: 1 s after each of the first three failures, then 2^(n−3) s after the n-th
/// (2, 4, 8 … capped at 60 s). PINs, which are short: 1 s after each of the first four,
/// then 1 min after the 5th, 5 min after the 6th, 15 min after the 7th and 8th, and 1 h
/// after the 9th and every one after.
package struct AttemptLimiter: Equatable, Sendable {
    package enum Schedule: Equatable, Sendable {
        case password, pin
    }

    package let schedule: Schedule
    package private(set) var failures = 0
    package private(set) var blockedUntil: Double?

    package init(schedule: Schedule = .password, failures: Int = 0, blockedUntil: Double? = nil) {
        self.schedule = schedule
        self.failures = failures
        self.blockedUntil = blockedUntil
    }

    package static func delay(afterFailures n: Int, schedule: Schedule = .password) -> Double {
        switch schedule {
        case .password: n < 4 ? 1 : min(Double(1 << min(n - 3, 6)), 60)
        case .pin: n < 5 ? 1 : n == 5 ? 60 : n == 6 ? 300 : n <= 8 ? 900 : 3600
        }
    }

    /// From which failure on a countdown banner says how long the wait is.
    package var countdownFrom: Int { schedule == .pin ? 5 : 4 }

    package mutating func failed(at now: Double) {
        failures += 1
        blockedUntil = now + Self.delay(afterFailures: failures, schedule: schedule)
    }

    package mutating func succeeded() {
        self = AttemptLimiter(schedule: schedule)
    }

    package func isBlocked(at now: Double) -> Bool {
        blockedUntil.map { now < $0 } ?? false
    }
}
