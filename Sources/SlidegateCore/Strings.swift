/// The words slidegate says by itself, in English here; the programs translate them with
/// gettext where a catalogue for the person's language exists (README: Translations).
/// Each is written once, under a key that does not change with its wording: the key is the
/// catalogues' `msgctxt`, so new English wording leaves every translation in place (the
/// catalogues' `msgid` records the English each was made from).
package struct Strings: Equatable, Sendable {
    package enum Key: String, CaseIterable, Sendable {
        /// The label when `--text` is not given.
        case label = "label"
        case busy = "busy"
        case refusal = "refusal"
        case wrongPassword = "wrong-password"
        case wrongPin = "wrong-pin"
        case capsLock = "caps-lock"
        /// Before a countdown's seconds: "try again in 12 s".
        case tryAgainIn = "try-again-in"
        /// A fingerprint or security key matched before the slide.
        case fingerprintRecognised = "fingerprint-recognised"
        case keyRecognised = "key-recognised"
        /// After the slide, when only a fingerprint or a security key can open the gate.
        case placeFinger = "place-finger"
        case touchKey = "touch-key"
        /// `--switch-user-command`'s button.
        case switchUser = "switch-user"
        /// The banner of a lock taken again after its guard died.
        case lockRestarted = "lock-restarted"
        /// `--power-actions`' buttons.
        case suspend = "suspend"
        case hibernate = "hibernate"
        case reboot = "reboot"
        case powerOff = "power-off"
        /// What `--speak` says: the lock is up, it opened, how many characters are in the
        /// field (the number follows), the seconds left (the number follows), the media
        /// panel's buttons.
        case screenLocked = "screen-locked"
        case unlocked = "unlocked"
        case charactersTyped = "characters-typed"
        case secondsLeft = "seconds-left"
        case previousTrack = "previous-track"
        case playPause = "play-pause"
        case nextTrack = "next-track"

        /// The words in English.
        package var english: String {
            switch self {
            case .label: "slide to unlock"
            case .busy: "unlocking…"
            case .refusal: "unlock failed"
            case .wrongPassword: "wrong password"
            case .wrongPin: "wrong PIN"
            case .capsLock: "Caps Lock is on"
            case .tryAgainIn: "try again in"
            case .fingerprintRecognised: "fingerprint recognised — slide to unlock"
            case .keyRecognised: "security key recognised — slide to unlock"
            case .placeFinger: "place your finger on the reader"
            case .touchKey: "touch your security key"
            case .switchUser: "switch user"
            case .lockRestarted: "the lock restarted: unlock again"
            case .suspend: "suspend"
            case .hibernate: "hibernate"
            case .reboot: "restart"
            case .powerOff: "power off"
            case .screenLocked: "screen locked"
            case .unlocked: "unlocked"
            case .charactersTyped: "characters typed:"
            case .secondsLeft: "seconds left:"
            case .previousTrack: "previous track"
            case .playPause: "play or pause"
            case .nextTrack: "next track"
            }
        }
    }

    /// The words in `Key.allCases` order (what the guard sends the UI).
    package private(set) var all: [String]

    /// The English words.
    package init() {
        all = Key.allCases.map(\.english)
    }

    /// From `all`'s order; nil when there are not exactly as many.
    package init?(all: [String]) {
        guard all.count == Key.allCases.count else { return nil }
        self.all = all
    }

    package subscript(_ key: Key) -> String {
        get { all[Self.index(key)] }
        set { all[Self.index(key)] = newValue }
    }

    private static func index(_ key: Key) -> Int {
        Key.allCases.firstIndex(of: key) ?? 0
    }

    /// The longest a translation may be, in bytes of UTF-8: a catalogue is a file from
    /// outside, and what it says goes to the UI in the settings message.
    package static let maximumLength = 256

    /// Each string as `translate` gives it for its key (nil: the English stays), cut to
    /// `maximumLength`.
    package static func translated(_ translate: (Key) -> String?) -> Strings {
        var strings = Strings()
        for key in Key.allCases {
            if let words = translate(key) { strings[key] = words.cut(toUTF8: maximumLength) }
        }
        return strings
    }

    /// The catalogues' template (resources/locale/slidegate.pot, made by `./dev docs`): each
    /// key as `msgctxt`, its English as `msgid` (no English string has a quote or a
    /// backslash to escape: TranslationTests).
    package static var template: String {
        var text = """
            # The words slidegate says by itself: each catalogue in this directory translates
            # every msgctxt below. Made by ./dev docs from Strings.Key; do not edit.
            msgid ""
            msgstr ""
            "Project-Id-Version: slidegate\\n"
            "MIME-Version: 1.0\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Content-Transfer-Encoding: 8bit\\n"

            """
        for key in Key.allCases {
            text += "\nmsgctxt \"\(key.rawValue)\"\nmsgid \"\(key.english)\"\nmsgstr \"\"\n"
        }
        return text
    }

    package static let templatePath = "resources/locale/slidegate.pot"
}

extension String {
    /// The string cut, at a character's end, to at most `limit` bytes of UTF-8, with "…"
    /// at the end when anything was cut; the string itself when it fits.
    package func cut(toUTF8 limit: Int) -> String {
        guard utf8.count > limit else { return self }
        let ellipsis = "…"
        var kept = ""
        var size = 0
        for character in self {
            let length = character.utf8.count
            guard size + length + ellipsis.utf8.count <= limit else { break }
            kept.append(character)
            size += length
        }
        return kept + ellipsis
    }

    /// Whether `part` occurs in this string, byte for byte in UTF-8 (what the standard
    /// library's `contains(_:)` for strings does, without the string-processing module).
    package func includes(_ part: String) -> Bool {
        let haystack = Array(utf8)
        let needle = Array(part.utf8)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
