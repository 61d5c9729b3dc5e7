import CX11
import Glibc
import Testing

/// `--keyboard`: the on-screen keyboard tapped as a person would, with pam_wrapper's
/// pam_matrix checking the password.
///
/// The slider is 600x80 at (100, 100) (`LockModeTests.arguments`), so the keyboard (keys
/// 0.8 × 80 = 64 tall) is 768 wide (12 keys), 285 tall (4.45 keys), centred under it 32
/// below: (16, 212, 768, 285). Its gaps are 10 (3.5 % of its height), its rows 63 tall at
/// y 212, 285, 358 and 431. A row's keys are centred; a letter is one unit, Shift and
/// Backspace 1.5, ?123 1.5, the layout key 1, the hide key 1, Return 2, and the space bar
/// the rest; a unit is the width over the widest row's units (at least 10) less the gaps.
@Suite(.serialized) struct KeyboardTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: MatrixPam
    /// A password with a letter that moves between `us` and `de` (z), one typed with Shift
    /// (Y, which moves too) and a digit from the symbols page.
    static let password = "zqY9"

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try MatrixPam(password: Self.password)
    }

    var environment: [String: String?] { pam.environment }

    func lockWithKeyboard(_ when: String = "on") throws -> Child {
        try lock(["--auth", "pam", "--keyboard", when], environment: environment)
    }

    /// The centre of key `index` in `row` whose keys are `units` wide, the widest row
    /// being `columns` units.
    static func centre(row: Int, _ index: Int, of units: [Double], columns: Double) -> (Int, Int) {
        let unit = (768 - (columns - 1) * 10) / columns
        let width = units.reduce(0) { $0 + $1 * unit } + Double(units.count - 1) * 10
        var x = 16 + ((768 - width) / 2).rounded(.down)
        for u in units.prefix(index) { x += u * unit + 10 }
        return (Int(x + units[index] * unit / 2), 212 + row * 73 + 31)
    }

    /// The letter page's keys of a layout whose rows hold `letters` keys, with the layout
    /// key or not.
    struct Page {
        var letters: [Int]
        var layouts: Bool
        var columns: Double { max(10, Double(letters[0]), Double(letters[1]), Double(letters[2]) + 3) }
        func letter(row: Int, _ index: Int) -> (Int, Int) {
            let units = row == 2 ? [1.5] + Array(repeating: 1, count: letters[2]) + [1.5] : Array(repeating: 1.0, count: letters[row])
            return KeyboardTests.centre(row: row, row == 2 ? index + 1 : index, of: units, columns: columns)
        }
        var bottom: [Double] {
            let fixed = [1.5] + (layouts ? [1.0] : []) + [1, 2]
            let unit = (768 - (columns - 1) * 10) / columns
            let space = (768 - fixed.reduce(0, +) * unit - Double(fixed.count) * 10) / unit
            return [1.5] + (layouts ? [1.0] : []) + [space, 1, 2]
        }
        var shift: (Int, Int) { KeyboardTests.centre(row: 2, 0, of: [1.5] + Array(repeating: 1, count: letters[2]) + [1.5], columns: columns) }
        var symbols: (Int, Int) { KeyboardTests.centre(row: 3, 0, of: bottom, columns: columns) }
        var layout: (Int, Int) { KeyboardTests.centre(row: 3, 1, of: bottom, columns: columns) }
        var enter: (Int, Int) { KeyboardTests.centre(row: 3, bottom.count - 1, of: bottom, columns: columns) }
    }

    static let us = Page(letters: [10, 9, 7], layouts: false)
    static let usWithDe = Page(letters: [10, 9, 7], layouts: true)
    static let de = Page(letters: [11, 11, 7], layouts: true)
    /// The symbols page's digit `d`: 10 keys in a row, the widest row 11.5 units.
    static func digit(_ d: Int) -> (Int, Int) { centre(row: 0, (d + 9) % 10, of: Array(repeating: 1, count: 10), columns: 11.5) }

    func tap(_ point: (Int, Int)) {
        client.move(point.0, point.1)
        client.button(true)
        client.button(false)
    }

    /// A key's face, just inside its top-left corner, is lighter than the background.
    func keyboardShown() -> Bool { client.brightness(22, 218) > 50 }

    func slide() {
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "the password stage opened")
    }

    @Test func tappingThePasswordUnlocks() throws {
        let gate = try lockWithKeyboard()
        #expect(!keyboardShown(), "no keyboard on the slider stage")
        slide()
        #expect(eventually { keyboardShown() }, "the keyboard shows below the field")
        let page = Self.us
        for key in [page.letter(row: 2, 0), page.letter(row: 0, 0), page.shift, page.letter(row: 0, 5), page.symbols, Self.digit(9)] {
            tap(key)
        }
        #expect(gate.isRunning, "no Return tapped yet")
        tap(page.enter)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(client.canGrabKeyboard())
    }

    @Test func theLayoutKeyTurnsToTheSecondLayoutWhereLettersMove() throws {
        try screen.run("/usr/bin/setxkbmap", "-layout", "us,de")
        defer { _ = try? screen.run("/usr/bin/setxkbmap", "-layout", "us") }
        let gate = try lockWithKeyboard()
        slide()
        #expect(eventually { keyboardShown() })
        tap(Self.usWithDe.layout)
        // German's second row has 11 letters (ö, ä), not 9: its first key starts at the left edge.
        #expect(eventually { client.brightness(22, 291) > 50 }, "the German keys are drawn")
        sleep(seconds: 0.3)
        let page = Self.de
        for key in [page.letter(row: 0, 5), page.letter(row: 0, 0), page.shift, page.letter(row: 2, 0), page.symbols, Self.digit(9)] {
            tap(key)
        }
        tap(page.enter)
        #expect(gate.wait() == 0, "the German z and Y were typed: \(gate.standardError)")
    }

    @Test func theUSPlacesTypeOtherLettersInGerman() throws {
        try screen.run("/usr/bin/setxkbmap", "-layout", "us,de")
        defer { _ = try? screen.run("/usr/bin/setxkbmap", "-layout", "us") }
        let gate = try lockWithKeyboard()
        slide()
        #expect(eventually { keyboardShown() })
        tap(Self.usWithDe.layout)
        sleep(seconds: 0.5)
        // Tapped where us has z and Y, German has y and Z: the password is wrong.
        let page = Self.de
        for key in [page.letter(row: 2, 0), page.letter(row: 0, 0), page.shift, page.letter(row: 0, 5), page.symbols, Self.digit(9)] {
            tap(key)
        }
        tap(page.enter)
        #expect(eventually { errorBannerShows() }, "refused")
        #expect(gate.isRunning, "still locked")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func autoShowsAfterASlideAndHidesAtAKey() throws {
        let gate = try lockWithKeyboard("auto")
        slide()
        #expect(eventually { keyboardShown() }, "a slide opened the field: the keyboard shows")
        type("z", enter: false)
        #expect(eventually { !keyboardShown() }, "a typed key hides it")
        type("qY9")
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func autoIsNotShownWhenTypingOpenedTheField() throws {
        let gate = try lockWithKeyboard("auto")
        type("z", enter: false)
        #expect(eventually { stageOpen() })
        sleep(seconds: 0.5)
        #expect(!keyboardShown(), "typing opened the field: no keyboard")
        // A tap on the field brings it.
        tap((300, 140))
        #expect(eventually { keyboardShown() }, "a tap on the field shows it")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func theHideKeyHidesIt() throws {
        let gate = try lockWithKeyboard()
        slide()
        #expect(eventually { keyboardShown() })
        tap(Self.centre(row: 3, 2, of: Self.us.bottom, columns: Self.us.columns))
        #expect(eventually { !keyboardShown() }, "the hide key hides it")
        tap((300, 140))
        #expect(eventually { keyboardShown() }, "a tap on the field shows it again")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    func type(_ text: String, enter: Bool = true) {
        client.type(text, enter: enter)
    }
}

/// A PAM service directory for pam_wrapper with one service, `slidegate`: pam_matrix, the
/// user the tests run as, and `password`.
final class MatrixPam {
    let scratch: Scratch

    init(password: String) throws {
        scratch = try Scratch()
        let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
        let matrix = "\(PamStack.modules)/pam_matrix.so passdb=\(scratch.path)/passdb"
        write("passdb", "\(user):\(password):slidegate\n")
        write("slidegate", "auth required \(matrix)\naccount required \(matrix)\n")
    }

    private func write(_ name: String, _ text: String) {
        let f = fopen(scratch.path + "/" + name, "w")!
        fputs(text, f)
        fclose(f)
    }

    var environment: [String: String?] {
        ["LD_PRELOAD": "libpam_wrapper.so", "PAM_WRAPPER": "1", "PAM_WRAPPER_SERVICE_DIR": scratch.path]
    }
}
