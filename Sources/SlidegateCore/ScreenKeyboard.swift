/// `--keyboard`: when the on-screen keyboard shows below the password field.
package enum KeyboardMode: String, CaseIterable, Equatable, Sendable {
    /// When the password stage was opened by the pointer (a slide or a tap) and no
    /// physical key has been typed since.
    case auto
    /// Whenever the password field is open.
    case on
    case off
}

/// What a key of the on-screen keyboard does.
package enum KeyboardAction: Equatable, Hashable, Sendable {
    /// Types the character of this keysym, as the same key typed on a keyboard would.
    case type(UInt32)
    case shift, backspace, enter
    /// Turns to the digits and symbols, or back to the letters.
    case page
    /// The keymap's next layout (XKB group).
    case layout
    /// Hides the keyboard until the field is tapped again.
    case hide

    /// Whether the key types a character: its press is shown by its bullet, never by the
    /// key, since the UI must not learn which character it was.
    package var types: Bool {
        if case .type = self { return true }
        return false
    }
}

/// The letter keys of the keymap's current layout, as the guard reads them from its map
/// (the UI draws them from this, the guard hit-tests them from this): rows of the keycodes
/// that type letters, in keycode order, each with its level-1 and level-2 keysym.
package struct KeyboardFace: Equatable, Sendable {
    package struct Letter: Equatable, Sendable {
        package var plain: UInt32
        package var shifted: UInt32

        package init(plain: UInt32, shifted: UInt32) {
            self.plain = plain
            self.shifted = shifted
        }
    }

    /// The rows of letters: at most `maxRows`, each at most `maxLetters`.
    package var rows: [[Letter]]
    /// The keymap has more than one layout: the layout key is shown.
    package var layouts: Bool
    /// The current layout's short name (`KeyboardLayouts`), the layout key's label.
    package var layoutName: String?

    package static let maxRows = 3
    package static let maxLetters = 14

    package init(rows: [[Letter]], layouts: Bool, layoutName: String? = nil) {
        self.rows = Array(rows.prefix(Self.maxRows).map { Array($0.prefix(Self.maxLetters)) })
        self.layouts = layouts
        self.layoutName = layoutName.map { String($0.prefix(16)) }
    }

    /// A face for a keymap the guard could not read: the Latin letters of `us`.
    package static let latin = KeyboardFace(
        rows: ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map { row in
            row.unicodeScalars.map { Letter(plain: $0.value, shifted: $0.value - 0x20) }
        },
        layouts: false)

    /// The keycodes whose symbols make the letter rows: the main block's rows AD, AC and
    /// AB (evdev keycodes 24-35, 38-48, 52-61), of which those that type letters are shown.
    package static let rowKeycodes: [ClosedRange<UInt8>] = [24...35, 38...48, 52...61]

    /// The face from a keymap read as `symbols(keycode)` → (level 1, level 2) keysyms:
    /// every key of `rowKeycodes` whose level-1 symbol is a letter.
    package static func reading(layouts: Bool, name: String?, _ symbols: (UInt8) -> (UInt32, UInt32)?) -> KeyboardFace {
        let rows = rowKeycodes.map { codes in
            codes.compactMap { code -> Letter? in
                guard let (plain, shifted) = symbols(code), let scalar = Keysym.character(plain), scalar.properties.isAlphabetic
                else { return nil }
                return Letter(plain: plain, shifted: Keysym.character(shifted) == nil ? plain : shifted)
            }
        }
        return KeyboardFace(rows: rows, layouts: layouts, layoutName: name)
    }
}

/// The keyboard's page and Shift, and the key held down (never a character's).
package struct KeyboardState: Equatable, Sendable {
    package var symbols = false
    package var shifted = false
    /// A key other than a character's, held down: the UI shows it pressed.
    package var pressed: KeyboardAction?

    package init(symbols: Bool = false, shifted: Bool = false, pressed: KeyboardAction? = nil) {
        self.symbols = symbols
        self.shifted = shifted
        self.pressed = pressed.flatMap { $0.types ? nil : $0 }
    }
}

/// One key where it is drawn and hit-tested.
package struct ScreenKey: Equatable, Sendable {
    package var rect: Rect
    package var action: KeyboardAction
}

