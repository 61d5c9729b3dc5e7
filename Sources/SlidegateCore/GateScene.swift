/// What the gate shows at a moment: the slider's scene, the countdowns.
extension Gate {
    /// The thumb's value at `now`: 0 at the start, 1 at the end.
    package func thumbValue(at now: Double) -> Double {
        settled(at: now).slide.value(at: now)
    }

    package func scene(at now: Double) -> Scene {
        let (slide, verification) = settled(at: now)
        var scene = presenter.scene(
            slide: slide.phase, value: slide.value(at: now), verification: verification.state, entry: entry,
            banners: banners, at: now)
        scene.field?.layout = keyboardLayout
        if let failed = failedAttemptsShown {
            if scene.field != nil {
                scene.field?.failedAttempts = failed
            } else if var label = scene.label, label.placement == .afterThumb {
                label.text = "\(label.text) · \(Self.failedMark)\(failed)"
                scene.label = label
            }
        }
        if let left = settings.countdown ? secondsLeft(at: now) : graceLeft(at: now), scene.field == nil {
            if var label = scene.label, label.placement == .afterThumb {
                label.text = "\(label.text) · \(left)"
                scene.label = label
            } else if scene.label == nil {
                // No label (--text ""): the seconds alone.
                scene.label = Scene.Label(
                    text: "\(left)", placement: .afterThumb, emphasis: .solid, alpha: Presenter.labelAlpha(forValue: scene.thumbValue))
            }
        }
        if let wheels {
            scene.wheels = Scene.WheelsView(
                positions: wheels.positions(at: now), focus: settings.auth.keysTurnWheels ? wheels.focus : nil,
                enabled: !pinLimiter.isBlocked(at: now))
        }
        return scene
    }

    /// `--show-failed-attempts`: the passwords and PINs refused so far, when there were any.
    package var failedAttemptsShown: Int? {
        let failed = limiter.failures + pinLimiter.failures
        return settings.showFailedAttempts && failed > 0 ? failed : nil
    }

    /// What goes before the count of failed attempts on the track: a cross.
    package static let failedMark = "\u{2715}\u{2009}"

    /// The slider as every lock first shows it: the thumb at rest, the label dim between
    /// two sweeps, nothing else in the track (no countdown, banner, prompt or verdict).
    package var restingScene: Scene {
        presenter.scene(slide: .resting(since: 0), value: 0, verification: .idle, at: presenter.shimmer.sweep)
    }

    /// `--countdown`: the whole seconds left until the timeout, counted up (2.1 s left shows 3).
    package func secondsLeft(at now: Double) -> Int? {
        deadline.map { Int(saturating: max(0, ($0 - now).rounded(.up))) }
    }

    /// `--grace`: the whole seconds of grace left, counted up, while it lasts.
    package func graceLeft(at now: Double) -> Int? {
        guard let end = settings.graceUntil, now < end else { return nil }
        return Int(saturating: (end - now).rounded(.up))
    }
}
