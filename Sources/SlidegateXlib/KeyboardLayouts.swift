import CX11

/// The keyboard layouts the X server has (its XKB groups), by the short names the XKB rules
/// gave them: the layout field of the root window's `_XKB_RULES_NAMES` ("us,de", as
/// setxkbmap and every desktop's keyboard settings set it).
package enum KeyboardLayouts {
    /// The longest name shown; a layout's name is two or three letters, a few more for
    /// some ("latam", "brai").
    package static let longestName = 16

    /// The short name of the layout in use, when the server has more than one; nil with
    /// one, or when the names cannot be read or are not plain names.
    package static func current(_ display: XDisplay) -> String? {
        var state = XkbStateRec()
        guard XkbGetState(display.pointer, UInt32(XkbUseCoreKbd), &state) == Success else { return nil }
        return name(of: Int(clamping: state.group), in: rulesNames(display))
    }

    /// The name of `group` in the rules' names (NUL-separated: rules, model, layouts,
    /// variants, options), when there are several layouts and each is a plain name.
    package static func name(of group: Int, in rules: [UInt8]) -> String? {
        let fields = rules.split(separator: 0, omittingEmptySubsequences: false)
        guard fields.count >= 3 else { return nil }
        let layouts = fields[2].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard layouts.count > 1, layouts.indices.contains(group),
            layouts.allSatisfy({ (1...longestName).contains($0.count) && $0.allSatisfy(isPlain) })
        else { return nil }
        return String(decoding: layouts[group], as: UTF8.self)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// The root window's `_XKB_RULES_NAMES` (at most 4 KiB), or nothing.
    private static func rulesNames(_ display: XDisplay) -> [UInt8] {
        let property = XInternAtom(display.pointer, "_XKB_RULES_NAMES", 1)
        guard property != 0 else { return [] }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(display.pointer, display.root, property, 0, 1024, 0, XA_STRING, &type, &format, &count, &after, &data)
                == Success
        else { return [] }
        defer { if let data { XFree(data) } }
        guard let data, type == XA_STRING, format == 8 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(clamping: count)))
    }
}
