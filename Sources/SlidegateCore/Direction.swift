/// Which way the thumb slides (`--direction`).
package enum Direction: String, Equatable, Sendable, CaseIterable {
    case ltr, rtl, auto

    /// Whether a gate labelled `text` slides right to left: `rtl`, or `auto` with a label
    /// whose first strong character is right-to-left (Hebrew, Arabic, Syriac, Thaana, N'Ko
    /// and the other scripts written that way), as the Unicode bidirectional algorithm
    /// takes a paragraph's direction from it.
    package func isRightToLeft(for text: String) -> Bool {
        switch self {
        case .ltr: false
        case .rtl: true
        case .auto: Self.firstStrongIsRightToLeft(text)
        }
    }

    /// The right-to-left blocks: Hebrew to Arabic Extended-A (U+0590–U+08FF), the Hebrew
    /// and Arabic presentation forms, and the right-to-left blocks of the supplementary
    /// planes (U+10800–U+10FFF, U+1E800–U+1EFFF).
    static let rightToLeftRanges: [ClosedRange<UInt32>] = [
        0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
    ]

    /// The first letter decides (digits, punctuation, spaces, emoji and marks are neutral).
    static func firstStrongIsRightToLeft(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            if rightToLeftRanges.contains(where: { $0.contains(scalar.value) }) {
                if scalar.properties.isAlphabetic { return true }
                continue
            }
            if scalar.properties.isAlphabetic { return false }
        }
        return false
    }
}
