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

    package init() {}

    /// All of them, in a fixed order (what the guard sends the UI).
    package var all: [String] { [label, busy, refusal, wrongPassword, wrongPin, capsLock, tryAgainIn] }

    /// From `all`'s order; nil when there are not exactly as many.
    package init?(all: [String]) {
        guard all.count == Strings().all.count else { return nil }
        (label, busy, refusal, wrongPassword, wrongPin, capsLock, tryAgainIn) = (all[0], all[1], all[2], all[3], all[4], all[5], all[6])
    }

    /// Each English string passed through `translate`.
    package func translated(_ translate: (String) -> String) -> Strings {
        Strings(all: all.map(translate))!
    }
}

extension String {
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
