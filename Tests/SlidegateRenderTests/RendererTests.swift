import CGraphics
import SlidegateCore
import SlidegateRender
import Testing

@Suite struct RendererGoldenTests {
    func label(_ text: String, band: Double? = nil, alpha: Double = 1) -> Scene.Label {
        Scene.Label(text: text, placement: .afterThumb, emphasis: .shimmer(band: band), alpha: alpha)
    }

    @Test func thumbAtStartMiddleAndEnd() throws {
        let renderer = try GoldenImage.renderer()
        for value in [0.0, 0.5, 1.0] {
            let scene = Scene(
                thumbValue: value, label: label("slide to unlock", alpha: Gate.labelAlpha(forValue: value)), busy: false)
            try GoldenImage.check("thumb-\(Int(value * 100))", scene, with: renderer)
        }
    }

    @Test func shimmerPhases() throws {
        let renderer = try GoldenImage.renderer()
        let shimmer = Shimmer()
        for elapsed in [0.0, 0.25, 0.5, 0.9, 1.5] {
            let scene = Scene(thumbValue: 0, label: label("slide to unlock", band: shimmer.bandCentre(elapsed: elapsed)), busy: false)
            try GoldenImage.check("shimmer-\(Int(elapsed * 100))", scene, with: renderer)
        }
    }

    @Test func japaneseAndArabicLabels() throws {
        let renderer = try GoldenImage.renderer()
        try GoldenImage.check("japanese", Scene(thumbValue: 0, label: label("スライドでロック解除", band: 0.5), busy: false), with: renderer)
        try GoldenImage.check("arabic", Scene(thumbValue: 0, label: label("اسحب لفتح القفل", band: 0.5), busy: false), with: renderer)
    }

    @Test func busyAndFailureMessages() throws {
        let renderer = try GoldenImage.renderer()
        let busy = Scene.Label(text: "unlocking…", placement: .beforeEnd, emphasis: .solid, alpha: 1)
        try GoldenImage.check("busy", Scene(thumbValue: 1, label: busy, busy: true), with: renderer)
    }
}
