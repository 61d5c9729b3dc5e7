import Testing

@testable import SlidegateCore

/// The on-screen keyboard's one layout function, its face read from a keymap, and when it
/// shows.
/// The keysym X gives a character: its code point in Latin-1, else 0x1000000 plus it.
private func sym(_ c: Unicode.Scalar) -> UInt32 { c.value <= 0xff ? c.value : 0x100_0000 + c.value }

struct ScreenKeyboardTests {
    static let area = Rect(x: 16, y: 212, width: 768, height: 285)

    /// `us` and `de` as XKB maps the letter rows (level 1, level 2), by evdev keycode.
    static func keymap(_ rows: [String], shiftedRows: [String]) -> (UInt8) -> (UInt32, UInt32)? {
        var map: [UInt8: (UInt32, UInt32)] = [:]
        for (row, codes) in KeyboardFace.rowKeycodes.enumerated() {
            let plain = Array(rows[row].unicodeScalars)
            let shifted = Array(shiftedRows[row].unicodeScalars)
            for (i, code) in codes.enumerated() where i < plain.count {
                map[code] = (sym(plain[i]), sym(shifted[i]))
            }
        }
        return { map[$0] }
    }

    static let usFace = KeyboardFace.reading(
        layouts: false, name: nil, keymap(["qwertyuiop[]", "asdfghjkl;'", "zxcvbnm,./"], shiftedRows: ["QWERTYUIOP{}", "ASDFGHJKL:\"", "ZXCVBNM<>?"]))
    static let deFace = KeyboardFace.reading(
        layouts: true, name: "de", keymap(["qwertzuiopü+", "asdfghjklöä", "yxcvbnm,.-"], shiftedRows: ["QWERTZUIOPÜ*", "ASDFGHJKLÖÄ", "YXCVBNM;:_"]))

    @Test func theLetterRowsAreTheKeysThatTypeLettersInKeycodeOrder() {
        func letters(_ face: KeyboardFace) -> [String] {
            face.rows.map { String(String.UnicodeScalarView($0.compactMap { Keysym.character($0.plain) })) }
        }
        #expect(letters(Self.usFace) == ["qwertyuiop", "asdfghjkl", "zxcvbnm"])
        #expect(letters(Self.deFace) == ["qwertzuiopü", "asdfghjklöä", "yxcvbnm"])
        #expect(Self.deFace.rows[1][9].shifted == sym("Ö"))
        #expect(Self.deFace.layouts && Self.deFace.layoutName == "de")
        // A keymap without letters there leaves the rows empty; the guard shows Latin then.
        let digitsOnly = KeyboardFace.reading(layouts: false, name: nil) { _ in (0x31, 0x21) }
        #expect(digitsOnly.rows.allSatisfy { $0.isEmpty })
    }

