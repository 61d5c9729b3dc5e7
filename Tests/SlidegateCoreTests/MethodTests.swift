import SlidegateCore
import Testing

private let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))
private let pinLayout = SliderLayout(
    bounds: Rect(x: 0, y: 0, width: 600, height: 80), wheelRow: WheelRow(area: Rect(x: 0, y: -220, width: 600, height: 160), count: 4))

private func gate(_ methods: [AuthMethod], command: String? = nil, grace: Double? = nil, holdsMatches: Bool = true) -> Gate {
    var settings = Gate.Settings(text: "slide to unlock", unlockCommand: command, auth: AuthMethods(methods), bannersInTrack: false)
    settings.graceUntil = grace
    settings.holdsMatches = holdsMatches
    if methods.contains(.pin) { settings.pinLength = 4 }
    return Gate(settings: settings, layout: methods.contains(.pin) ? pinLayout : layout, start: 0)
}

/// Drags the thumb to the end and lets go at `t`; what the release decided.
@discardableResult
private func slide(_ g: inout Gate, at t: Double) -> GateAction? {
    _ = g.handle(.press(x: 40, y: 40), at: t)
    _ = g.handle(.motion(x: 900, y: 40), at: t + 0.05)
    return g.handle(.release, at: t + 0.1)
}

private func bannerText(_ g: Gate, at t: Double) -> String? {
    g.banners.visible(at: t)?.banner.text
}

