import SlidegateCore
import SlidegateProtocol

extension FuzzTarget {
    /// A gate with the methods and settings the first bytes choose, then a sequence of inputs, each after a
    /// step of time, answered as a guard answers its actions (the helper's verdicts, the
    /// wheels' digits, the unlock command's end: as the bytes say). After every step:
    /// - the gate completes only where it may: a slide released at its end (no `--auth`, or
    ///   in `--grace`, or with a match held), a granted verdict of a method `--auth` names,
    ///   or an unlock command that succeeded once one ran;
    /// - the end of a running unlock command is never lost: the gate stops waiting for it;
    /// - the thumb's value is a number from 0 to 1;
    /// - at most `BannerQueue.maximumWaiting` banners wait, and the state fits a frame.
    static func gate(_ bytes: [UInt8]) throws(FuzzFailure) {
        var reader = FuzzBytes(bytes)
        let first = reader.u8()
        let auth = AuthMethods(rawValue: first & 15) ?? .none
        let flags = reader.u8()
        let pinLength = auth.usesPin ? 4 + Int(reader.u8() % 9) : 0
        var settings = Gate.Settings(
            text: "slide to unlock", unlockCommand: flags & 4 != 0 ? "true" : nil, timeout: flags & 8 != 0 ? 30 : nil,
            fps: 60, auth: auth, bannersInTrack: flags & 16 != 0)
        settings.pinLength = pinLength
        settings.countdown = flags & 32 != 0 && settings.timeout != nil
        settings.reduceMotion = flags & 64 != 0
        settings.rightToLeft = flags & 128 != 0
        if flags & 1 != 0 && auth != .none { settings.graceUntil = 5 }
        if flags & 2 != 0 { settings.idleLimit = 1 }
        settings.showFailedAttempts = first & 16 != 0
        let bounds = Rect(x: 0, y: 0, width: 600, height: 80)
        let layout = SliderLayout(
            bounds: bounds, wheelRow: pinLength == 0 ? nil : WheelRow(area: Rect(x: 0, y: -200, width: 600, height: 190), count: pinLength),
            rightToLeft: settings.rightToLeft)
        var gate = Gate(settings: settings, layout: layout, start: 0)
        var now = 0.0
        var commandRunning = false
        var steps = 0
        while !reader.isEmpty && gate.exitStatus == nil && steps < 4096 {
            steps += 1
            now += Double(reader.u16()) / 1000
            let input = nextInput(&reader, pinLength: pinLength)
            let slideOpens = gate.opensBySlide(at: now)
            var action = input.map { gate.handle($0, at: now) } ?? gate.advance(to: now)
            // What the guard does with an action, as far as it feeds the gate again.
            var cause = input
            var answers = 0
            while true {
                let ran = commandRunning
                if case .unlockCommandFinished? = cause, ran {
                    commandRunning = false
                    guard gate.exitStatus != nil || !gate.verification.isVerifying else {
                        throw FuzzFailure("the unlock command's end was lost")
                    }
                }
                guard let done = action, answers < 8 else { break }
                answers += 1
                try checkCompletion(done, after: cause, auth: auth, commandRunning: ran, slideOpens: slideOpens)
                let reply: GateInput?
                switch done {
                case .exit: reply = nil
                case .runUnlockCommand:
                    commandRunning = true
                    reply = reader.u8() & 1 == 0 ? .unlockCommandFinished(succeeded: reader.u8() & 1 == 0) : nil
                case .secret: reply = nil
                case .checkPin: reply = reader.u8() & 1 == 0 ? .pinVerdict(granted: reader.u8() & 3 == 0, message: nil) : nil
                case .scrambleWheels: reply = .scramble((0..<pinLength).map { _ in Int(reader.u8() % 10) })
                }
                cause = reply
                action = reply.flatMap { gate.handle($0, at: now) }
            }
            try checkState(gate, at: now)
        }
    }

