import CX11
import SlidegateCore
import SlidegateHost
import SlidegateXlib

/// The keyboard's map that the guard reads keys with: the server's, fetched whole in one
/// reply (`XkbGetMap`) when XKB said it changed, and never patched. Xlib patches its own
/// copy part by part from each change notice, and fetches the parts later, lazily, from
/// whatever map the server has by then: while layouts are loaded one after another (50 a
/// second in the replay of i3lock #351) its copy can hold parts of two maps and read a
/// letter as another key. A key is read with the newest whole map, never a mixture.
final class WholeKeymap {
    private let display: XDisplay
    private var map: XkbDescPtr?
    private var stale = true

    init(display: XDisplay) {
        self.display = display
    }

    deinit {
        if let map { XkbFreeKeyboard(map, UInt32(XkbAllComponentsMask), 1) }
    }

    /// XKB said the keyboard's map changed: the next key fetches it whole.
    func changed() {
        stale = true
    }

    /// The key in `event`, read with the whole map; with Xlib's copy when the server gives
    /// no map (no XKB, or the request failed).
    func keyPress(_ event: inout XEvent) -> KeyPress {
        if stale { reload() }
        guard let map, let keycode = UInt8(exactly: event.xkey.keycode) else { return KeyPress(&event) }
        let state = event.xkey.state
        var consumed: UInt32 = 0
        var typed: KeySym = 0
        var first: KeySym = 0
        guard XkbTranslateKeyCode(map, keycode, state, &consumed, &typed) != 0 else { return KeyPress(&event) }
        // The first layout's symbol with no modifier: what `--key-command` binds.
        _ = XkbTranslateKeyCode(map, keycode, 0, &consumed, &first)
        return KeyPress(
            keysym: UInt32(truncatingIfNeeded: first), layoutKeysym: UInt32(truncatingIfNeeded: Self.capsLocked(typed, state: state, consumed: consumed)),
            state: state)
    }

    /// Caps Lock on a key whose type leaves Lock unused (as XLookupString does): the upper
    /// case of a lower-case letter.
    private static func capsLocked(_ keysym: KeySym, state: UInt32, consumed: UInt32) -> KeySym {
        guard state & UInt32(LockMask) != 0, consumed & UInt32(LockMask) == 0 else { return keysym }
        var lower: KeySym = 0
        var upper: KeySym = 0
        XConvertCase(keysym, &lower, &upper)
        return upper
    }

    /// The on-screen keyboard's face for layout `group` (XKB's state): the letter keys'
    /// first two levels in that group, from the whole map; the Latin letters when the
    /// server gives no map.
    func face(group: Int, layoutName: String?) -> KeyboardFace {
        if stale { reload() }
        guard let map, let client = map.pointee.map, let symMaps = client.pointee.key_sym_map, let syms = client.pointee.syms else {
            return .latin
        }
        let (low, high) = (map.pointee.min_key_code, map.pointee.max_key_code)
        var groups = 1
        let face = KeyboardFace.reading(layouts: false, name: layoutName) { keycode in
            guard keycode >= low, keycode <= high else { return nil }
            let entry = symMaps[Int(truncatingIfNeeded: keycode)]
            let count = Int(truncatingIfNeeded: entry.group_info & 0x0f)
            let width = Int(truncatingIfNeeded: entry.width)
            guard count > 0, width > 0 else { return nil }
            groups = max(groups, count)
            let base = Int(truncatingIfNeeded: entry.offset) + (group % count) * width
            guard base + width <= Int(truncatingIfNeeded: client.pointee.num_syms) else { return nil }
            let plain = UInt32(truncatingIfNeeded: syms[base])
            return (plain, width > 1 ? UInt32(truncatingIfNeeded: syms[base + 1]) : plain)
        }
        return face.rows.allSatisfy(\.isEmpty) ? .latin : KeyboardFace(rows: face.rows, layouts: groups > 1, layoutName: layoutName)
    }

    private func reload() {
        stale = false
        if let map { XkbFreeKeyboard(map, UInt32(XkbAllComponentsMask), 1) }
        map = XkbGetMap(display.pointer, UInt32(clamping: XkbKeyTypesMask | XkbKeySymsMask | XkbModifierMapMask), UInt32(XkbUseCoreKbd))
    }
}