@Suite struct MethodsInParallelTests {
    @Test func aFingerprintOpensTheGateWhileAPasswordIsHalfTyped() {
        var g = gate([.pam, .fingerprint])
        #expect(slide(&g, at: 0) == nil)
        #expect(g.entry.isOpen)
        #expect(g.handle(.key(.character), at: 1) == .secret(.append))
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 2) == .exit(.completed))
    }

    @Test func aMatchBeforeTheSlideHoldsTenSecondsAndTheSlideAloneThenOpens() {
        var g = gate([.pam, .fingerprint])
        _ = g.handle(.authMessage(.info, "Place your finger on the reader"), at: 0.5)
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 1) == nil, "not before the slide")
        #expect(g.heldMatch == Gate.HeldMatch(method: .fingerprint, until: 11))
        #expect(bannerText(g, at: 1 + 2 * BannerQueue.slideDuration) == "fingerprint recognised — slide to unlock", "PAM's text gives way")
        #expect(g.nextActionDeadline == 11, "the host wakes to start the reader again")
        #expect(slide(&g, at: 5) == .exit(.completed), "no password asked")
    }

    @Test func aLockTakenForSleepHoldsNoMatchButTakesOneAfterTheSlide() {
        var g = gate([.pam, .fingerprint], holdsMatches: false)
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 1) == nil)
        #expect(g.heldMatch == nil, "a match made before the machine slept must not open it after")
        #expect(bannerText(g, at: 2) == nil, "nothing says recognised")
        #expect(!g.opensBySlide(at: 2))
        #expect(slide(&g, at: 3) == nil)
        #expect(g.entry.isOpen, "the password is asked")
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 4) == .exit(.completed), "a match after the slide opens")
    }

    @Test func aHeldMatchIsForgottenAfterTenSeconds() {
        var g = gate([.pam, .key])
        _ = g.handle(.methodVerdict(.key, granted: true), at: 1)
        #expect(bannerText(g, at: 2) == "security key recognised — slide to unlock")
        #expect(g.advance(to: 11) == nil)
        #expect(g.heldMatch == nil)
        #expect(bannerText(g, at: 12) == nil)
        #expect(slide(&g, at: 12) == nil)
        #expect(g.entry.isOpen, "the password is asked again")
    }

    @Test func withOnlyAFingerprintTheThumbWaitsAtTheEnd() {
        var g = gate([.fingerprint])
        #expect(slide(&g, at: 0) == nil)
        #expect(g.awaitingSince == 0.1)
        #expect(g.thumbValue(at: 1) == 1)
        #expect(bannerText(g, at: 0.5) == "place your finger on the reader")
        #expect(g.handle(.methodVerdict(.fingerprint, granted: false), at: 2) == nil, "a no-match keeps it waiting")
        #expect(g.awaitingSince == 0.1)
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 3) == .exit(.completed))
    }

    @Test func theWaitingThumbSpringsBackAfterTheIdleLimit() {
        var g = gate([.fingerprint, .key])
        slide(&g, at: 0)
        #expect(bannerText(g, at: 0.5) == "place your finger on the reader · touch your security key")
        #expect(g.nextActionDeadline == 0.1 + PasswordEntry.idleLimit)
        #expect(g.advance(to: 0.1 + PasswordEntry.idleLimit) == nil)
        #expect(g.awaitingSince == nil)
        #expect(g.thumbValue(at: 0.2 + PasswordEntry.idleLimit + Slide.springDuration) == 0)
        #expect(g.handle(.methodVerdict(.key, granted: true), at: 40) == nil, "before the next slide: held")
        #expect(g.heldMatch?.method == .key)
    }

    @Test func refusalsAreCountedApartFromPasswords() {
        var g = gate([.pam, .fingerprint])
        for t in 1...5 { _ = g.handle(.methodVerdict(.fingerprint, granted: false), at: Double(t) * 10) }
        #expect(g.methodLimiter.failures == 5)
        #expect(g.methodLimiter.isBlocked(at: 50.5))
        #expect(g.limiter.failures == 0 && !g.limiter.isBlocked(at: 50.5), "the password is not held back")
        _ = g.handle(.methodVerdict(.fingerprint, granted: true), at: 60)
        #expect(g.methodLimiter.failures == 0)
    }

    @Test func onlyTheMethodsGivenCount() {
        var g = gate([.pam, .fingerprint])
        slide(&g, at: 0)
        #expect(g.handle(.methodVerdict(.key, granted: true), at: 1) == nil)
        #expect(g.handle(.methodVerdict(.pam, granted: true), at: 1) == nil, "pam answers through the password stage only")
        #expect(g.exitStatus == nil && g.heldMatch == nil)
    }

    @Test func theUnlockCommandRunsOnceWhicheverMethodsSayYes() {
        var g = gate([.pam, .fingerprint], command: "true")
        slide(&g, at: 0)
        _ = g.handle(.authPrompt(PasswordEntry.Prompt(text: "Password:", echo: false)), at: 0.5)
        _ = g.handle(.key(.character), at: 1)
        #expect(g.handle(.key(.enter), at: 1.1) == .secret(.submit))
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 2) == .runUnlockCommand("true"))
        #expect(g.handle(.authVerdict(granted: true, message: nil), at: 2.5) == nil, "PAM's late yes runs nothing more")
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 2.6) == nil)
        #expect(g.handle(.unlockCommandFinished(succeeded: true), at: 3) == .exit(.completed))
    }

    @Test func aFingerprintDuringAPinCheckOpensAndTheLatePinVerdictIsIgnored() {
        var g = gate([.pin, .fingerprint])
        #expect(slide(&g, at: 0) == .checkPin)
        #expect(g.handle(.methodVerdict(.fingerprint, granted: true), at: 0.5) == .exit(.completed))
        var h = gate([.pin, .fingerprint], command: "true")
        slide(&h, at: 0)
        #expect(h.handle(.methodVerdict(.fingerprint, granted: true), at: 0.5) == .runUnlockCommand("true"))
        #expect(h.handle(.pinVerdict(granted: true, message: nil), at: 0.6) == nil)
    }

    @Test func keysTurnTheWheelsBesideAFingerprintAndEnterUsesAHeldMatch() {
        var g = gate([.pin, .fingerprint])
        #expect(g.settings.auth.keysTurnWheels)
        _ = g.handle(.methodVerdict(.fingerprint, granted: true), at: 1)
        #expect(g.handle(.wheelKey(.enter), at: 2) == .exit(.completed))
        var h = gate([.pin, .pam, .fingerprint])
        #expect(!h.settings.auth.keysTurnWheels, "with a password, keys type it")
        #expect(h.handle(.wheelKey(.enter), at: 2) == nil)
    }
}

@Suite struct GraceTests {
    @Test func inTheGraceTheSlideAloneOpens() {
        var g = gate([.pam], grace: 5)
        #expect(g.opensBySlide(at: 4.9))
        #expect(slide(&g, at: 2) == .exit(.completed))
    }

