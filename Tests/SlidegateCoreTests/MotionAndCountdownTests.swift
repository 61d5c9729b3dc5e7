import SlidegateCore
import Testing

private let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))

private func gate(_ configure: (inout Gate.Settings) -> Void) -> Gate {
    var settings = Gate.Settings(text: "slide to cancel", timeout: 5)
    configure(&settings)
    return Gate(settings: settings, layout: layout, start: 0)
}

@Suite struct CountdownTests {
    @Test func theWholeSecondsLeftShowBesideTheLabel() {
        let g = gate { $0.countdown = true }
        #expect(g.scene(at: 0).label?.text == "slide to cancel · 5")
        #expect(g.scene(at: 0.01).label?.text == "slide to cancel · 5", "4.99 s left shows 5")
        #expect(g.scene(at: 1).label?.text == "slide to cancel · 4")
        #expect(g.scene(at: 4.5).label?.text == "slide to cancel · 1")
        let plain = gate { _ in }
        #expect(plain.scene(at: 1).label?.text == "slide to cancel")
    }

    @Test func itWakesOncePerSecondAndNotBetween() {
        var settings = Gate.Settings(text: "", timeout: 3)
        settings.countdown = true
        let g = Gate(settings: settings, layout: layout, start: 10)
        #expect(g.scene(at: 10.2).label?.text == "3", "with no label, the seconds alone")
        #expect(g.nextDeadline(after: 10.2) == 11)
        #expect(g.nextDeadline(after: 11) == 12)
        #expect(g.nextDeadline(after: 12.5) == 13, "the last second ends with the timeout")
    }

    @Test func anotherProcessCountsToTheSameDeadline() {
        let g = gate {
            $0.countdown = true
            $0.deadline = 100
        }
        #expect(g.deadline == 100 && g.scene(at: 97.5).label?.text == "slide to cancel · 3")
    }
}

@Suite struct ReduceMotionTests {
    @Test func theLabelStaysBrightAndNothingAnimatesAtRest() {
        let g = gate { $0.reduceMotion = true }
        #expect(g.scene(at: 0.5).label?.emphasis == .solid)
        #expect(!g.animates(at: 0.5), "no shimmer frames")
        #expect(g.nextDeadline(after: 0.5) == 5, "only the timeout")
    }

    @Test func aReleasedThumbIsBackAtOnce() {
        var g = gate { $0.reduceMotion = true }
        _ = g.handle(.press(x: 40, y: 40), at: 1)
        _ = g.handle(.motion(x: 300, y: 40), at: 1.1)
        #expect(g.thumbValue(at: 1.1) > 0.4)
        _ = g.handle(.release, at: 1.2)
        #expect(g.thumbValue(at: 1.2) == 0 && !g.animates(at: 1.2))
    }

    @Test func wheelsStopWhereTheyWereHeaded() {
        var settings = Gate.Settings(text: "", auth: .pin)
        settings.pinLength = 4
        settings.reduceMotion = true
        var g = Gate(
            settings: settings,
            layout: SliderLayout(
                bounds: Rect(x: 0, y: 0, width: 600, height: 80),
                wheelRow: WheelRow(area: Rect(x: 0, y: -220, width: 600, height: 160), count: 4)),
            start: 0)
        _ = g.handle(.scramble([1, 2, 3, 4]), at: 0)
        #expect(g.wheels?.positions(at: 0).map(Wheel.digit(of:)) == [1, 2, 3, 4] && g.wheels?.isMoving(at: 0) == false)
        let row = g.layout.wheelRow!
        _ = g.handle(.press(x: row.wheel(0).midX, y: -140), at: 1)
        _ = g.handle(.motion(x: row.wheel(0).midX, y: -140 - 3 * row.pitch), at: 1.05)
        _ = g.handle(.release, at: 1.06)
        #expect(g.wheels?.isMoving(at: 1.06) == false, "a flick does not coast")
        #expect(g.wheels?.digits(at: 1.06).first == Wheel.digit(of: (g.wheels?.positions(at: 1.06).first)!))
    }
}
