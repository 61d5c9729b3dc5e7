import SlidegateCore
import Testing

@Suite struct SlideTests {
    @Test func dragIsInValueUnitsAndClamped() {
        var slide = Slide(start: 0)
        #expect(slide.canGrab(at: 0))
        slide.grab(at: 0.1, now: 0)
        slide.move(to: 0.6)
        #expect(slide.value(at: 0.1) == 0.5)
        slide.move(to: -4)
        #expect(slide.value(at: 0.1) == 0)
        slide.move(to: 9)
        #expect(slide.value(at: 0.1) == 1)
        let completed = slide.release(at: 0.2)
        #expect(completed)
        #expect(slide.phase == .atEnd)
        #expect(!slide.canGrab(at: 0.3), "held at the end while the completion is checked")
    }

    @Test func shortReleaseSpringsBackAndRests() {
        var slide = Slide(start: 0)
        slide.grab(at: 0, now: 1)
        slide.move(to: 0.4)
        let completed = slide.release(at: 2)
        #expect(!completed)
        #expect(slide.phase == .springing(from: 0.4, start: 2))
        #expect(slide.settled(at: 2 + Slide.springDuration) == .resting(since: 2 + Slide.springDuration))
        #expect(slide.value(at: 3) == 0)
    }

    @Test func cancelSendsAHeldThumbBackFromWhereItIs() {
        var slide = Slide(start: 0)
        slide.grab(at: 0, now: 0)
        slide.move(to: 0.7)
        slide.cancel(at: 1)
        #expect(slide.phase == .springing(from: 0.7, start: 1))
        var atRest = Slide(start: 0)
        atRest.cancel(at: 1)
        #expect(atRest.phase == .resting(since: 1))
    }
}
