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
