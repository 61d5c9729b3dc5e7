import SlidegateCore
import Testing

/// Drags a held wheel from y0 to y1 (digits) over `duration`, in `steps` even moves.
private func drag(_ w: inout Wheel, from y0: Double, to y1: Double, start: Double, duration: Double, steps: Int = 10) {
    w.grab(y: y0, at: start)
    for i in 1...steps {
        let f = Double(i) / Double(steps)
        w.drag(y: y0 + (y1 - y0) * f, at: start + duration * f)
    }
}

@Suite struct WheelPhysicsTests {
    @Test func aDragFollowsThePointerUpToTheNextDigits() {
        var w = Wheel(digit: 3)
        w.grab(y: 5, at: 0)
        w.drag(y: 3.5, at: 0.5)
        #expect(w.position(at: 0.5) == 4.5, "moving the pointer up 1.5 digits turns 1.5 digits on")
        w.drag(y: 7, at: 1)
        #expect(w.position(at: 1) == 1)
    }

    @Test func aFlickLandsExactlyOnTheProjectedDigit() {
        var w = Wheel(digit: 0)
        // 4 digits in 0.2 s: 20 digits a second at release.
        drag(&w, from: 0, to: -4, start: 0, duration: 0.2)
        w.release(at: 0.2)
        let v = w.velocity(at: 0.2)
        #expect(abs(v - 20) < 0.5)
        let projected = 4 + 20 / Wheel.decelerationRate
        guard case .coasting(_, _, let rate, _, let target) = w.motion else {
            Issue.record("a fast release coasts, got \(w.motion)")
            return
        }
        #expect(target == projected.rounded(), "lands on the digit nearest where plain decay would stop")
        #expect(abs(rate - Wheel.decelerationRate) / Wheel.decelerationRate < 0.1, "the refitted rate stays near UIKit's")
        #expect(w.isMoving(at: 1))
        #expect(w.position(at: 1) > 4 && w.position(at: 1) < target)
        #expect(!w.isMoving(at: 10))
        #expect(w.position(at: 10) == target, "comes to rest exactly on a digit")
        #expect(w.digit(at: 0.3) == Wheel.digit(of: target), "the digit it will land on is known as it coasts")
    }

