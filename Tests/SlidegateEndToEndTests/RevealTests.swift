import CX11
import Glibc
import Testing

/// `--reveal`: once the slide completes, the cover is cut away over 0.35 s in the chosen
/// direction while the grabs are still held; then slidegate exits.
@Suite(.serialized) struct RevealTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    func isCover(_ x: Int, _ y: Int) -> Bool { client.pixel(x, y) == (16, 32, 48) }

    /// For each direction, a point the reveal opens first and one it opens last.
    static let directions: [(how: String, first: (Int, Int), last: (Int, Int))] = [
        ("center", (640, 360), (5, 5)), ("left", (5, 360), (1275, 360)), ("right", (1275, 360), (5, 360)),
        ("top", (640, 5), (640, 715)), ("bottom", (640, 715), (640, 5)),
    ]

    @Test(arguments: directions.map(\.how))
    func theCoverOpensInItsDirectionWithTheGrabsHeld(_ how: String) throws {
        let direction = try #require(Self.directions.first { $0.how == how })
        let gate = try lock(["--reveal", how])
        client.drag(from: (140, 140), to: (1000, 140))
        let released = now()
        var partlyOpen = false
        var grabbedWhilePartlyOpen = false
        while gate.isRunning && now() - released < 2 {
            if !isCover(direction.first.0, direction.first.1) && isCover(direction.last.0, direction.last.1) {
                partlyOpen = true
                grabbedWhilePartlyOpen = grabbedWhilePartlyOpen || (!client.canGrabKeyboard() && !client.canGrabPointer())
            }
        }
        #expect(partlyOpen, "\(how): the cover was seen partly open, from the right side")
        #expect(grabbedWhilePartlyOpen, "\(how): the grabs are held while it opens")
        #expect(gate.wait() == 0)
        #expect(now() - released < 0.5 + 0.1, "\(how): exit \(now() - released) s after the release")
        #expect(client.canGrabKeyboard() && client.mappedTopLevels().isEmpty)
    }

    @Test func windowedModeShapesItsWindow() throws {
        let gate = try screen.slidegate(WindowedModeTests.geometry + ["--reveal", "left"])
        #expect(eventually { client.thumbShown(at: 0, threshold: 70) })
        client.drag(from: (140, 140), to: (1000, 140))
        var partlyOpen = false
        while gate.isRunning {
            // The window's left end is gone while its right end (the thumb at the end) shows.
            if client.brightness(104, 140) < 10 && client.thumbShown(at: 1, threshold: 70) { partlyOpen = true }
        }
        #expect(partlyOpen, "the window was seen opening from the left")
        #expect(gate.wait() == 0)
    }
}
