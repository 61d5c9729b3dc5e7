import SlidegateCore
import Testing

@Suite struct MotionPacerTests {
    /// At 60 fps: a frame interval of 1/60 s.
    static let frame = 1.0 / 60

    @Test func theNewestMotionOfAFrameIntervalGoesAtItsEnd() {
        var pacer = MotionPacer(fps: 60)
        pacer.moved(x: 10, y: 1, at: 1.000)
        #expect(pacer.isDue(at: 1.000), "the first motion goes at once")
        #expect(pacer.take(button: nil, at: 1.000) == .at(x: 10, y: 1, time: 1.000))
        pacer.sent(at: 1.000, byButton: false)
        pacer.moved(x: 11, y: 1, at: 1.004)
        pacer.moved(x: 12, y: 1, at: 1.008)
        #expect(!pacer.isDue(at: 1.010), "the interval is not over")
        #expect(pacer.due == 1.000 + Self.frame)
        #expect(pacer.isDue(at: 1.000 + Self.frame))
        #expect(pacer.take(button: nil, at: 1.017) == .at(x: 12, y: 1, time: 1.008), "the newest, with its own time")
        pacer.sent(at: 1.017, byButton: false)
        #expect(pacer.pending == nil && !pacer.hints, "3 events a frame is slow")
    }

    /// More than 400 events a second turns the grab to hints; the place is then asked at the
    /// next frame interval, and a whole interval without motion turns them off again.
    @Test func aFastPointerTurnsToHintsAndBackWhenItRests() {
        var pacer = MotionPacer(fps: 60)
        pacer.moved(x: 0, y: 0, at: 0)
        pacer.sent(at: 0, byButton: false)
        for i in 1...10 { pacer.moved(x: Double(i), y: 0, at: Double(i) * 0.0016) }
        pacer.sent(at: Self.frame, byButton: false)
        #expect(pacer.hints, "10 events in 1/60 s is 600 a second")
        #expect(pacer.pending == .hint, "the server takes its last event for the first hint: ask")
        #expect(pacer.take(button: nil, at: 2 * Self.frame) == .askPointer)
        pacer.sent(at: 2 * Self.frame, byButton: false)
        #expect(pacer.hints, "no events while hints: nothing to count, still hints")
        pacer.rest(at: 2.5 * Self.frame)
        #expect(pacer.hints, "less than an interval without motion")
        pacer.rest(at: 3 * Self.frame)
        #expect(!pacer.hints, "a whole interval without motion")
    }

    @Test func aButtonBringsItsOwnPlaceForAHintAndItsReleaseEndsHints() {
        var pacer = MotionPacer(fps: 60)
        pacer.moved(x: 0, y: 0, at: 0)
        pacer.sent(at: 0, byButton: false)
        for i in 1...10 { pacer.moved(x: Double(i), y: 0, at: Double(i) * 0.001) }
        pacer.sent(at: 0.011, byButton: false)
        #expect(pacer.hints)
        pacer.hinted()
        #expect(pacer.take(button: (300, 40), at: 0.02) == .at(x: 300, y: 40, time: 0.02), "where the button went")
        pacer.sent(at: 0.02, byButton: true)
        #expect(pacer.pending == nil)
        pacer.released()
        #expect(!pacer.hints)
    }

    /// A press's own motion never turns hints on, however many events came before it.
    @Test func motionHandedOnByAButtonCountsNoRate() {
        var pacer = MotionPacer(fps: 60)
        for i in 0..<50 { pacer.moved(x: Double(i), y: 0, at: 0.0001 * Double(i)) }
        pacer.sent(at: 0.005, byButton: true)
        #expect(!pacer.hints && pacer.pending == nil)
    }

    @Test func cancelDropsWhatWaits() {
        var pacer = MotionPacer(fps: 240)
        pacer.moved(x: 5, y: 5, at: 1)
        pacer.cancel()
        #expect(pacer.take(button: nil, at: 2) == nil)
        #expect(!pacer.isDue(at: 2))
    }
}
