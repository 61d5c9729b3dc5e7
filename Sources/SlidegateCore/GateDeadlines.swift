/// When the gate next changes by itself, so that its host sleeps until then and no longer.
extension Gate {
    /// `--countdown` (or else `--grace`): when the seconds shown next change.
    private func countdownTick(after now: Double) -> Double? {
        if settings.countdown {
            guard let deadline, let left = secondsLeft(at: now), left > 0 else { return nil }
            return deadline - Double(left - 1)
        }
        guard let end = settings.graceUntil, let left = graceLeft(at: now) else { return nil }
        return end - Double(left - 1)
    }

    /// When the wheels next need a frame (while any turns by itself), or a PIN delay ends.
    private func wheelsChange(after now: Double) -> Double? {
        guard let wheels else { return nil }
        if wheels.isMoving(at: now) { return now + 1 / Double(settings.fps) }
        return pinLimiter.blockedUntil.flatMap { $0 > now ? $0 : nil }
    }

    /// Whether the scene changes by itself after `now` (the shimmer, a spring-back).
    package func animates(at now: Double) -> Bool {
        let (slide, verification) = settled(at: now)
        return presenter.nextFrame(slide: slide.phase, verification: verification.state, entry: entry, after: now) != nil
            || banners.nextChange(after: now, fps: settings.fps) != nil || wheels?.isMoving(at: now) == true
            || countdownTick(after: now) != nil
    }

    /// When the gate next has to act without input (the timeout), or nil: what a process
    /// that only decides, and draws nothing, waits for.
    package var nextActionDeadline: Double? {
        exitStatus != nil
            ? nil
            : [verification.isVerifying ? nil : deadline, idleDeadline, heldMatch?.until, awaitingSince.map { $0 + settings.idleLimit }]
                .compactMap { $0 }.min()
    }

    /// The moment the password stage closes by itself for want of keys, while it is open and
    /// waits for nothing (neither PAM nor the unlock command).
    package var idleDeadline: Double? {
        entry.isOpen && !entry.checking && !verification.isVerifying ? entry.lastActivity + settings.idleLimit : nil
    }

    /// When the scene next changes or the gate next has to act without any input, or nil
    /// when nothing will happen until input arrives.
    package func nextDeadline(after now: Double) -> Double? {
        guard exitStatus == nil else { return nil }
        let (slide, verification) = settled(at: now)
        var next = Earliest()
        next.consider(presenter.nextFrame(slide: slide.phase, verification: verification.state, entry: entry, after: now))
        next.consider(nextChange(after: now, verification: verification))
        return next.time
    }

    /// The shimmer sweep under way at `now` (see `Presenter.sweep`).
    package func shimmerSweep(at now: Double) -> (start: Double, end: Double)? {
        guard exitStatus == nil else { return nil }
        let (slide, verification) = settled(at: now)
        return presenter.sweep(slide: slide.phase, verification: verification.state, entry: entry, at: now)
    }

    /// Like `nextDeadline`, leaving out the slider's own frames (the shimmer, a spring-back,
    /// the field's shake): when a banner, the wheels, the countdown, a refusal or a time limit
    /// next changes the scene or makes the gate act.
    package func nextChangeBesidesTheSlider(after now: Double) -> Double? {
        guard exitStatus == nil else { return nil }
        return nextChange(after: now, verification: settled(at: now).verification)
    }

    private func nextChange(after now: Double, verification: Verification) -> Double? {
        var next = Earliest()
        next.consider(banners.nextChange(after: now, fps: settings.fps))
        next.consider(idleDeadline)
        next.consider(heldMatch?.until)
        next.consider(awaitingSince.map { $0 + settings.idleLimit })
        next.consider(wheelsChange(after: now))
        next.consider(countdownTick(after: now))
        if !verification.isVerifying { next.consider(deadline) }
        if case .refused(let until) = verification.state { next.consider(until) }
        return next.time
    }
}