    @Test func everyKeyIsInsideTheAreaAndNoneOverlap() {
        for face in [Self.usFace, Self.deFace, KeyboardFace.latin] {
            for state in [KeyboardState(), KeyboardState(symbols: true), KeyboardState(shifted: true)] {
                for rtl in [false, true] {
                    let keys = ScreenKeyboard.keys(face: face, state: state, in: Self.area, rightToLeft: rtl)
                    #expect(keys.count == face.rows.joined().count * (state.symbols ? 0 : 1) + (state.symbols ? 31 : 2) + 4 + (face.layouts ? 1 : 0))
                    for (i, key) in keys.enumerated() {
                        #expect(Self.area.intersection(key.rect) == key.rect, "\(key) inside")
                        #expect(key.rect.width >= 20 && key.rect.height == 63)
                        for other in keys[(i + 1)...] {  #expect(!key.rect.overlaps(other.rect), "\(key) and \(other)") }
                    }
                }
            }
        }
    }

    @Test func aKeyboardWithNoRoomHasNoKeys() {
        // The layout fuzz target's find: a monitor 14 pixels wide gives a keyboard 4 wide.
        #expect(ScreenKeyboard.keys(face: .latin, state: KeyboardState(), in: Rect(x: 0, y: 0, width: 4, height: 783)).isEmpty)
        #expect(ScreenKeyboard.keys(face: .latin, state: KeyboardState(), in: Rect(x: 0, y: 0, width: 768, height: 6)).isEmpty)
    }

    @Test func aTapFindsTheKeyDrawnThereAndGapsFindNone() {
        let keys = ScreenKeyboard.keys(face: Self.usFace, state: KeyboardState(), in: Self.area)
        for key in keys {
            #expect(ScreenKeyboard.key(at: (key.rect.midX, key.rect.midY), face: Self.usFace, state: KeyboardState(), in: Self.area) == key.action)
        }
        let q = keys[0].rect
        #expect(keys[0].action == .type(0x71))
        #expect(ScreenKeyboard.key(at: (q.maxX + 2, q.midY), face: Self.usFace, state: KeyboardState(), in: Self.area) == nil, "the gap")
        #expect(ScreenKeyboard.key(at: (5, 300), face: Self.usFace, state: KeyboardState(), in: Self.area) == nil, "outside")
        // Shift types the second level; the symbols page its ASCII.
        let shifted = ScreenKeyboard.keys(face: Self.usFace, state: KeyboardState(shifted: true), in: Self.area)
        #expect(shifted[0].action == .type(0x51))
        let symbols = ScreenKeyboard.keys(face: Self.usFace, state: KeyboardState(symbols: true), in: Self.area)
        #expect(symbols.prefix(10).map(\.action) == "1234567890".unicodeScalars.map { .type($0.value) })
    }

    @Test func rightToLeftSwapsTheEndsAndKeepsTheLetters() {
        let ltr = ScreenKeyboard.keys(face: Self.deFace, state: KeyboardState(), in: Self.area)
        let rtl = ScreenKeyboard.keys(face: Self.deFace, state: KeyboardState(), in: Self.area, rightToLeft: true)
        #expect(ltr.prefix(22) == rtl.prefix(22), "the letter rows as on the keyboard")
        func x(_ keys: [ScreenKey], _ action: KeyboardAction) -> Double { keys.first { $0.action == action }!.rect.x }
        #expect(x(ltr, .shift) < x(ltr, .backspace) && x(rtl, .shift) > x(rtl, .backspace))
        #expect(x(ltr, .page) < x(ltr, .enter) && x(rtl, .page) > x(rtl, .enter))
    }

    @Test func theLabelsAreTheCharactersAndSigns() {
        let state = KeyboardState()
        #expect(ScreenKeyboard.label(.type(sym("ü")), face: Self.deFace, state: state) == "ü")
        #expect(ScreenKeyboard.label(.layout, face: Self.deFace, state: state) == "de")
        #expect(ScreenKeyboard.label(.page, face: Self.deFace, state: state) == "?123")
        #expect(ScreenKeyboard.label(.page, face: Self.deFace, state: KeyboardState(symbols: true)) == "ABC")
    }

    @Test func aCharacterKeyIsNeverThePressedOne() {
        #expect(KeyboardState(pressed: .type(0x61)).pressed == nil)
        #expect(KeyboardState(pressed: .shift).pressed == .shift)
    }

    @Test func autoShowsForThePointerUntilAKeyAndOnUntilHidden() {
        var auto = KeyboardVisibility(mode: .auto)
        #expect(!auto.visible)
        auto.fieldOpen(true, byPointer: true)
        #expect(auto.visible)
        auto.keyTyped()
        #expect(!auto.visible, "a physical key")
        auto.fieldTapped()
        #expect(auto.visible, "a tap on the field")
        auto.fieldOpen(false, byPointer: true)
        auto.fieldOpen(true, byPointer: false)
        #expect(!auto.visible, "typing opened it")
        var on = KeyboardVisibility(mode: .on)
        on.fieldOpen(true, byPointer: false)
        #expect(on.visible)
        on.keyTyped()
        #expect(on.visible)
        on.hide()
        #expect(!on.visible)
        on.fieldOpen(false, byPointer: false)
        on.fieldOpen(true, byPointer: false)
        #expect(on.visible, "shown again at the next opening")
        var off = KeyboardVisibility(mode: .off)
        off.fieldOpen(true, byPointer: true)
        #expect(!off.visible)
    }

    @Test func onlyAPasswordWithoutWheelsHasAKeyboard() throws {
        func has(_ arguments: [String]) throws -> Bool {
            guard case .run(let options) = try Options.parse(arguments) else { return false }
            return options.hasKeyboard
        }
        #expect(try has(["--auth", "pam"]))
        #expect(try has(["--auth", "pam,fingerprint", "--keyboard", "on"]))
        #expect(try !has(["--auth", "pam", "--keyboard", "off"]))
        #expect(try !has(["--auth", "pin", "--keyboard", "on"]))
        #expect(try !has(["--auth", "pam,pin", "--keyboard", "on"]))
        #expect(try !has([]))
    }

    @Test func theKeyboardGoesBelowTheSliderWhichMovesUpForIt() {
        let monitor = LockPlacement.Monitor(rect: Rect(x: 0, y: 0, width: 1280, height: 720), primary: true)
        let plain = LockPlacement.layout(monitors: [monitor], screen: monitor.rect, slider: nil, scale: 1, parts: .init())
        let with = LockPlacement.layout(monitors: [monitor], screen: monitor.rect, slider: nil, scale: 1, parts: .init(keyboard: true))
        #expect(with.slider.y < plain.slider.y && with.slider.width == plain.slider.width)
        #expect(with.keyboard.y > with.slider.maxY && with.keyboard.maxY <= 720)
        #expect(with.keyboard.width >= with.slider.width && abs(with.keyboard.midX - with.slider.midX) <= 1)
        let given = LockPlacement.layout(
            monitors: [monitor], screen: monitor.rect, slider: Geometry(parsing: "600x80+100+100"), scale: 1, parts: .init(keyboard: true))
        #expect(given.keyboard == Self.area, "the end-to-end tests' slider")
        // A slider placed near the bottom keeps its place: the keyboard goes above it.
        let low = LockPlacement.layout(
            monitors: [monitor], screen: monitor.rect, slider: Geometry(parsing: "560x80+360+600"), scale: 1, parts: .init(keyboard: true))
        #expect(low.slider.y == 600 && low.keyboard.maxY <= 600 - 32 && low.keyboard.y >= 0, "\(low.keyboard)")
    }
}
