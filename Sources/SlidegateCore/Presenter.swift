/// Builds the `Scene` a renderer paints from the gate's parts, and says when that scene
/// next changes by itself: the frames of the shimmer sweep and of a spring-back, at an
/// even `1/fps` pace, and none while nothing moves.
package struct Presenter: Equatable, Sendable {
    package var text: String
    /// The words it shows (translated, or English).
    package var strings: Strings
    package var shimmer = Shimmer()
    package var fps: Int
    /// Windowed mode: a banner's text replaces the label (or the prompt) in the track.
    package var bannersInTrack: Bool

    /// `--reduce-motion`: the label stays bright (no shimmer), the field does not shake,
    /// banners appear and go at once.
    package var reduceMotion: Bool

    /// The shimmer sweeps right to left, the way the thumb goes.
    package var rightToLeft: Bool

    package init(
        text: String, fps: Int, bannersInTrack: Bool = true, reduceMotion: Bool = false, rightToLeft: Bool = false,
        strings: Strings = Strings()
    ) {
        self.strings = strings
        self.reduceMotion = reduceMotion
        self.rightToLeft = rightToLeft
        self.text = text
        self.fps = fps
        self.bannersInTrack = bannersInTrack
    }

    /// The label's alpha for a thumb value: fully gone once the thumb is 65 % of the way.
    package static func labelAlpha(forValue value: Double) -> Double {
        max(0, 1 - value / 0.65)
    }

    /// The scene for settled parts at `now`, with the thumb at `value`.
    package func scene(
        slide: Slide.Phase, value: Double, verification: Verification.State, entry: PasswordEntry = PasswordEntry(),
        banners: BannerQueue = BannerQueue(), at now: Double
    ) -> Scene {
        let visible = banners.visible(at: now)
        var scene = sliderScene(slide: slide, value: value, verification: verification, at: now)
        if entry.isOpen {
            scene.label = nil
            scene.thumbValue = 1
            scene.busy = entry.checking || verification == .verifying
            scene.field = Scene.Field(
                prompt: entry.prompt?.text ?? "", count: entry.count, shake: reduceMotion ? 0 : entry.shakeOffset(at: now))
            if bannersInTrack { scene.field?.notice = visible?.banner.text(at: now) }
        } else if bannersInTrack, let visible, verification == .idle || verification.isRefusal {
            scene.label = Scene.Label(
                text: visible.banner.text(at: now), placement: .afterThumb, emphasis: .solid,
                alpha: Self.labelAlpha(forValue: value))
        }
        if !bannersInTrack, let visible {
            let shown = reduceMotion ? (visible.shown > 0 ? 1 : 0) : visible.shown
            scene.banner = Scene.BannerView(kind: visible.banner.kind, text: visible.banner.text(at: now), shown: shown)
        }
        return scene
    }

    private func sliderScene(slide: Slide.Phase, value: Double, verification: Verification.State, at now: Double) -> Scene {
        let alpha = Self.labelAlpha(forValue: value)
        switch verification {
        case .verifying, .granted:
            return Scene(
                thumbValue: value,
                label: Scene.Label(text: strings[.busy], placement: .beforeEnd, emphasis: .solid, alpha: 1),
                busy: true)
        case .refused:
            return Scene(
                thumbValue: value,
                label: Scene.Label(text: strings[.refusal], placement: .afterThumb, emphasis: .solid, alpha: alpha),
                busy: false)
        case .idle:
            guard !text.isEmpty else { return Scene(thumbValue: value, label: nil, busy: false) }
            var band: Double?
            if case .resting(let since) = slide {
                band = shimmer.bandCentre(elapsed: now - since).map { rightToLeft ? 1 - $0 : $0 }
            }
            return Scene(
                thumbValue: value,
                label: Scene.Label(
                    text: text, placement: .afterThumb, emphasis: reduceMotion ? .solid : .shimmer(band: band), alpha: alpha),
                busy: false)
        }
    }

    /// The shimmer sweep under way at `now`: when its band entered the text and when it has
    /// left, so the sweep's frames can be made and handed over together; nil between sweeps
    /// and while anything else shows.
    package func sweep(
        slide: Slide.Phase, verification: Verification.State, entry: PasswordEntry = PasswordEntry(), at now: Double
    ) -> (start: Double, end: Double)? {
        guard case .resting(let since) = slide, verification == .idle, !entry.isOpen, !text.isEmpty, !reduceMotion,
            shimmer.bandCentre(elapsed: now - since) != nil
        else { return nil }
        let start = since + ((now - since) / shimmer.period).rounded(.down) * shimmer.period
        return (start, start + shimmer.sweep)
    }

    /// When the scene next changes without input, or nil when it will not.
    package func nextFrame(
        slide: Slide.Phase, verification: Verification.State, entry: PasswordEntry = PasswordEntry(), after now: Double
    ) -> Double? {
        let frame = 1 / Double(fps)
        if let start = entry.shakeStart, now < start + PasswordEntry.shakeDuration, !reduceMotion {
            return min(now + frame, start + PasswordEntry.shakeDuration)
        }
        if entry.isOpen { return nil }
        func nextFrame(from origin: Double) -> Double {
            origin + ((now - origin) / frame + 1e-9).rounded(.down) * frame + frame
        }
        switch (slide, verification) {
        case (.springing(_, let start), _):
            return min(nextFrame(from: start), start + Slide.springDuration)
        case (.resting(let since), .idle) where !text.isEmpty && !reduceMotion:
            guard let sweep = sweep(slide: slide, verification: verification, entry: entry, at: now) else {
                return since + shimmer.nextSweepStart(after: now - since)
            }
            return min(nextFrame(from: since), sweep.end)
        default:
            return nil
        }
    }
}