/// The on-screen keyboard's one layout function: the guard hit-tests taps with it and the
/// UI draws with it, so what is drawn is what is typed.
package enum ScreenKeyboard {
    /// The digits-and-symbols page (ASCII, whose keysyms are their code points).
    package static let symbolRows = ["1234567890", "-/:;()$&@\"", ".,?!'#%*+="]

    /// The keys of `face` on the page `state` says, in `area` (the keyboard's rectangle):
    /// four rows — the letters (or symbols), the third with Shift and Backspace at its ends,
    /// and a row of ?123, the layout key (when there are layouts), the space bar, the hide
    /// key and Return. Right to left, the ends of the third and fourth rows swap sides; the
    /// letters stay in the keymap's order, as on the keyboard itself.
    package static func keys(face: KeyboardFace, state: KeyboardState, in area: Rect, rightToLeft: Bool = false) -> [ScreenKey] {
        guard area.width >= 4, area.height >= 4 else { return [] }
        let gap = max((area.height * 0.035).rounded(), 1)
        let height = ((area.height - 3 * gap) / 4).rounded(.down)
        let characters: [[UInt32]]
        if state.symbols {
            characters = symbolRows.map { $0.unicodeScalars.map(\.value) }
        } else {
            characters = (0..<3).map { row in
                face.rows.indices.contains(row) ? face.rows[row].map { state.shifted ? $0.shifted : $0.plain } : []
            }
        }
        // Units: a letter is 1, Shift and Backspace 1.5, the bottom row fills the width.
        let columns = max(10, Double(characters[0].count), Double(characters[1].count), Double(characters[2].count) + (state.symbols ? 1.5 : 3))
        let unit = (area.width - (columns - 1) * gap) / columns
        // A keyboard with no room for keys (a monitor a few pixels wide) has none.
        guard unit >= 1, height >= 1 else { return [] }
        var rows: [[(action: KeyboardAction, units: Double)]] = [
            characters[0].map { (.type($0), 1) },
            characters[1].map { (.type($0), 1) },
            (state.symbols ? [] : [(.shift, 1.5)]) + characters[2].map { (.type($0), 1) } + [(.backspace, 1.5)],
        ]
        let fixed: [(action: KeyboardAction, units: Double)] =
            [(.page, 1.5)] + (face.layouts ? [(.layout, 1)] : []) + [(.type(0x20), 0), (.hide, 1), (.enter, 2)]
        let used = fixed.reduce(0) { $0 + $1.units } * unit + Double(fixed.count - 1) * gap
        let spaceUnits = max((area.width - used) / unit, 1)
        rows.append(fixed.map { $0.units == 0 ? ($0.action, spaceUnits) : $0 })
        if rightToLeft {
            let third = rows[2]
            rows[2] = [third[third.count - 1]] + third.dropLast().dropFirst(state.symbols ? 0 : 1) + third.prefix(state.symbols ? 0 : 1)
            rows[3].reverse()
        }
        var keys: [ScreenKey] = []
        for (index, row) in rows.enumerated() {
            let width = row.reduce(0) { $0 + $1.units * unit } + Double(max(row.count - 1, 0)) * gap
            var x = area.x + max(((area.width - width) / 2).rounded(.down), 0)
            let y = area.y + Double(index) * (height + gap)
            for key in row {
                let w = key.units * unit
                keys.append(ScreenKey(rect: Rect(x: x.rounded(), y: y, width: (x + w).rounded() - x.rounded(), height: height), action: key.action))
                x += w + gap
            }
        }
        return keys
    }

    /// The key under a point, if any (the gaps between keys are none).
    package static func key(at point: (x: Double, y: Double), face: KeyboardFace, state: KeyboardState, in area: Rect, rightToLeft: Bool = false)
        -> KeyboardAction?
    {
        guard area.contains(x: point.x, y: point.y) else { return nil }
        return keys(face: face, state: state, in: area, rightToLeft: rightToLeft).first { $0.rect.contains(x: point.x, y: point.y) }?.action
    }

    /// The label a key shows: its character, or a word or sign for the others (`Strings`
    /// has none of them: they are signs a keyboard shows in every language).
    package static func label(_ action: KeyboardAction, face: KeyboardFace, state: KeyboardState) -> String {
        switch action {
        case .type(0x20): ""
        case .type(let keysym): Keysym.character(keysym).map { String(Character($0)) } ?? ""
        case .shift: "⇧"
        case .backspace: "⌫"
        case .enter: "⏎"
        case .page: state.symbols ? "ABC" : "?123"
        case .layout: face.layoutName ?? "⇄"
        case .hide: "⌨"
        }
    }
}

/// When the keyboard shows: `--keyboard`, how the password stage was opened, and the hide
/// key. The guard keeps one; its `visible` decides what it hit-tests and the UI shows.
package struct KeyboardVisibility: Equatable, Sendable {
    package let mode: KeyboardMode
    /// The field is open.
    private var open = false
    /// The pointer opened the field (or tapped it since), and no physical key came since.
    private var byPointer = false
    /// The hide key was pressed since the field opened (or was last tapped).
    private var hidden = false

    package init(mode: KeyboardMode) {
        self.mode = mode
    }

    package var visible: Bool {
        guard open, !hidden else { return false }
        switch mode {
        case .on: return true
        case .auto: return byPointer
        case .off: return false
        }
    }

    /// The field opened or closed; `byPointer` when the input that opened it was the pointer's.
    package mutating func fieldOpen(_ isOpen: Bool, byPointer: Bool) {
        guard isOpen != open else { return }
        open = isOpen
        self.byPointer = isOpen && byPointer
        hidden = false
    }

    /// The open field was tapped: the keyboard shows again.
    package mutating func fieldTapped() {
        guard open else { return }
        byPointer = true
        hidden = false
    }

    /// A physical key was typed: `auto` hides the keyboard.
    package mutating func keyTyped() {
        byPointer = false
    }

    package mutating func hide() {
        hidden = true
    }
}