    /// An input from the bytes, or nil for time passing alone.
    private static func nextInput(_ reader: inout FuzzBytes, pinLength: Int) -> GateInput? {
        switch reader.u8() % 22 {
        case 0: return nil
        case 1: return .press(x: reader.coordinate(), y: reader.coordinate())
        case 2, 3, 4: return .motion(x: reader.coordinate(), y: reader.coordinate())
        case 5: return .release
        case 6:
            let keys: [EntryKey] = [.character, .backspace, .clear, .escape, .enter]
            return .key(keys[Int(reader.u8()) % keys.count])
        case 7: return .capsLock(reader.u8() & 1 == 0)
        case 8: return .authPrompt(PasswordEntry.Prompt(text: reader.text(limit: 600), echo: reader.u8() & 1 == 0))
        case 9:
            let kinds: [Banner.Kind] = [.info, .warning, .error]
            return .authMessage(kinds[Int(reader.u8()) % 3], reader.text(limit: 2000))
        case 10: return .authVerdict(granted: reader.u8() & 7 == 0, message: reader.u8() & 1 == 0 ? nil : reader.text(limit: 2000))
        case 11: return .bannerClicked
        case 12: return .scroll(x: reader.coordinate(), y: reader.coordinate(), down: reader.u8() & 1 == 0)
        case 13:
            let keys: [WheelKey] = [.left, .right, .up, .down, .enter]
            let pick = Int(reader.u8()) % 15
            return .wheelKey(pick < 10 ? .digit(pick) : keys[pick - 10])
        case 14: return .pinVerdict(granted: reader.u8() & 7 == 0, message: nil)
        case 15: return .scramble((0..<pinLength).map { _ in Int(reader.u8() % 10) })
        case 16: return .unlockCommandFinished(succeeded: reader.u8() & 1 == 0)
        case 17: return .signal(15)
        case 18: return .closeRequested
        case 20: return .keyboardLayout(reader.u8() & 1 == 0 ? nil : reader.text(limit: 64))
        case 19: return .methodVerdict(AuthMethod.allCases[Int(reader.u8()) % AuthMethod.allCases.count], granted: reader.u8() & 1 == 0)
        default: return .authMessage(.error, String(repeating: "€", count: Int(reader.u16())))
        }
    }

    /// The gate completes only on what may complete it.
    private static func checkCompletion(
        _ action: GateAction, after cause: GateInput?, auth: AuthMethods, commandRunning: Bool, slideOpens: Bool
    ) throws(FuzzFailure) {
        let completes: Bool
        switch action {
        case .exit(.completed), .runUnlockCommand: completes = true
        default: completes = false
        }
        guard completes else { return }
        switch cause {
        case .unlockCommandFinished(succeeded: true)? where commandRunning:
            guard case .exit(.completed) = action else { throw FuzzFailure("an unlock command's end ran another") }
        case .release? where auth == .none || slideOpens: return
        case .wheelKey? where slideOpens: return
        case .methodVerdict(let method, granted: true)? where method.isPassive && auth.contains(method): return
        case .authVerdict(granted: true, _)? where auth.usesPassword: return
        case .pinVerdict(granted: true, _)? where auth.usesPin: return
        default: throw FuzzFailure("\(action) after \(cause.map { "\($0)" } ?? "time alone") with --auth \(auth.spelled)")
        }
    }

    private static func checkState(_ gate: Gate, at now: Double) throws(FuzzFailure) {
        let value = gate.thumbValue(at: now)
        guard value >= 0 && value <= 1 else { throw FuzzFailure("the thumb's value is \(value)") }
        _ = gate.scene(at: now)
        _ = gate.nextDeadline(after: now)
        guard gate.banners.waiting.count <= BannerQueue.maximumWaiting else {
            throw FuzzFailure("\(gate.banners.waiting.count) banners wait")
        }
        guard !GuardMessage.state(gate.snapshot).frame.isEmpty else { throw FuzzFailure("the gate's state does not fit a frame") }
    }
}
