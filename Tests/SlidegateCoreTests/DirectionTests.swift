import SlidegateCore
import Testing

@Suite struct DirectionTests {
    @Test(arguments: [
        ("اسحب لفتح القفل", true), ("החלק לביטול", true), ("123 — שלום", true), ("🔓 اسحب", true),
        ("slide to unlock", false), ("OK שלום", false), ("スライドでロック解除", false), ("", false), ("…", false),
    ])
    func autoFollowsTheFirstLetter(_ text: String, _ rightToLeft: Bool) {
        #expect(Direction.auto.isRightToLeft(for: text) == rightToLeft)
        #expect(Direction.rtl.isRightToLeft(for: text) && !Direction.ltr.isRightToLeft(for: text))
    }

    @Test func theLayoutMirrors() {
        let ltr = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))
        let rtl = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80), rightToLeft: true)
        #expect(rtl.thumb(at: 0).x == ltr.thumb(at: 1).x && rtl.thumb(at: 1).x == ltr.thumb(at: 0).x)
        #expect(rtl.labelArea.x == 12 && rtl.labelArea.maxX == rtl.restX - rtl.padding, "the label left of the resting thumb")
        #expect(rtl.areaBeforeEnd.x == rtl.endX + rtl.thumbSide + rtl.padding && rtl.areaBeforeEnd.maxX == 588)
        #expect(rtl.position(forPointerX: rtl.restX) == 0 && rtl.position(forPointerX: rtl.endX) == 1)
        #expect(rtl.position(forPointerX: rtl.restX + 100) < 0, "rightwards is backwards")
    }

    @Test func aRightToLeftSlideCompletesAndALeftToRightDragDoesNothing() {
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80), rightToLeft: true)
        var settings = Gate.Settings(text: "החלק")
        settings.rightToLeft = true
        var g = Gate(settings: settings, layout: layout, start: 0)
        _ = g.handle(.press(x: 40, y: 40), at: 0)
        #expect(!g.isDragging, "the left end has no thumb")
        _ = g.handle(.press(x: 560, y: 40), at: 0.1)
        _ = g.handle(.motion(x: 900, y: 40), at: 0.2)
        #expect(g.thumbValue(at: 0.2) == 0, "dragged the wrong way, the thumb stays at rest")
        _ = g.handle(.motion(x: -300, y: 40), at: 0.3)
        #expect(g.handle(.release, at: 0.4) == .exit(.completed))
    }

    @Test func theShimmerSweepsTheWayTheThumbGoes() {
        var settings = Gate.Settings(text: "החלק")
        settings.rightToLeft = true
        let g = Gate(settings: settings, layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80), rightToLeft: true), start: 0)
        let ltr = Gate(settings: Gate.Settings(text: "slide"), layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80)), start: 0)
        guard case .shimmer(let early?) = g.scene(at: 0.1).label?.emphasis, case .shimmer(let late?) = g.scene(at: 0.9).label?.emphasis,
            case .shimmer(let ltrEarly?) = ltr.scene(at: 0.1).label?.emphasis
        else {
            Issue.record("the shimmer runs")
            return
        }
        #expect(early > late && abs(early - (1 - ltrEarly)) < 1e-9)
    }
}
