import SlidegateCore
import Testing

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