    @Test func aSlowReleaseSettlesOnTheNearestDigit() {
        var w = Wheel(digit: 2)
        drag(&w, from: 0, to: -0.4, start: 0, duration: 2)
        w.release(at: 2)
        guard case .settling(_, _, let target, _, let end) = w.motion else {
            Issue.record("a slow release settles, got \(w.motion)")
            return
        }
        #expect(target == 2)
        #expect(end - 2 < 0.6, "a critically damped spring, done in well under a second")
        // Critically damped: it never overshoots.
        for t in stride(from: 2.0, through: end, by: 0.01) { #expect(w.position(at: t) >= 2 - 1e-9) }
        #expect(w.position(at: end + 0.01) == 2)
        var past = Wheel(digit: 2)
        drag(&past, from: 0, to: -0.6, start: 0, duration: 2)
        past.release(at: 2)
        #expect(past.position(at: 5) == 3, "past the half-way mark it settles on the next digit")
    }

    @Test func aPointerThatStoppedThrowsNothing() {
        var w = Wheel(digit: 0)
        drag(&w, from: 0, to: -3, start: 0, duration: 0.1)
        w.release(at: 0.5)
        #expect(w.position(at: 5) == 3, "held still 0.4 s before letting go: no momentum")
    }

    @Test func wheelsWrapAround() {
        var w = Wheel(digit: 9)
        w.turn(by: 1, at: 0)
        #expect(w.digit(at: 0) == 0 && w.digit(at: 5) == 0)
        w.turn(by: -2, at: 5)
        #expect(w.digit(at: 10) == 8)
        #expect(Wheel.digit(of: -1) == 9 && Wheel.digit(of: -10) == 0 && Wheel.digit(of: 23) == 3)
        var short = Wheel(digit: 9)
        short.set(to: 1, at: 0)
        #expect(short.position(at: 5) == 11, "a digit key turns the short way round: 9 → 0 → 1")
    }

    @Test func aPressCatchesAMovingWheel() {
        var w = Wheel(digit: 0)
        drag(&w, from: 0, to: -4, start: 0, duration: 0.2)
        w.release(at: 0.2)
        let caught = w.position(at: 0.6)
        w.grab(y: 10, at: 0.6)
        #expect(!w.isMoving(at: 0.6) && abs(w.position(at: 0.7) - caught) < 1e-9, "held where it was caught")
        w.release(at: 0.9)
        #expect(w.position(at: 5) == caught.rounded(), "and let go slowly it settles there")
    }

    @Test func scrollAndArrowsTurnADigitAtATime() {
        var wheels = Wheels(count: 4)
        wheels.scroll(1, by: 1, at: 0)
        wheels.scroll(1, by: 1, at: 0.05)
        #expect(wheels.digits(at: 0.05) == [0, 2, 0, 0], "notches add up while it moves")
        #expect(!wheels.isMoving(at: 2))
        #expect(wheels.handle(.down, at: 2) == false)
        #expect(wheels.handle(.up, at: 2.1) == false)
        #expect(wheels.handle(.up, at: 2.2) == false)
        #expect(wheels.digits(at: 3) == [9, 2, 0, 0])
    }

    @Test func digitKeysSetTheFocusedWheelAndMoveRight() {
        var wheels = Wheels(count: 4)
        for (i, d) in [1, 9, 8, 4].enumerated() { _ = wheels.handle(.digit(d), at: Double(i) * 0.1) }
        #expect(wheels.digits(at: 0.4) == [1, 9, 8, 4])
        #expect(wheels.focus == 3, "the focus stays on the last wheel")
        _ = wheels.handle(.left, at: 1)
        _ = wheels.handle(.left, at: 1)
        _ = wheels.handle(.digit(0), at: 1.1)
        #expect(wheels.digits(at: 3) == [1, 0, 8, 4])
        #expect(wheels.handle(.enter, at: 3) == true)
    }

    @Test func aScrambleSpinsEveryWheelOntoNewDigits() {
        var wheels = Wheels(count: 6)
        let digits = [3, 1, 4, 1, 5, 9]
        wheels.scramble(to: digits, at: 0)
        #expect(wheels.isMoving(at: 0.5))
        #expect(wheels.positions(at: 0).allSatisfy { $0 == 0 })
        #expect(wheels.positions(at: 0.3).allSatisfy { $0 > 5 }, "a real spin: several digits go past in the first 0.3 s")
        #expect(!wheels.isMoving(at: 2.5), "over in under 2.5 s")
        #expect(wheels.digits(at: 2.5) == digits)
        #expect(wheels.focus == 0)
    }

    @Test func scrambledDigitsAreRandomAndNeverAllThePrevious() {
        var random = SystemRandomNumberGenerator()
        let previous = [1, 2, 3, 4]
        var seen = Set<[Int]>()
        for _ in 0..<200 {
            let digits = Wheels.scrambleDigits(count: 4, previous: previous, using: &random)
            #expect(digits != previous && digits.count == 4 && digits.allSatisfy { (0...9).contains($0) })
            seen.insert(digits)
        }
        #expect(seen.count > 190, "200 draws of 10 000 PINs barely repeat")
        // A generator that keeps offering the previous digits is asked again until it does not.
        var stuck = Replaying([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 5])
        #expect(Wheels.scrambleDigits(count: 4, previous: previous, using: &stuck) == [1, 2, 3, 5])
    }

    @Test func theRowLaysOutWheelsAndFindsThem() {
        let row = WheelRow(area: Rect(x: 0, y: -200, width: 600, height: 160), count: 4)
        #expect(row.wheelWidth == 80)
        let first = row.wheel(0)
        let last = row.wheel(3)
        #expect(first.x - row.area.x == row.area.maxX - last.maxX || abs((first.x - row.area.x) - (row.area.maxX - last.maxX)) <= 1)
        #expect(row.index(atX: first.midX, y: -120) == 0 && row.index(atX: last.midX, y: -50) == 3)
        #expect(row.index(atX: first.maxX + 1, y: -120) == nil, "the gaps belong to no wheel")
        #expect(row.index(atX: first.midX, y: 10) == nil)
        let narrow = WheelRow(area: Rect(x: 0, y: 0, width: 300, height: 160), count: 12)
        #expect(narrow.wheel(11).maxX <= 300 && narrow.wheel(0).x >= 0, "twelve wheels fit a narrow row")
    }
}

/// Hands out the values of `Int.random(in: 0...9)` given, in order.
private struct Replaying: RandomNumberGenerator {
    var digits: [Int]
    init(_ digits: [Int]) { self.digits = digits }
    mutating func next() -> UInt64 {
        // Int.random(in: 0...9) maps the full 64-bit range onto ten buckets by multiplication.
        let d = digits.removeFirst()
        return UInt64(d) * (UInt64.max / 10) + UInt64.max / 20
    }
}

private let pinLayout = SliderLayout(
    bounds: Rect(x: 0, y: 0, width: 600, height: 80), wheelRow: WheelRow(area: Rect(x: 0, y: -220, width: 600, height: 160), count: 4))

private func pinGate(_ auth: AuthMethods = .pin, command: String? = nil, text: String = "slide") -> Gate {
    var settings = Gate.Settings(text: text, unlockCommand: command, auth: auth, bannersInTrack: false)
    settings.pinLength = 4
    return Gate(settings: settings, layout: pinLayout, start: 0)
}

/// Slides all the way at `t`; returns what the release asked for.
private func slide(_ g: inout Gate, at t: Double) -> GateAction? {
    _ = g.handle(.press(x: 40, y: 40), at: t)
    _ = g.handle(.motion(x: 900, y: 40), at: t + 0.05)
    return g.handle(.release, at: t + 0.1)
}

@Suite struct PinGateTests {
    @Test func aDragOnAWheelTurnsItAndTheSlideAsksForTheCheck() {
        var g = pinGate()
        let row = pinLayout.wheelRow!
        let x = row.wheel(2).midX
        _ = g.handle(.press(x: x, y: -140), at: 0)
        _ = g.handle(.motion(x: x + 30, y: -140 - 3 * row.pitch), at: 1)
        #expect(g.wheels?.held == 2)
        #expect(g.thumbValue(at: 1) == 0, "a drag on the wheels leaves the thumb alone")
        _ = g.handle(.release, at: 1.5)
        #expect(g.wheels?.digits(at: 3) == [0, 0, 3, 0])
        #expect(slide(&g, at: 3) == .checkPin)
        #expect(g.scene(at: 3.2).busy && g.checkingPin)
        _ = g.handle(.press(x: x, y: -140), at: 3.3)
        #expect(g.wheels?.held == nil, "the wheels take no input while the PIN is checked")
        #expect(g.handle(.pinVerdict(granted: true, message: nil), at: 3.4) == .exit(.completed))
    }

