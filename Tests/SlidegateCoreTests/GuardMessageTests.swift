import SlidegateCore
import Testing

@Suite struct GuardMessageTests {
    @Test(arguments: [
        GuardMessage.layout(width: 600, height: 80),
        .window(0x40_0006),
        .keyPressed,
        .state(Gate.Snapshot(phase: .resting(since: 12.25), messageUntil: nil)),
        .state(Gate.Snapshot(phase: .dragging(grabOffset: 3.5, value: 0.123456789012345), messageUntil: nil)),
        .state(Gate.Snapshot(phase: .springing(from: 1, start: 99.000001), messageUntil: 101.5)),
        .state(Gate.Snapshot(phase: .unlocking, messageUntil: nil)),
        .state(Gate.Snapshot(phase: .finished(.signal(15)), messageUntil: nil)),
        .input(.press(x: 10.5, y: 40), at: 1234.5678),
        .input(.motion(x: -3, y: 1e6), at: 0.1),
        .input(.release, at: 7),
        .input(.unlockCommandFinished(succeeded: false), at: 8),
        .input(.unlockCommandFinished(succeeded: true), at: 8),
    ])
    func roundTrips(_ message: GuardMessage) {
        #expect(GuardMessage(line: message.line) == message)
        #expect(!message.line.contains("\n"))
    }

    @Test(arguments: ["", "layout", "layout 1", "layout a b", "window", "window -1", "window 1 2", "key 1", "state", "state resting -", "state resting 1", "state bogus 1 -",
        "input", "input 1", "input x press 1 2", "input 1 press 1", "input 1 release 2", "hello"])
    func rejectsMalformedLines(_ line: String) {
        #expect(GuardMessage(line: line) == nil)
    }

    @Test func aGateCarriesOnFromASnapshot() {
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))
        let settings = Gate.Settings(text: "slide", unlockCommand: "false")
        var guardGate = Gate(settings: settings, layout: layout, start: 0)
        _ = guardGate.handle(.press(x: 40, y: 40), at: 1)
        _ = guardGate.handle(.motion(x: 300, y: 40), at: 1.1)
        guard case .state(let snapshot)? = GuardMessage(line: GuardMessage.state(guardGate.snapshot).line) else {
            Issue.record("no snapshot")
            return
        }
        var ui = Gate(settings: settings, layout: layout, start: 0, snapshot: snapshot)
        #expect(ui.scene(at: 1.2) == guardGate.scene(at: 1.2))
        _ = ui.handle(.release, at: 1.3)
        _ = guardGate.handle(.release, at: 1.3)
        #expect(ui.scene(at: 1.4) == guardGate.scene(at: 1.4))
    }
}
