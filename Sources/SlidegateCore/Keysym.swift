/// What character an X keysym types, for the password field: the keyboard layout in effect
/// picks the keysym (Xlib's XLookupString does that), this says which Unicode scalar it is.
package enum Keysym {
    /// The character `keysym` types, or nil for a key that types none (arrows, F1, …).
    package static func character(_ keysym: UInt32) -> Unicode.Scalar? {
        switch keysym {
        case 0x20...0x7e, 0xa0...0xff: Unicode.Scalar(keysym)
        case 0x100_0020...0x100_007e, 0x100_00a0...0x110_ffff: Unicode.Scalar(keysym - 0x100_0000)
        default: legacy[keysym].flatMap(Unicode.Scalar.init)
        }
    }
}

extension Keysym {
    /// Keys that type no text and edit nothing, by name, besides F1–F35 and the XF86 keys.
    private static let quietKeys: [String: UInt32] = [
        "Print": 0xff61, "Pause": 0xff13, "Scroll_Lock": 0xff14, "Sys_Req": 0xff15, "Break": 0xff6b, "Help": 0xff6a,
        "Menu": 0xff67,
    ]

    /// The keysym named `name` when `--key-command` may take it: F1–F35, Print, Pause,
    /// Scroll_Lock, Sys_Req, Break, Help, Menu and the XF86 keys (volume, brightness,
    /// media, …), none of which types text or edits the password; nil for any other name
    /// (a letter, a digit, Return, Escape, BackSpace, an arrow, a modifier, a misspelling).
    package static func commandKey(named name: String) -> UInt32? {
        if name.first == "F", let n = UInt32(name.dropFirst(), radix: 10), (1...35).contains(n), name.dropFirst().first != "0" {
            return 0xffbd + n
        }
        return quietKeys[name] ?? vendorKeys[name]
    }
}