    @Test func onlyTheHelpersVerdictEndsAPinCheck() {
        var g = pinGate()
        #expect(slide(&g, at: 0) == .checkPin)
        #expect(g.handle(.unlockCommandFinished(succeeded: true), at: 0.2) == nil, "no unlock command was asked for")
        #expect(g.exitStatus == nil && g.checkingPin)
        #expect(g.handle(.pinVerdict(granted: true, message: nil), at: 0.3) == .exit(.completed))
    }

    @Test func aWrongPinScramblesSpringsBackAndSaysSo() {
        var g = pinGate()
        #expect(slide(&g, at: 0) == .checkPin)
        #expect(g.handle(.pinVerdict(granted: false, message: nil), at: 0.3) == .scrambleWheels)
        #expect(g.scene(at: 1).banner?.text == "wrong PIN")
        #expect(g.thumbValue(at: 1) == 0, "the thumb sprang back")
        #expect(!g.checkingPin && !g.verification.isVerifying)
        _ = g.handle(.scramble([5, 6, 7, 8]), at: 0.3)
        #expect(g.wheels?.digits(at: 0.3) == [5, 6, 7, 8] && g.wheels?.isMoving(at: 0.5) == true)
        #expect(g.nextDeadline(after: 0.5) == 0.5 + 1.0 / 60, "frames while the wheels spin")
    }

