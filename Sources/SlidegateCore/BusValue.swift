/// A value read from a D-Bus message, as far as the lock's glances look at one: text,
/// numbers, flags, lists of text and dictionaries (a{sv}); anything else is `other`. What a
/// bus peer sends is bounded where it is read (`BusValue.Limits`): a player's 1 MB title is
/// a few hundred bytes here, and invalid UTF-8 is repaired.
package indirect enum BusValue: Equatable, Sendable {
    case text(String)
    /// Any integer or double.
    case number(Double)
    case flag(Bool)
    case texts([String])
    case dictionary([String: BusValue])
    case other

    /// How much of a message is kept.
    package enum Limits {
        /// Bytes of one string (cut at a character's start).
        package static let text = 512
        /// Entries of one array or dictionary; the rest are skipped.
        package static let entries = 64
        /// Containers inside containers: deeper ones are `other`.
        package static let depth = 4
    }

    /// `bytes` as text: invalid UTF-8 repaired, cut to `Limits.text` bytes without
    /// splitting a character.
    package static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var kept = String(decoding: bytes.prefix(Limits.text + 3), as: UTF8.self)
        while kept.utf8.count > Limits.text { kept.removeLast() }
        return kept
    }

    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    package var flag: Bool? {
        if case .flag(let value) = self { return value }
        return nil
    }

    /// A list of text, or one text as a list of one (some players send an artist so).
    package var texts: [String]? {
        switch self {
        case .texts(let value): value
        case .text(let value): [value]
        default: nil
        }
    }

    package var dictionary: [String: BusValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }
}
