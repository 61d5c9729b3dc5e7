import SlidegateCore
import SlidegateProtocol
import Testing

/// Splits `bytes` into frame bodies as a receiver does.
private func bodies(_ bytes: [UInt8]) throws(ProtocolError) -> [ArraySlice<UInt8>] {
    var buffer = FrameBuffer()
    buffer.append(bytes[...])
    var found: [ArraySlice<UInt8>] = []
    while let body = try buffer.next() { found.append(body) }
    return found
}

@Suite struct ProtocolTests {
    @Test(arguments: [
        GuardMessage.hello(protocol: GuardProtocol.version, build: "slidegate 0.1.0"),
        .settings(UISettings(text: "schieben → ünlock 🔓", background: Color(hex: "#102030")!, foreground: Color(hex: "#ffffff80")!, fps: 240, unlockCommand: nil, auth: .none)),
        .settings(UISettings(text: "", background: Color(hex: "#000")!, foreground: Color(hex: "#fff")!, fps: 1, unlockCommand: "test -e /x", auth: .pam, message: "back at 3 pm — call 555-0100")),
        .windows(slider: 0x40_0006, banner: 0x40_0007, message: 0),
        .layout(width: 600, height: 80),
        .state(Gate.Snapshot(slide: .resting(since: 12.25), verification: .idle)),
        .state(Gate.Snapshot(slide: .dragging(grabOffset: 0.035, value: 0.123456789012345), verification: .idle)),
        .state(Gate.Snapshot(slide: .springing(from: 1, start: 99.000001), verification: .refused(until: 101.5))),
        .state(Gate.Snapshot(slide: .atEnd, verification: .verifying)),
        .state(Gate.Snapshot(slide: .atEnd, verification: .granted)),
        .input(.press(x: 10.5, y: 40), at: 1234.5678),
        .input(.motion(x: -3, y: 1e6), at: 0.1),
        .input(.release, at: 7),
        .input(.unlockCommandFinished(succeeded: false), at: 8),
        .input(.unlockCommandFinished(succeeded: true), at: 8),
        .keyPressed,
        .ping(7),
    ])
    func guardMessagesRoundTrip(_ message: GuardMessage) throws {
        let found = try bodies(message.frame)
        #expect(found.count == 1)
        #expect(try GuardMessage(body: found[0]) == message)
    }

    @Test(arguments: [UIMessage.hello(protocol: 1, build: "x"), .drawn, .pong(UInt32.max)])
    func uiMessagesRoundTrip(_ message: UIMessage) throws {
        #expect(try UIMessage(body: try bodies(message.frame)[0]) == message)
    }

    @Test func inputMessagesHaveOneFixedSize() {
        let sizes = Set([GateInput.press(x: 1, y: 2), .motion(x: 3, y: 4), .release].map { GuardMessage.input($0, at: 5).frame.count })
        #expect(sizes == [4 + 1 + 8 + 1 + 16])
    }

    @Test func framesSplitAnywhereArriveWhole() throws {
        let stream = GuardMessage.ping(1).frame + GuardMessage.layout(width: 3, height: 4).frame
        for cut in 0...stream.count {
            var buffer = FrameBuffer()
            buffer.append(stream[..<cut])
            var found = [ArraySlice<UInt8>]()
            while let body = try buffer.next() { found.append(body) }
            buffer.append(stream[cut...])
            while let body = try buffer.next() { found.append(body) }
            #expect(try found.map { try GuardMessage(body: $0) } == [.ping(1), .layout(width: 3, height: 4)], "cut at \(cut)")
        }
    }

    @Test(arguments: [
        [0, 0, 0, 0],  // an empty frame
        [1, 0, 1, 0],  // 65537 bytes: too long
    ] as [[UInt8]])
    func badLengthsAreRefused(_ header: [UInt8]) {
        #expect(throws: ProtocolError.self) { try bodies(header) }
    }

    @Test(arguments: [
        [99],  // unknown kind
        [4, 1, 0, 0],  // layout ends early
        [8, 1, 0, 0, 0, 9],  // ping with a byte left over
        [5, 7] + [UInt8](repeating: 0, count: 25),  // unknown slide phase
        [6] + [UInt8](repeating: 0, count: 8) + [13] + [UInt8](repeating: 0, count: 16),  // unknown input
        [1, 1, 0, 0, 0, 9, 0, 0, 0, 65],  // a string longer than its message
        [1, 1, 0, 0, 0, 1, 0, 0, 0, 0xff],  // not UTF-8
    ] as [[UInt8]])
    func malformedBodiesAreRefused(_ body: [UInt8]) {
        #expect(throws: ProtocolError.self) { try GuardMessage(body: body[...]) }
    }

    @Test func aGateCarriesOnFromASnapshot() throws {
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))
        let settings = Gate.Settings(text: "slide", unlockCommand: "false")
        var guardGate = Gate(settings: settings, layout: layout, start: 0)
        _ = guardGate.handle(.press(x: 40, y: 40), at: 1)
        _ = guardGate.handle(.motion(x: 300, y: 40), at: 1.1)
        guard case .state(let snapshot) = try GuardMessage(body: bodies(GuardMessage.state(guardGate.snapshot).frame)[0]) else {
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
