import Glibc
import Testing

/// `--theme high-contrast`: the label, the password field and the on-screen keys at 7:1 or
/// more against what lies under them (WCAG AAA), measured on the screen. In a rectangle,
/// the background is its commonest colour, and the text's contrast is that of the pixel
/// that stands out most from it (a glyph's solid middle; its antialiased edges are
/// lighter, as in any measurement of rendered text).
@Suite(.serialized) struct ContrastTests {
    let screen: VirtualScreen
    let client: Client
    let pam: MatrixPam

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try MatrixPam(password: "Qz7Xj9w")
    }

    /// WCAG's relative luminance of a 0xRRGGBB pixel.
    static func luminance(_ pixel: UInt32) -> Double {
        func channel(_ shift: UInt32) -> Double {
            let c = Double((pixel >> shift) & 0xff) / 255
            return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }

    /// The contrast ratio of the text in a rectangle against its commonest colour.
    func contrast(x: Int, y: Int, width: Int, height: Int) -> Double {
        guard let pixels = client.pixels(x: x, y: y, width: width, height: height), !pixels.isEmpty else { return 0 }
        var counts: [UInt32: Int] = [:]
        for p in pixels { counts[p, default: 0] += 1 }
        let background = Self.luminance(counts.max { $0.value < $1.value }!.key)
        return pixels.map { p in
            let l = Self.luminance(p)
            return (max(l, background) + 0.05) / (min(l, background) + 0.05)
        }.max() ?? 0
    }

    @Test func theHighContrastThemeKeepsSevenToOne() throws {
        // No --background: the theme's black is the lock's.
        let gate = try screen.slidegate(
            ["--slider", "600x80+100+100", "--theme", "high-contrast", "--auth", "pam", "--keyboard", "on"], environment: pam.environment)
        #expect(eventually(within: 5) { client.brightness(300, 300) < 5 && contrast(x: 200, y: 110, width: 480, height: 60) > 1 }, "locked")
        // The label between the shimmer's sweeps (the weakest it gets): the least of ten looks
        // over two sweeps' time.
        var label = Double.infinity
        for _ in 0..<10 {
            label = min(label, contrast(x: 200, y: 110, width: 480, height: 60))
            sleep(seconds: 0.2)
        }
        #expect(label >= 7, "the label: \(label):1")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.brightness(22, 218) > 20 }, "the keyboard shows")
        sleep(seconds: 0.5)
        // The prompt in the field (right of its caret), and keys: a letter, Shift, ?123.
        let field = contrast(x: 125, y: 110, width: 300, height: 60)
        #expect(field >= 7, "the field: \(field):1")
        for (x, y) in [(20, 216), (25, 362), (20, 435)] {
            let key = contrast(x: x, y: y, width: 56, height: 55)
            #expect(key >= 7, "the key at \(x),\(y): \(key):1")
        }
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func theBuiltInLookFallsShortWhichIsWhyTheThemeExists() throws {
        let gate = try screen.slidegate(["--slider", "600x80+100+100"])
        #expect(eventually(within: 5) { contrast(x: 200, y: 110, width: 480, height: 60) > 1 }, "locked")
        var label = Double.infinity
        for _ in 0..<10 {
            label = min(label, contrast(x: 200, y: 110, width: 480, height: 60))
            sleep(seconds: 0.2)
        }
        #expect(label < 7, "the measurement tells the two apart: \(label):1")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }
}
