/// `--speak`: what the lock says through speech-dispatcher, worked out from what it shows.
/// It is made from the UI's mirror of the gate, which holds how many characters were typed
/// and never which, and it never looks at the wheels: the password, a PIN digit or a
/// wheel's position cannot be spoken.
package struct SpokenView: Equatable, Sendable {
    /// The label on the track (the slider stage's words).
    package var label: String
    package var fieldOpen: Bool
    /// PAM's prompt ("Password:"), once it asked.
    package var prompt: String?
    /// How many characters are in the field.
    package var typed: Int
    package var capsLock: Bool
    /// The banner showing, by its text (a countdown in it does not make it new).
    package var banner: String?
    /// Whole tens of seconds left before `--timeout` ends the gate.
    package var tensLeft: Int?
    /// The focused control's name (the Tab ring).
    package var focused: String?
    package var granted: Bool
    /// The password went to be checked (the field empties: not worth saying).
    package var checking = false

    package init(gate: Gate, at now: Double, focused: LockControl?, strings: Strings) {
        label = gate.presenter.text
        fieldOpen = gate.entry.isOpen
        prompt = gate.entry.prompt?.text
        typed = gate.entry.count
        capsLock = gate.capsLock
        banner = gate.banners.visible(at: now)?.banner.text
        tensLeft = gate.deadline.flatMap { Int(exactly: (max($0 - now, 0) / 10).rounded(.up)) }
        self.focused = focused.map { Self.name($0, strings) }
        checking = gate.entry.checking
        if case .granted = gate.verification.state { granted = true } else { granted = gate.exitStatus == .completed }
    }

    package init(label: String) {
        self.label = label
        fieldOpen = false
        typed = 0
        capsLock = false
        granted = false
    }

    static func name(_ control: LockControl, _ strings: Strings) -> String {
        switch control {
        case .previous: strings[.previousTrack]
        case .playPause: strings[.playPause]
        case .next: strings[.nextTrack]
        case .power(let action): strings[action.label]
        case .switchUser: strings[.switchUser]
        }
    }
}

/// One thing to say. `.message`s queue; a `.text` replaces a `.text` still being said (the
/// count of characters, which only its newest value matters).
package struct Utterance: Equatable, Sendable {
    package enum Priority: UInt8, Sendable {
        case message = 2
        case text = 3
    }

    package var text: String
    package var priority: Priority

    package init(_ text: String, _ priority: Priority = .message) {
        self.text = text
        self.priority = priority
    }
}

/// What changed between two views, as words.
package struct Announcer: Sendable {
    private var last: SpokenView?
    private let strings: Strings
    /// A lock says that it is locked, and unlocked at the end; a window (`--geometry`, a
    /// kiosk's strip) says its label.
    private let locks: Bool

    package init(strings: Strings, locks: Bool = true) {
        self.strings = strings
        self.locks = locks
    }

    package mutating func changes(to view: SpokenView) -> [Utterance] {
        defer { last = view }
        guard let last else {
            guard locks else { return view.label.isEmpty ? [] : [Utterance(view.label)] }
            return [Utterance(view.label.isEmpty ? strings[.screenLocked] : strings[.screenLocked] + ". " + view.label)]
        }
        var said: [Utterance] = []
        if view.granted && !last.granted { return locks ? [Utterance(strings[.unlocked])] : [] }
        if view.fieldOpen, let prompt = view.prompt, !last.fieldOpen || prompt != last.prompt { said.append(Utterance(prompt)) }
        if !view.fieldOpen && last.fieldOpen { said.append(Utterance(view.label)) }
        if view.fieldOpen && !view.checking && view.typed != (last.fieldOpen ? last.typed : 0) {
            said.append(Utterance("\(strings[.charactersTyped]) \(view.typed)", .text))
        }
        if view.capsLock && !last.capsLock { said.append(Utterance(strings[.capsLock])) }
        if let banner = view.banner, banner != last.banner { said.append(Utterance(banner)) }
        if let tens = view.tensLeft, let before = last.tensLeft, tens < before, tens > 0 {
            said.append(Utterance("\(strings[.secondsLeft]) \(tens * 10)"))
        }
        if let focused = view.focused, focused != last.focused { said.append(Utterance(focused)) }
        return said
    }
}