    @Test func theWheelsCostNothingWhenStill() {
        var g = pinGate(text: "")
        #expect(g.wheels?.isMoving(at: 0) == false)
        #expect(!g.animates(at: 0) && g.nextDeadline(after: 0) == nil, "no label, wheels still: no frames, no wake-up")
        _ = g.handle(.scroll(x: pinLayout.wheelRow!.wheel(1).midX, y: -140, down: true), at: 1)
        #expect(g.animates(at: 1.1))
        #expect(!g.animates(at: 2) && g.nextDeadline(after: 2) == nil, "settled: quiet again")
    }

    @Test func theFifthFailureBlocksTheWheelsAndTheSliderForAMinute() {
        #expect((1...11).map { AttemptLimiter.delay(afterFailures: $0, schedule: .pin) } == [1, 1, 1, 1, 60, 300, 900, 900, 3600, 3600, 3600])
        var g = pinGate()
        var t = 0.0
        for _ in 0..<5 {
            #expect(slide(&g, at: t) == .checkPin)
            _ = g.handle(.pinVerdict(granted: false, message: nil), at: t + 0.2)
            t += 2
        }
        let blockedAt = t - 2 + 0.2
        #expect(g.pinLimiter.blockedUntil == blockedAt + 60)
        #expect(g.scene(at: t + 1).banner?.text.hasPrefix("try again in") == true, "a countdown says how long")
        #expect(g.scene(at: t).wheels?.enabled == false)
        #expect(slide(&g, at: t + 10) == nil, "the slider takes no input")
        _ = g.handle(.press(x: pinLayout.wheelRow!.wheel(0).midX, y: -140), at: t + 10)
        #expect(g.wheels?.held == nil, "nor do the wheels")
        #expect(g.nextDeadline(after: t + 30)! <= blockedAt + 60, "the wheels light up again when it ends")
        #expect(slide(&g, at: blockedAt + 60) == .checkPin, "and then it goes on")
    }

    @Test func digitKeysAndEnterConfirm() {
        var g = pinGate()
        for (i, d) in [4, 3, 2, 1].enumerated() { _ = g.handle(.wheelKey(.digit(d)), at: Double(i) * 0.1) }
        #expect(g.wheels?.digits(at: 0.5) == [4, 3, 2, 1])
        #expect(g.scene(at: 0.5).wheels?.focus == 3)
        #expect(g.handle(.wheelKey(.enter), at: 0.6) == .checkPin)
        #expect(g.thumbValue(at: 0.6) == 1, "Enter completes the slide")
    }

    @Test func withPinAndPamKeysTypeThePasswordEvenDuringAPinDelay() {
        var g = pinGate(AuthMethods([.pin, .pam]))
        #expect(g.handle(.wheelKey(.digit(3)), at: 0) == nil && g.wheels?.digits(at: 0) == [0, 0, 0, 0], "the keyboard belongs to the password")
        var t = 0.0
        for _ in 0..<5 {
            _ = slide(&g, at: t)
            _ = g.handle(.pinVerdict(granted: false, message: nil), at: t + 0.2)
            t += 2
        }
        #expect(g.pinLimiter.isBlocked(at: t))
        #expect(g.scene(at: t).wheels?.focus == nil, "no keyboard focus on the wheels")
        #expect(g.handle(.key(.character), at: t) == .secret(.append), "a key opens the password stage")
        #expect(g.entry.isOpen)
        _ = g.handle(.authPrompt(PasswordEntry.Prompt(text: "Password:", echo: false)), at: t + 0.1)
        _ = g.handle(.key(.enter), at: t + 0.2)
        #expect(g.handle(.authVerdict(granted: true, message: nil), at: t + 0.3) == .exit(.completed))
        #expect(g.pinLimiter.failures == 0, "a good password resets the PIN count")
    }
}
