import SlidegateCore
import Testing

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
