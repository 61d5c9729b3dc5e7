import SlidegateCore
import Testing

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
