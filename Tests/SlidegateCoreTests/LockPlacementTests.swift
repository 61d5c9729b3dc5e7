import SlidegateCore
import Testing

private let screen = Rect(x: 0, y: 0, width: 1280, height: 720)
private let full = LockPlacement.Monitor(rect: screen, primary: false)

@Suite struct LockPlacementTests {
    @Test func theSliderGoesOnThePrimaryMonitor() {
        let left = LockPlacement.Monitor(rect: Rect(x: 0, y: 0, width: 1920, height: 1080), primary: false)
        let right = LockPlacement.Monitor(rect: Rect(x: 1920, y: 0, width: 1280, height: 720), primary: true)
        #expect(LockPlacement.sliderMonitor([left, right], screen: screen, scale: 1) == right.rect)
        #expect(LockPlacement.sliderMonitor([right, left].map { .init(rect: $0.rect, primary: false) }, screen: screen, scale: 1) == right.rect)
    }

    /// `xrandr --setmonitor '*x' 9/2x9/2+0+0 none`: any client can add a tiny primary
    /// monitor, which once laid the slider out 3 pixels tall and trapped the guard.
    @Test(arguments: [1.0, 9.0, 0.0])
    func aMonitorTooSmallForASliderGivesWayToTheLargest(side: Double) {
        let tiny = LockPlacement.Monitor(rect: Rect(x: 0, y: 0, width: side, height: side), primary: true)
        #expect(LockPlacement.sliderMonitor([tiny, full], screen: screen, scale: 1) == screen)
        let placed = LockPlacement.layout(monitors: [tiny, full], screen: screen, slider: nil, scale: 1, parts: .init(clock: true))
        #expect(placed.slider == Rect(x: 451, y: 535, width: 378, height: 54))
    }

    @Test func whenEveryMonitorIsTinyTheSliderIsStillUsable() {
        let tiny = LockPlacement.Monitor(rect: Rect(x: 0, y: 0, width: 9, height: 9), primary: true)
        for scale in [0.5, 1, 2, 4] {
            let slider = LockPlacement.layout(monitors: [tiny], screen: screen, slider: nil, scale: scale, parts: .init()).slider
            #expect(slider.height >= (24 * scale).rounded())
            #expect(slider.width >= 2 * slider.height)
            #expect(SliderLayout(bounds: Rect(x: 0, y: 0, width: slider.width, height: slider.height)).thumbSide > 0)
        }
    }

    @Test func noMonitorAtAllMeansTheScreen() {
        #expect(LockPlacement.sliderMonitor([], screen: screen, scale: 1) == screen)
    }

    @Test func conversionsToXIntegersNeverTrap() {
        #expect(Int32(xCoordinate: -1e300) == -32768)
        #expect(Int32(xCoordinate: .nan) == 0)
        #expect(Int32(xCoordinate: 12.7) == 12)
        #expect(UInt32(xExtent: -1) == 1)
        #expect(UInt32(xExtent: .infinity) == 32767)
        #expect(UInt32(xExtent: 20.2) == 21)
        #expect(Int(pixels: .nan) == 0)
        #expect(Int(pixels: 1e12) == 32767)
    }

    /// `--status-command`'s strip is under the clock, in its window; alone, the window is
    /// that strip, just above the slider.
    @Test func theStatusLineIsAStripUnderTheClock() {
        let slider = Rect(x: 451, y: 535, width: 378, height: 54)
        let clock = LockPlacement.layout(monitors: [full], screen: screen, slider: nil, scale: 1, parts: .init(clock: true)).clock
        #expect(clock == Rect(x: 430, y: 389, width: 420, height: 119))
        #expect(LockPlacement.statusLineHeight(forSlider: slider.height) == 24)
        let both = LockPlacement.layout(monitors: [full], screen: screen, slider: nil, scale: 1, parts: .init(clock: true, status: true)).clock
        #expect(both == Rect(x: 430, y: 365, width: 420, height: 143), "as low as the clock alone, 24 pixels taller")
        let alone = LockPlacement.layout(monitors: [full], screen: screen, slider: nil, scale: 1, parts: .init(status: true)).clock
        #expect(alone == Rect(x: 430, y: 484, width: 420, height: 24))
        #expect(LockPlacement.layout(monitors: [full], screen: screen, slider: nil, scale: 1, parts: .init()).clock == .zero)
        let user = LockPlacement.layout(monitors: [full], screen: screen, slider: nil, scale: 1, parts: .init(clock: true, user: true)).clock
        #expect(user == Rect(x: 430, y: 286, width: 420, height: 222), "the user's 103 pixels on top of the clock")
    }
}
