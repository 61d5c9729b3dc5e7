import Glibc
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
    @Test func aMessageTooLongToFrameIsNotWrittenAndSaysSo() {
        var buffer = GuardMessage.ping(1).frame
        let before = buffer
        #expect(!GuardMessage.echo(String(repeating: "x", count: GuardProtocol.maximumFrame)).appendFrame(to: &buffer))
        #expect(buffer == before, "nothing of it is left in the buffer")
        #expect(GuardMessage.echo(String(repeating: "x", count: GuardProtocol.maximumFrame - 5)).appendFrame(to: &buffer))
        #expect(!GuardMessage.input(.signal(15), at: 0).appendFrame(to: &buffer), "an input the guard never forwards")
        #expect(!GuardMessage.forwards(.signal(15)) && !GuardMessage.forwards(.closeRequested) && GuardMessage.forwards(.release))
        #expect(AuthReply.notice(error: false, text: String(repeating: "x", count: 70_000)).frame.isEmpty)
    }

    @Test func aStateWithEveryBannerPAMCanPostFitsInAFrame() {
        var gate = Gate(
            settings: Gate.Settings(text: "x", unlockCommand: nil, timeout: nil, fps: 60, auth: .pam),
            layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: 400, height: 60)), start: 0)
        for i in 0..<200 {
            _ = gate.handle(.authMessage(i % 2 == 0 ? .info : .error, "\(i) " + String(repeating: "€", count: 34_000)), at: Double(i) / 1000)
        }
        #expect(gate.banners.waiting.count <= BannerQueue.maximumWaiting)
        #expect(!GuardMessage.state(gate.snapshot).frame.isEmpty)
    }

    @Test func theLongestSettingsTheOptionsAllowFitInAFrame() throws {
        let value = String(repeating: "€", count: Options.maximumValue / 3)
        let invocation = try Options.parse(
            ["--text", "--message", "--clock-format", "--date-format", "--unlock-command", "--theme", "--image", "--status-command"]
                .flatMap { [$0, value] } + ["--status-interval", "3600", "--show-user", "--show-media", "--show-battery", "--speak"]
                + ["--power-actions", "suspend,hibernate,reboot,poweroff", "--blur", "200", "--dim", "0.9"]
                + ["--image-mode", "stretch", "--auth", "pam,pin,fingerprint,key", "--show-failed-attempts", "--background", "#112233"]
                + ["--foreground", "#ffffff80", "--direction", "auto", "--reduce-motion", "--timeout", "5", "--countdown", "--no-clock"])
        guard case .run(let options) = invocation else { throw ProtocolError("not a lock") }
        var settings = UISettings(looks: options.looks, fps: 60, pinLength: 12)
        settings.strings = Strings.translated { _ in String(repeating: "€", count: 10_000) }
        #expect(options.looks.count == OptionSpec.all.filter(\.look).count, "every look option given")
        #expect(!GuardMessage.settings(settings).frame.isEmpty)
    }

    /// A look the option table does not take is malformed: the UI must never draw with a
    /// setting it did not parse as the guard did.
    @Test(arguments: [
        [LookSetting(name: "grace", value: "5")], [LookSetting(name: "fps", value: "0")], [LookSetting(name: "nonsense", value: "")],
        [LookSetting(name: "background", value: "red")], [LookSetting(name: "text", value: "a"), LookSetting(name: "text", value: "b")],
    ])
    func looksTheTableDoesNotTakeAreMalformed(_ looks: [LookSetting]) {
        let frame = GuardMessage.settings(UISettings(looks: looks, fps: 60)).frame
        #expect(frame.count > 4)
        #expect(throws: ProtocolError.self) { try GuardMessage(body: frame.dropFirst(4)) }
    }

    /// One or more messages of every kind the guard sends.
    static let guardMessages: [GuardMessage] = [
        GuardMessage.hello(protocol: GuardProtocol.version, build: "slidegate 0.1.0"),
        .settings(UISettings(looks: [LookSetting(name: "text", value: "schieben → ünlock 🔓"), LookSetting(name: "foreground", value: "#ffffff80")], fps: 240)),
        .settings(
            UISettings(
                looks: [LookSetting(name: "message", value: "back at 3 pm — call 555-0100"), LookSetting(name: "auth", value: "pam"), LookSetting(name: "unlock-command", value: "test -e /x")],
                fps: 1)),
        .settings(UISettings(looks: [LookSetting(name: "auth", value: "pin,pam")], fps: 60, pinLength: 12)),
        .settings({
            var s = UISettings(looks: [LookSetting(name: "auth", value: "pam,fingerprint,key")], fps: 60)
            s.graceUntil = 1234.5
            return s
        }()),
        .settings({
            var s = UISettings(
                looks: ["text=اسحب", "auth=pam", "countdown=", "show-failed-attempts=", "reduce-motion=", "direction=rtl", "clock-format=", "date-format=%A",
                    "image=/home/ann/Pictures/Fjord at dusk.jpg", "image-mode=tile"].map { LookSetting(name: String($0.prefix { $0 != "=" }), value: String($0.drop { $0 != "=" }.dropFirst())) },
                fps: 60)
            s.deadline = 1234.5
            s.holdsMatches = false
            s.scale = 2.5
            s.strings = Strings.translated { "«\($0.english)»" }
            return s
        }()),
        .windows(
            cover: 0x40_0005, slider: 0x40_0006, banner: 0x40_0007, message: 0, wheels: 0x40_0009, clock: 0x40_000a, switchUser: 0x40_000b,
            media: 0x40_000c, power: 0x40_000d, desktop: 0x40_000e, keyboard: 0x40_000f),
        .screenKeyboard(nil, KeyboardState()),
        .screenKeyboard(
            KeyboardFace(
                rows: [[.init(plain: 0x71, shifted: 0x51), .init(plain: 0x5d7, shifted: 0x5d7)], [], [.init(plain: 0xfc, shifted: 0xdc)]],
                layouts: true, layoutName: "ar"),
            KeyboardState(symbols: true, shifted: true, pressed: .layout)),
        .screenKeyboard(KeyboardFace.latin, KeyboardState(pressed: .type(0x61))),
        .layout(width: 600, height: 80, wheels: nil),
        .layout(width: 600, height: 80, wheels: Rect(x: -20, y: -250.5, width: 640, height: 194)),
        .state(Gate.Snapshot(slide: .resting(since: 12.25), verification: .idle)),
        .state(Gate.Snapshot(slide: .dragging(grabOffset: 0.035, value: 0.123456789012345), verification: .idle)),
        .state(Gate.Snapshot(slide: .springing(from: 1, start: 99.000001), verification: .refused(until: 101.5))),
        .state(Gate.Snapshot(slide: .atEnd, verification: .verifying)),
        .state(Gate.Snapshot(slide: .atEnd, verification: .granted)),
        .state(
            Gate.Snapshot(
                slide: .atEnd, verification: .verifying,
                wheels: Wheels(
                    wheels: [
                        Wheel(motion: .still(7)), Wheel(motion: .held(anchor: 3.5, anchorY: -4, y: -5.25, velocity: 12, lastTime: 9)),
                        Wheel(motion: .coasting(from: 1, velocity: -30, rate: 2.1, start: 8, target: -13)),
                        Wheel(motion: .settling(from: 4.4, velocity: 0.5, target: 4, start: 8.5, end: 8.9)),
                    ], focus: 3, held: 1),
                pinLimiter: AttemptLimiter(schedule: .pin, failures: 6, blockedUntil: 400), checkingPin: true)),
        .state(
            Gate.Snapshot(
                slide: .atEnd, verification: .idle, heldMatch: Gate.HeldMatch(method: .key, until: 31.5), awaitingSince: 20.25,
                methodLimiter: AttemptLimiter(failures: 3, blockedUntil: 22), keyboardLayout: "de")),
        .input(.scroll(x: 12, y: -80, down: true), at: 3),
        .input(.scroll(x: 12, y: -80, down: false), at: 3),
        .input(.wheelKey(.digit(0)), at: 4),
        .input(.wheelKey(.digit(9)), at: 4),
        .input(.wheelKey(.left), at: 4),
        .input(.wheelKey(.enter), at: 4),
        .input(.pinVerdict(granted: false, message: "the PIN file cannot be used"), at: 5),
        .input(.pinVerdict(granted: true, message: nil), at: 5),
        .input(.scramble([0, 9, 3, 3, 1, 2]), at: 6),
        .input(.press(x: 10.5, y: 40), at: 1234.5678),
        .input(.motion(x: -3, y: 1e6), at: 0.1),
        .input(.release, at: 7),
        .input(.unlockCommandFinished(succeeded: false), at: 8),
        .input(.unlockCommandFinished(succeeded: true), at: 8),
        .input(.authPrompt(PasswordEntry.Prompt(text: "Password: ", echo: false)), at: 9),
        .input(.authPrompt(PasswordEntry.Prompt(text: "Code:", echo: true)), at: 9),
        .input(.authMessage(.error, "Account locked"), at: 10),
        .input(.authVerdict(granted: false, message: "Authentication failure"), at: 11),
        .input(.authVerdict(granted: true, message: nil), at: 11),
        .input(.methodVerdict(.fingerprint, granted: true), at: 12),
        .input(.methodVerdict(.key, granted: false), at: 12.5),
        .input(.keyboardLayout("ru"), at: 13),
        .input(.keyboardLayout(nil), at: 13.5),
        .echo("424"),
        .keyPressed,
        .ping(7),
        .firstFrame(path: "/home/ann/.cache/slidegate/slider-560x80", key: UInt64.max, shown: 0),
        .lend,
        .giveBack,
        .act(.playPause),
        .act(.power(.poweroff)),
        .focus(.switchUser),
        .focus(.previous),
        .focus(nil),
    ]

    @Test(arguments: guardMessages)
    func guardMessagesRoundTrip(_ message: GuardMessage) throws {
        let found = try bodies(message.frame)
        #expect(found.count == 1)
        #expect(found.first?.first == message.kind.rawValue, "the frame names its kind")
        #expect(try GuardMessage(body: found[0]) == message)
    }

    /// A new kind without a sample above fails here.
    @Test func everyGuardMessageKindIsRoundTripped() {
        let tested = Set(Self.guardMessages.map(\.kind))
        for kind in GuardMessage.Kind.allCases { #expect(tested.contains(kind), "no round trip of \(kind)") }
    }

    /// Every input tag is read, and written back byte for byte.
    @Test(arguments: GuardMessage.InputTag.allCases)
    func everyInputTagRoundTrips(_ tag: GuardMessage.InputTag) throws {
        let placed: Set<GuardMessage.InputTag> = [.press, .motion, .scrollDown, .scrollUp]
        let (x, y) = placed.contains(tag) ? (3.5, -4.0) : (0.0, 0.0)
        var body: [UInt8] = [GuardMessage.Kind.input.rawValue]
        func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { body += $0 } }
        f64(12.5)
        body.append(tag.rawValue)
        f64(x)
        f64(y)
        let message = try GuardMessage(body: body[...])
        #expect(message.kind == .input)
        #expect(Array(try bodies(message.frame)[0]) == body, "\(message)")
    }

    static let uiMessages: [UIMessage] = [
        UIMessage.hello(protocol: 1, build: "x"), .drawn, .pong(UInt32.max), .notLent, .controls([]),
        .controls([.previous, .playPause, .next, .power(.suspend), .power(.reboot)]), .controls(LockControl.all),
        .lent(SliderParts(track: 0x40_0001, thumb: 0x40_0002, label: nil)),
        .lent(
            SliderParts(
                track: 1, thumb: 2,
                label: SliderParts.Label(pixmap: UInt64.max, rect: Rect(x: 222, y: -3, width: 186, height: 39), foregroundAlpha: 0.9, emphasis: 0.45))),
    ]

    @Test(arguments: uiMessages)
    func uiMessagesRoundTrip(_ message: UIMessage) throws {
        #expect(try bodies(message.frame)[0].first == message.kind.rawValue)
        #expect(try UIMessage(body: try bodies(message.frame)[0]) == message)
    }

    @Test func everyUIMessageKindIsRoundTripped() {
        let tested = Set(Self.uiMessages.map(\.kind))
        for kind in UIMessage.Kind.allCases { #expect(tested.contains(kind), "no round trip of \(kind)") }
    }

    static let authRequests: [AuthRequest] = [
        .hello(protocol: AuthProtocol.version, build: "slidegate 0.1.0"), .begin(service: "slidegate", tty: ":0"), .cancel,
        .pinFile("/home/ann/.config/slidegate/pin"),
    ]
    static let authReplies: [AuthReply] = [
        .hello(protocol: AuthProtocol.version, build: "x"), .prompt(echo: true, text: "Code:"), .prompt(echo: false, text: "Password: "),
        .notice(error: true, text: "Account locked"), .notice(error: false, text: "Place your finger"),
        .verdict(.refused, message: "Authentication failure"), .verdict(.granted, message: nil), .verdict(.cancelled, message: nil),
        .verdict(.grantedPasswordExpired, message: nil),
    ]

    /// Every request and reply of the helper's protocol comes back as it went; the two
    /// requests that carry a secret are framed by `secretHeader` (above), never as a request.
    @Test func everyAuthMessageKindIsRoundTripped() throws {
        var requestKinds: Set<AuthRequest.Kind> = [.answer, .pin]
        for request in Self.authRequests {
            let body = try bodies(request.frame)[0]
            requestKinds.insert(try #require(AuthRequest.Kind(rawValue: body.first ?? 0)))
            #expect(try AuthRequest(body: body) == request)
        }
        #expect(requestKinds == Set(AuthRequest.Kind.allCases))
        #expect(throws: ProtocolError.self) { try AuthRequest(body: [AuthProtocol.answerKind, 65][...]) }
        var replyKinds: Set<AuthReply.Kind> = []
        for reply in Self.authReplies {
            let body = try bodies(reply.frame)[0]
            replyKinds.insert(try #require(AuthReply.Kind(rawValue: body.first ?? 0)))
            #expect(try AuthReply(body: body) == reply)
        }
        #expect(replyKinds == Set(AuthReply.Kind.allCases))
    }

    /// A boolean is 0 or 1: a 2 where a verdict's `granted`, a prompt's `echo` or a lent
    /// label's flag belongs is malformed, on every side.
    @Test func booleansAreStrict() throws {
        let time = [UInt8](repeating: 0, count: 8)
        #expect(throws: ProtocolError.self) { try GuardMessage(body: ([11] + time + [2, 0])[...]) }
        #expect(throws: ProtocolError.self) { try GuardMessage(body: ([9] + time + [1, 0, 0, 0, 65, 2])[...]) }
        #expect(throws: ProtocolError.self) { try UIMessage(body: ([11] + [UInt8](repeating: 0, count: 16) + [2])[...]) }
        #expect(throws: ProtocolError.self) { try AuthReply(body: [5, 2, 0, 0, 0, 0][...]) }
        #expect(try GuardMessage(body: ([11] + time + [1, 0])[...]) == .input(.authVerdict(granted: true, message: nil), at: 0))
    }

    /// A control the guard or the UI does not know is malformed, not a button.
    @Test func unknownControlsAreMalformed() throws {
        #expect(throws: ProtocolError.self) { try GuardMessage(body: [GuardMessage.Kind.act.rawValue, UInt8(LockControl.all.count)][...]) }
        #expect(throws: ProtocolError.self) { try UIMessage(body: [UIMessage.Kind.controls.rawValue, 0, 0x80, 0, 0][...]) }
        #expect(try GuardMessage(body: [GuardMessage.Kind.act.rawValue, 0][...]) == .act(.previous))
    }

    @Test func inputMessagesHaveOneFixedSize() {
        let sizes = Set([GateInput.press(x: 1, y: 2), .motion(x: 3, y: 4), .release].map { GuardMessage.input($0, at: 5).frame.count })
        #expect(sizes == [4 + 1 + 8 + 1 + 16])
    }

    /// An answer's frame is a header and then the secret's bytes, written apart: the header
    /// counts the kind and the secret, least significant byte first.
    @Test func aSecretsHeaderFramesTheBytesWrittenAfterIt() throws {
        let header = AuthProtocol.secretHeader(kind: AuthProtocol.answerKind, secretLength: 300)
        #expect(header == [45, 1, 0, 0, AuthProtocol.answerKind])
        let secret = Array("correct horse".utf8)
        let framed = try bodies(AuthProtocol.secretHeader(kind: AuthProtocol.pinKind, secretLength: secret.count) + secret)
        #expect(framed.map(Array.init) == [[AuthProtocol.pinKind] + secret])
    }

    /// A sender appends each frame to what still waits: the bytes before it stay as they were.
    @Test func aFrameAppendedAfterWaitingBytesLeavesThemAlone() throws {
        var waiting = GuardMessage.ping(7).frame
        GuardMessage.input(.motion(x: 3, y: 4), at: 5).appendFrame(to: &waiting)
        UIMessage.pong(9).appendFrame(to: &waiting)
        #expect(waiting == GuardMessage.ping(7).frame + GuardMessage.input(.motion(x: 3, y: 4), at: 5).frame + UIMessage.pong(9).frame)
    }

    /// A long stream read in uneven pieces through one buffer, as a socket delivers it, the
    /// bodies taken as they complete: every message comes out once, in order.
    @Test func aLongStreamThroughOneBufferKeepsEveryMessageInOrder() throws {
        var stream: [UInt8] = []
        let sent = (0..<500).map { GuardMessage.input(.motion(x: Double($0), y: 1), at: Double($0)) }
        for message in sent { message.appendFrame(to: &stream) }
        var buffer = FrameBuffer()
        var received: [GuardMessage] = []
        var offset = 0
        var piece = 1
        while offset < stream.count {
            let end = min(stream.count, offset + piece)
            buffer.append(stream[offset..<end])
            while let body = try buffer.next() { received.append(try GuardMessage(body: body)) }
            offset = end
            piece = piece % 97 + 13
        }
        #expect(received == sent)
    }

    @Test func framesSplitAnywhereArriveWhole() throws {
        let stream = GuardMessage.ping(1).frame + GuardMessage.layout(width: 3, height: 4, wheels: nil).frame
        for cut in 0...stream.count {
            var buffer = FrameBuffer()
            buffer.append(stream[..<cut])
            var found = [ArraySlice<UInt8>]()
            while let body = try buffer.next() { found.append(body) }
            buffer.append(stream[cut...])
            while let body = try buffer.next() { found.append(body) }
            #expect(try found.map { try GuardMessage(body: $0) } == [.ping(1), .layout(width: 3, height: 4, wheels: nil)], "cut at \(cut)")
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
        [6] + [UInt8](repeating: 0, count: 8) + [30] + [UInt8](repeating: 0, count: 16),  // unknown input
        [14] + [UInt8](repeating: 0, count: 8) + [1, 0, 0, 0, 10],  // a scrambled digit of 10
        [14] + [UInt8](repeating: 0, count: 8) + [13, 0, 0, 0] + [UInt8](repeating: 0, count: 13),  // 13 wheels
        [1, 1, 0, 0, 0, 9, 0, 0, 0, 65],  // a string longer than its message
        [1, 1, 0, 0, 0, 1, 0, 0, 0, 0xff],  // not UTF-8
        [18] + [UInt8](repeating: 0, count: 8) + [0, 1],  // a method verdict from pam, which types
        [18] + [UInt8](repeating: 0, count: 8) + [9, 1],  // a method verdict from no method
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

@Suite struct StandInProtocolTests {
    /// The hostile stand-in UI of the end-to-end tests is C and greets with a number of its
    /// own: a stale one makes the guard refuse it before it can misbehave.
    @Test func theHostileStandInSpeaksThisProtocol() throws {
        let path = String(#filePath.dropLast("SlidegateProtocolTests/ProtocolTests.swift".count))
            + "SlidegateEndToEndTests/HostileChildTests.swift"
        guard let f = fopen(path, "r") else { throw ProtocolError("cannot read \(path)") }
        defer { fclose(f) }
        var text = ""
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, 4096, f) != nil { text += String(cString: line) }
        #expect(text.contains("hugeCount(\(GuardProtocol.version)); else hello(\(GuardProtocol.version));"))
    }
}