    @Test func afterTheGraceTheMethodsAreAsked() {
        var g = gate([.pin], grace: 5)
        #expect(!g.opensBySlide(at: 5))
        #expect(slide(&g, at: 6) == .checkPin)
    }

    @Test func theLabelCountsTheGraceDownOnceASecond() {
        let g = gate([.pam], grace: 5)
        #expect(g.scene(at: 0.5).label?.text == "slide to unlock · 5")
        #expect(g.scene(at: 2.1).label?.text == "slide to unlock · 3")
        #expect(g.scene(at: 5).label?.text == "slide to unlock")
        #expect(g.nextChangeBesidesTheSlider(after: 0.5) == 1)
        #expect(g.nextChangeBesidesTheSlider(after: 4.5) == 5)
        #expect(g.nextChangeBesidesTheSlider(after: 5) == nil, "no wake-ups once it is over")
    }

    @Test func theGraceWithAnUnlockCommandRunsIt() {
        var g = gate([.fingerprint], command: "true", grace: 5)
        #expect(slide(&g, at: 1) == .runUnlockCommand("true"))
    }
}

@Suite struct KeyboardLayoutTests {
    @Test func theFieldCarriesTheLayoutAndNothingElseDoes() {
        var g = gate([.pam])
        _ = g.handle(.keyboardLayout("de"), at: 0)
        #expect(g.scene(at: 0.5).field == nil && g.scene(at: 0.5).label?.text == "slide to unlock", "the slider shows no badge")
        slide(&g, at: 1)
        #expect(g.scene(at: 1.5).field?.layout == "de")
        _ = g.handle(.keyboardLayout(nil), at: 2)
        #expect(g.scene(at: 2.5).field?.layout == nil)
    }
}

@Suite struct FailedAttemptsTests {
    private func counting(_ methods: [AuthMethod], shown: Bool = true) -> Gate {
        var settings = Gate.Settings(text: "slide to unlock", auth: AuthMethods(methods), bannersInTrack: false)
        settings.showFailedAttempts = shown
        if methods.contains(.pin) { settings.pinLength = 4 }
        return Gate(settings: settings, layout: methods.contains(.pin) ? pinLayout : layout, start: 0)
    }

    private func refusePassword(_ g: inout Gate, at t: Double) {
        _ = g.handle(.key(.character), at: t)
        _ = g.handle(.key(.enter), at: t + 0.1)
        _ = g.handle(.authVerdict(granted: false, message: nil), at: t + 0.2)
    }

    @Test func thePasswordStageCountsRefusedPasswords() {
        var g = counting([.pam])
        slide(&g, at: 0)
        #expect(g.scene(at: 0.5).field?.failedAttempts == nil, "nothing failed yet: no badge")
        refusePassword(&g, at: 1)
        refusePassword(&g, at: 3)
        #expect(g.scene(at: 4).field?.failedAttempts == 2)
        #expect(g.advance(to: 3.3 + g.settings.idleLimit) == nil)
        #expect(!g.entry.isOpen)
        #expect(g.scene(at: 40).label?.text == "slide to unlock · \(Gate.failedMark)2", "the closed stage leaves the count on the track")
    }

    @Test func theWheelsCountRefusedPinsAndTheTrackShowsThem() {
        var g = counting([.pin])
        #expect(slide(&g, at: 0) == .checkPin)
        _ = g.handle(.pinVerdict(granted: false, message: nil), at: 0.3)
        #expect(g.scene(at: 3).label?.text == "slide to unlock · \(Gate.failedMark)1")
        #expect(g.scene(at: 3).field == nil)
    }

    @Test func withoutTheOptionNothingIsCounted() {
        var g = counting([.pam], shown: false)
        slide(&g, at: 0)
        refusePassword(&g, at: 1)
        #expect(g.scene(at: 2).field?.failedAttempts == nil)
        #expect(g.failedAttemptsShown == nil)
    }

    @Test func aFingerprintsNoMatchIsNotATypedFailure() {
        var g = counting([.pam, .fingerprint])
        _ = g.handle(.methodVerdict(.fingerprint, granted: false), at: 1)
        #expect(g.failedAttemptsShown == nil, "a finger brushing the reader is not an attempt on the lock")
    }
}
