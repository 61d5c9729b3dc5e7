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

@Suite struct VerificationTests {
    @Test func aRefusalShowsForItsTimeThenIsIdle() {
        var v = Verification()
        v.begin()
        #expect(v.isVerifying)
        v.finish(granted: false, at: 10)
        #expect(v.state == .refused(until: 10 + Verification.refusalDuration))
        #expect(v.settled(at: 12.4) == .refused(until: 12.5))
        #expect(v.settled(at: 12.5) == .idle)
    }

    @Test func onlyARunningCheckCanFinish() {
        var v = Verification()
        v.finish(granted: true, at: 1)
        #expect(v.state == .idle)
        v.begin()
        v.finish(granted: true, at: 1)
        #expect(v.state == .granted)
    }

    @Test func aNewAttemptDismissesTheRefusal() {
        var v = Verification()
        v.begin()
        v.finish(granted: false, at: 0)
        v.dismissRefusal()
        #expect(v.state == .idle)
    }
}

@Suite struct PresenterTests {
    let presenter = Presenter(text: "slide to unlock", fps: 60)

    @Test func verifyingShowsBusyAtTheEnd() {
        let scene = presenter.scene(slide: .atEnd, value: 1, verification: .verifying, at: 0)
        #expect(scene.busy)
        #expect(scene.label == Scene.Label(text: "unlocking…", placement: .beforeEnd, emphasis: .solid, alpha: 1))
        #expect(presenter.nextFrame(slide: .atEnd, verification: .verifying, after: 0) == nil, "nothing moves")
    }

    @Test func aRefusalReplacesTheLabelAndStopsTheShimmer() {
        let scene = presenter.scene(slide: .resting(since: 0), value: 0, verification: .refused(until: 5), at: 1)
        #expect(scene.label?.text == "unlock failed")
        #expect(scene.label?.emphasis == .solid)
        #expect(presenter.nextFrame(slide: .resting(since: 0), verification: .refused(until: 5), after: 1) == nil)
    }

    @Test func aDraggedThumbNeedsNoFrames() {
        #expect(presenter.nextFrame(slide: .dragging(grabOffset: 0, value: 0.3), verification: .idle, after: 1) == nil)
    }
}

@Suite struct GateRelayoutTests {
    private let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))

    @Test func aRelayoutCancelsADragInProgress() {
        var g = Gate(settings: Gate.Settings(text: "slide"), layout: layout, start: 0)
        _ = g.handle(.press(x: 40, y: 40), at: 1)
        _ = g.handle(.motion(x: 400, y: 40), at: 1.1)
        let moved = SliderLayout(bounds: Rect(x: 0, y: 0, width: 480, height: 64))
        g.relayout(moved, at: 1.2)
        #expect(!g.isDragging)
        _ = g.handle(.motion(x: 2000, y: 40), at: 1.25)
        #expect(g.handle(.release, at: 1.3) == nil, "the slider moved under the pointer: no completion")
        #expect(g.thumbValue(at: 2) == 0)
    }

    @Test func theSameLayoutAgainKeepsTheDrag() {
        var g = Gate(settings: Gate.Settings(text: "slide"), layout: layout, start: 0)
        _ = g.handle(.press(x: 40, y: 40), at: 1)
        g.relayout(layout, at: 1.1)
        #expect(g.isDragging)
    }
}

@Suite struct RevealTests {
    @Test func anEdgeSlidesAwayFromItsSide() {
        #expect(Reveal.left.remaining(opened: 0.25, width: 1000, height: 500) == [Rect(x: 250, y: 0, width: 750, height: 500)])
        #expect(Reveal.right.remaining(opened: 0.25, width: 1000, height: 500) == [Rect(x: 0, y: 0, width: 750, height: 500)])
        #expect(Reveal.top.remaining(opened: 0.5, width: 1000, height: 500) == [Rect(x: 0, y: 250, width: 1000, height: 250)])
        #expect(Reveal.bottom.remaining(opened: 0.5, width: 1000, height: 500) == [Rect(x: 0, y: 0, width: 1000, height: 250)])
    }

    @Test func theCentreHoleKeepsTheScreensProportions() {
        let rects = Reveal.center.remaining(opened: 0.5, width: 1000, height: 500)
        #expect(rects == [
            Rect(x: 0, y: 0, width: 1000, height: 125), Rect(x: 0, y: 375, width: 1000, height: 125),
            Rect(x: 0, y: 125, width: 250, height: 250), Rect(x: 750, y: 125, width: 250, height: 250),
        ])
    }

    @Test func closedIsWholeAndOpenIsNothing() {
        for how in Reveal.allCases where how != .none {
            #expect(how.remaining(opened: 0, width: 640, height: 480) .reduce(0) { $0 + $1.width * $1.height } == 640 * 480, "\(how)")
            #expect(how.remaining(opened: 1, width: 640, height: 480).isEmpty, "\(how)")
        }
    }

    @Test func itEasesOutOver350Milliseconds() {
        #expect(Reveal.opened(after: 0) == 0)
        #expect(Reveal.opened(after: Reveal.duration / 2) > 0.5, "fast first")
        #expect(Reveal.opened(after: Reveal.duration) == 1)
    }
}

@Suite struct EarliestTests {
    @Test func keepsTheEarliestOfTheTimesGivenAndSkipsAbsentOnes() {
        var earliest = Earliest()
        #expect(earliest.time == nil)
        earliest.consider(nil)
        #expect(earliest.time == nil)
        earliest.consider(3)
        earliest.consider(nil)
        earliest.consider(5)
        #expect(earliest.time == 3)
        earliest.consider(-1)
        #expect(earliest.time == -1)
    }
}

@Suite struct RectTests {
    let thumb = Rect(x: 100, y: 0, width: 60, height: 60)

    @Test func aRectangleApartFromTheOtherIsKeptWhole() {
        let label = Rect(x: 200, y: 20, width: 80, height: 20)
        #expect(label.outside(columnsOf: thumb) == [label])
    }

    @Test func theColumnsTheOtherCoversAreLeftOut() {
        let rightOfIt = Rect(x: 150, y: 20, width: 80, height: 20)
        #expect(rightOfIt.outside(columnsOf: thumb) == [Rect(x: 160, y: 20, width: 70, height: 20)])
        let acrossIt = Rect(x: 40, y: 20, width: 200, height: 20)
        #expect(
            acrossIt.outside(columnsOf: thumb)
                == [Rect(x: 40, y: 20, width: 60, height: 20), Rect(x: 160, y: 20, width: 80, height: 20)])
        #expect(Rect(x: 110, y: 20, width: 20, height: 20).outside(columnsOf: thumb) == [])
    }

    @Test func anOverlapOnSomeRowsOnlyIsNoPair() {
        #expect(Rect(x: 150, y: 40, width: 80, height: 40).outside(columnsOf: thumb) == nil)
    }
}
