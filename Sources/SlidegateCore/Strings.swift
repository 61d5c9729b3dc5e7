/// The words slidegate says by itself, in English here; the programs translate them with
/// gettext where a catalogue for the person's language exists (README: Translations).
package struct Strings: Equatable, Sendable {
    /// The label when `--text` is not given.
    package var label = "slide to unlock"
    package var busy = "unlocking…"
    package var refusal = "unlock failed"
    package var wrongPassword = "wrong password"
    package var wrongPin = "wrong PIN"
    package var capsLock = "Caps Lock is on"
    /// Before a countdown's seconds: "try again in 12 s".
    package var tryAgainIn = "try again in"
    /// A fingerprint or security key matched before the slide.
    package var fingerprintRecognised = "fingerprint recognised — slide to unlock"
    package var keyRecognised = "security key recognised — slide to unlock"
    /// After the slide, when only a fingerprint or a security key can open the gate.
    package var placeFinger = "place your finger on the reader"
    package var touchKey = "touch your security key"
    /// `--switch-user-command`'s button.
    package var switchUser = "switch user"
    /// The banner of a lock taken again after its guard died.
    package var lockRestarted = "the lock restarted: unlock again"

    package init() {}

    /// All of them, in a fixed order (what the guard sends the UI).
    package var all: [String] {
        [
            label, busy, refusal, wrongPassword, wrongPin, capsLock, tryAgainIn, fingerprintRecognised, keyRecognised, placeFinger, touchKey,
            switchUser, lockRestarted,
        ]
    }

    /// From `all`'s order; nil when there are not exactly as many.
    package init?(all: [String]) {
        guard all.count == Strings().all.count else { return nil }
        (label, busy, refusal, wrongPassword, wrongPin, capsLock, tryAgainIn) = (all[0], all[1], all[2], all[3], all[4], all[5], all[6])
        (fingerprintRecognised, keyRecognised, placeFinger, touchKey, switchUser) = (all[7], all[8], all[9], all[10], all[11])
        lockRestarted = all[12]
    }

    /// The longest a translation may be, in bytes of UTF-8: a catalogue is a file from
    /// outside, and what it says goes to the UI in the settings message.
    package static let maximumLength = 256

    /// Each English string passed through `translate`, cut to `maximumLength`.
    package func translated(_ translate: (String) -> String) -> Strings {
        var copy = self
        copy.label = translate(label).cut(toUTF8: Self.maximumLength)
        copy.busy = translate(busy).cut(toUTF8: Self.maximumLength)
        copy.refusal = translate(refusal).cut(toUTF8: Self.maximumLength)
        copy.wrongPassword = translate(wrongPassword).cut(toUTF8: Self.maximumLength)
        copy.wrongPin = translate(wrongPin).cut(toUTF8: Self.maximumLength)
        copy.capsLock = translate(capsLock).cut(toUTF8: Self.maximumLength)
        copy.tryAgainIn = translate(tryAgainIn).cut(toUTF8: Self.maximumLength)
        copy.fingerprintRecognised = translate(fingerprintRecognised).cut(toUTF8: Self.maximumLength)
        copy.keyRecognised = translate(keyRecognised).cut(toUTF8: Self.maximumLength)
        copy.placeFinger = translate(placeFinger).cut(toUTF8: Self.maximumLength)
        copy.touchKey = translate(touchKey).cut(toUTF8: Self.maximumLength)
        copy.switchUser = translate(switchUser).cut(toUTF8: Self.maximumLength)
        copy.lockRestarted = translate(lockRestarted).cut(toUTF8: Self.maximumLength)
        return copy
    }
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
