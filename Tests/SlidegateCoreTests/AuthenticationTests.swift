import SlidegateCore
import Testing

private let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))
private let prompt = PasswordEntry.Prompt(text: "Password:", echo: false)

private func pamGate(command: String? = nil, bannersInTrack: Bool = true) -> Gate {
    Gate(settings: Gate.Settings(text: "slide", unlockCommand: command, auth: .pam, bannersInTrack: bannersInTrack), layout: layout, start: 0)
}

/// Slides to the end at `t` (the stage opens) and lets PAM ask.
private func slideAndAsk(_ g: inout Gate, at t: Double = 0) {
    _ = g.handle(.press(x: 40, y: 40), at: t)
    _ = g.handle(.motion(x: 900, y: 40), at: t + 0.05)
    #expect(g.handle(.release, at: t + 0.1) == nil, "a completed slide opens the stage, it does not unlock")
    #expect(g.entry.isOpen)
    _ = g.handle(.authPrompt(prompt), at: t + 0.11)
}

@Suite struct PasswordStageTests {
    @Test func typingEditsTheSecretAndEnterSubmits() {
        var g = pamGate()
        slideAndAsk(&g)
        #expect(g.handle(.key(.character), at: 1) == .secret(.append))
        #expect(g.handle(.key(.character), at: 1.1) == .secret(.append))
        #expect(g.handle(.key(.backspace), at: 1.2) == .secret(.deleteLast))
        #expect(g.entry.count == 1)
        let scene = g.scene(at: 1.3)
        #expect(scene.field == Scene.Field(prompt: "Password:", count: 1))
        #expect(scene.thumbValue == 1 && scene.label == nil)
        #expect(g.handle(.key(.enter), at: 1.4) == .secret(.submit))
        #expect(g.scene(at: 1.5).busy, "busy while PAM checks")
        #expect(g.handle(.key(.character), at: 1.6) == nil, "no typing while PAM checks")
        #expect(g.handle(.authVerdict(granted: true, message: nil), at: 2) == .exit(.completed))
    }

    /// CVE-2014-7300: a flood of keys grew the field without end. Past the longest
    /// password a key is dropped, in the guard's gate and the UI's mirror alike.
    @Test func theFieldTakesNoMoreThanTheLongestPassword() {
        var g = pamGate()
        slideAndAsk(&g)
        for i in 0..<PasswordEntry.maximumCount { _ = g.handle(.key(.character), at: 1 + Double(i) / 10_000) }
        #expect(g.entry.count == PasswordEntry.maximumCount)
        #expect(g.handle(.key(.character), at: 2) == nil, "dropped")
        #expect(g.entry.count == PasswordEntry.maximumCount)
        #expect(g.handle(.key(.backspace), at: 2.1) == .secret(.deleteLast))
        #expect(g.handle(.key(.character), at: 2.2) == .secret(.append), "room for one again")
    }

    @Test func aGrantedAnswerRunsTheUnlockCommandFirst() {
        var g = pamGate(command: "true")
        slideAndAsk(&g)
        _ = g.handle(.key(.character), at: 1)
        _ = g.handle(.key(.enter), at: 1.1)
        #expect(g.handle(.authVerdict(granted: true, message: nil), at: 2) == .runUnlockCommand("true"))
        #expect(g.handle(.unlockCommandFinished(succeeded: true), at: 3) == .exit(.completed))
    }

    @Test func typingWhileTheSliderRestsOpensTheStageWithThatCharacter() {
        var g = pamGate()
        #expect(g.handle(.key(.character), at: 1) == .secret(.append))
        #expect(g.entry.isOpen && g.entry.count == 1)
        #expect(g.thumbValue(at: 1) == 1)
        var h = pamGate()
        #expect(h.handle(.key(.backspace), at: 1) == nil, "only a character opens it")
        #expect(!h.entry.isOpen)
    }

    @Test func escapeClearsThenReturnsToTheSlider() {
        var g = pamGate()
        slideAndAsk(&g)
        _ = g.handle(.key(.character), at: 1)
        #expect(g.handle(.key(.escape), at: 1.1) == .secret(.clear))
        #expect(g.entry.isOpen && g.entry.count == 0)
        #expect(g.handle(.key(.escape), at: 1.2) == .secret(.clear))
        #expect(!g.entry.isOpen)
        #expect(g.thumbValue(at: 1.2 + Slide.springDuration) == 0, "the thumb springs back")
    }

    @Test func ctrlUClearsTheField() {
        var g = pamGate()
        slideAndAsk(&g)
        _ = g.handle(.key(.character), at: 1)
        #expect(g.handle(.key(.clear), at: 1.1) == .secret(.clear))
        #expect(g.entry.count == 0 && g.entry.isOpen)
    }

    @Test func thirtySecondsWithoutAKeyWipeAndReturn() {
        var g = pamGate()
        slideAndAsk(&g)
        _ = g.handle(.key(.character), at: 5)
        #expect(g.nextActionDeadline == 35)
        #expect(g.advance(to: 34.9) == nil)
        #expect(g.advance(to: 35) == nil, "the host wipes the secret when it sees the stage close")
        #expect(!g.entry.isOpen)
    }

    @Test func aKeyAfterTheIdleLimitDoesNotOpenTheStageInTheSameBreath() {
        var g = pamGate()
        slideAndAsk(&g)
        _ = g.handle(.key(.character), at: 5)
        #expect(g.handle(.key(.character), at: 35.5) == nil)
        #expect(!g.entry.isOpen, "a host that saw the stage open throughout would keep the old secret")
        #expect(g.handle(.key(.character), at: 36) == .secret(.append), "the next key opens it")
    }

    @Test func theUnlockCommandsEndIsHeardWhenItComesAfterTheIdleLimit() {
        var g = pamGate(command: "false")
        slideAndAsk(&g)
        // A stack that grants without an answer (pam_permit, a fingerprint).
        #expect(g.handle(.authVerdict(granted: true, message: nil), at: 2) == .runUnlockCommand("false"))
        #expect(g.nextActionDeadline == nil, "the stage waits for the command, not for keys")
        #expect(g.handle(.unlockCommandFinished(succeeded: false), at: 41) == nil)
        #expect(!g.verification.isVerifying && !g.entry.isOpen, "the refusal counts: the gate waits for nothing")
    }

    @Test func aRefusalShakesClearsAndSaysWhy() {
        var g = pamGate()
        slideAndAsk(&g)
        _ = g.handle(.key(.character), at: 1)
        _ = g.handle(.key(.enter), at: 1.1)
        #expect(g.handle(.authVerdict(granted: false, message: nil), at: 2) == nil)
        #expect(g.entry.isOpen && g.entry.count == 0 && g.entry.prompt == nil)
        #expect(g.scene(at: 2.1).field?.shake != 0, "the field shakes")
        #expect(g.scene(at: 2 + PasswordEntry.shakeDuration).field?.shake == 0)
        #expect(g.scene(at: 2.1).field?.notice == "wrong password")
        #expect(g.handle(.key(.character), at: 2.5) == nil, "input is ignored for a second")
        _ = g.handle(.authPrompt(prompt), at: 2.6)
        #expect(g.handle(.key(.character), at: 3) == .secret(.append))
    }

    @Test func pamsReasonIsShownWhenItGivesOne() {
        var g = pamGate()
        slideAndAsk(&g)
        _ = g.handle(.key(.enter), at: 1)
        _ = g.handle(.authVerdict(granted: false, message: "Account locked, 298 seconds left"), at: 2)
        #expect(g.scene(at: 2.5).field?.notice == "Account locked, 298 seconds left")
    }

    @Test func capsLockShowsWhileTheStageIsOpen() {
        var g = pamGate()
        _ = g.handle(.capsLock(true), at: 0.5)
        #expect(g.scene(at: 0.6).label?.text == "slide", "not on the slider")
        slideAndAsk(&g, at: 1)
        #expect(g.scene(at: 1.5).field?.notice == "Caps Lock is on", "from the moment the stage opens")
        _ = g.handle(.capsLock(false), at: 2)
        #expect(g.scene(at: 2.5).field?.notice == nil)
    }

    @Test func aMessageFromPAMIsABanner() {
        var g = pamGate(bannersInTrack: false)
        slideAndAsk(&g)
        _ = g.handle(.authMessage(.info, "Last login: today"), at: 1)
        let banner = g.scene(at: 1 + BannerQueue.slideDuration).banner
        #expect(banner == Scene.BannerView(kind: .info, text: "Last login: today", shown: 1))
        #expect(g.scene(at: 1.1).banner!.shown < 1, "it slides in")
        #expect(g.scene(at: 1 + BannerQueue.slideDuration * 2 + 3).banner == nil, "and out after 3 s")
    }
}

@Suite struct AttemptLimiterTests {
    @Test func delaysGrowFromTheFourthFailure() {
        #expect((1...10).map { AttemptLimiter.delay(afterFailures: $0) } == [1, 1, 1, 2, 4, 8, 16, 32, 60, 60])
    }

    @Test func aFailureBlocksUntilItsDelayEnds() {
        var limiter = AttemptLimiter()
        for t in [0.0, 2, 4] { limiter.failed(at: t) }
        #expect(limiter.isBlocked(at: 4.9) && !limiter.isBlocked(at: 5))
        limiter.failed(at: 10)
        #expect(limiter.isBlocked(at: 11.9) && !limiter.isBlocked(at: 12))
        limiter.succeeded()
        #expect(limiter.failures == 0 && !limiter.isBlocked(at: 12))
    }

    @Test func theFourthFailureShowsACountdown() {
        var g = pamGate(bannersInTrack: false)
        var t = 0.0
        for _ in 0..<4 {
            if !g.entry.isOpen { slideAndAsk(&g, at: t) }
            _ = g.handle(.authPrompt(prompt), at: t + 0.2)
            _ = g.handle(.key(.enter), at: t + 0.3)
            _ = g.handle(.authVerdict(granted: false, message: nil), at: t + 0.4)
            t += 10
        }
        // After the 4th failure (at 30.4) the next attempt waits 2 s; the error banner shows
        // first (4 s), then the countdown, which is already over: so check the limiter.
        #expect(g.limiter.failures == 4)
        #expect(g.limiter.blockedUntil == 32.4)
        #expect(g.banners.waiting.contains { $0.countdownUntil == 32.4 } || g.banners.showing?.banner.countdownUntil == 32.4)
    }
}

@Suite struct BannerQueueTests {
    @Test func oneAtATimeMostImportantFirst() {
        var q = BannerQueue()
        q.post(Banner(.info, "a"), at: 0)
        q.post(Banner(.info, "b"), at: 0.1)
        q.post(Banner(.info, "c"), at: 0.2)
        #expect(q.visible(at: 1)?.banner.text == "a")
        // a: in at 0.25, leaves at 3.25, gone at 3.5; then b, then c.
        #expect(q.visible(at: 3.6)?.banner.text == "b")
        q.post(Banner(.warning, "d"), at: 3.7)
        // b: in at 3.75, read for a second, leaves at 4.75, gone at 5; then d, not c.
        #expect(q.visible(at: 4.7)?.banner.text == "b", "b is read for a second")
        #expect(q.visible(at: 5.1)?.banner.text == "d", "a graver one does not wait behind a passing one")
        #expect(q.visible(at: 5 + 0.25 + 3 + 0.25 + 0.1)?.banner.text == "c", "and the rest wait behind it")
    }

    @Test func aGraverBannerWaitsBehindOneThatStays() {
        var q = BannerQueue()
        q.post(Banner(.info, "counting", countdownUntil: 10), at: 0)
        q.post(Banner(.error, "x"), at: 1)
        #expect(q.visible(at: 2)?.banner.text == "counting", "a countdown is not cut short")
    }

    @Test func aClickDismisses() {
        var q = BannerQueue()
        q.post(Banner(.error, "x"), at: 0)
        q.dismiss(at: 1)
        #expect(q.visible(at: 1.1)!.shown < 1)
        #expect(q.visible(at: 1.25) == nil)
    }

    @Test func aCountdownCountsAndStaysUntilItsEnd() {
        var q = BannerQueue()
        q.post(Banner(.warning, "try again in", countdownUntil: 10), at: 0)
        #expect(q.visible(at: 2)?.banner.text(at: 2) == "try again in 8 s")
        #expect(q.nextChange(after: 2.5, fps: 60) == 3, "one wake-up a second")
        #expect(q.visible(at: 9.9) != nil && q.visible(at: 10.3) == nil)
    }

    @Test func nothingWakesWhileABannerStays() {
        var q = BannerQueue()
        q.post(Banner(.info, "x"), at: 0)
        #expect(abs(q.nextChange(after: 0.1, fps: 60)! - (0.1 + 1.0 / 60)) < 1e-9, "frames while it slides")
        #expect(q.nextChange(after: 1, fps: 60) == 3.25, "none while it stays")
        #expect(BannerQueue().nextChange(after: 0, fps: 60) == nil)
    }

    @Test func aLongTextIsCutAtACharactersEnd() {
        let banner = Banner(.info, String(repeating: "é", count: 1000))
        #expect(banner.text.utf8.count <= Banner.maximumText)
        #expect(banner.text.hasSuffix("…") && banner.text.dropLast().allSatisfy { $0 == "é" })
        #expect(Banner(.info, "short").text == "short")
        #expect("👍🏽👍🏽".cut(toUTF8: 11) == "👍🏽…", "a cluster is kept whole or not at all")
    }

    @Test func theQueueIsBoundedAndDropsTheLeastImportant() {
        var q = BannerQueue()
        q.post(Banner(.info, "showing"), at: 0)
        for i in 0..<20 { q.post(Banner(.info, "info \(i)"), at: 0) }
        #expect(q.waiting.count == BannerQueue.maximumWaiting)
        #expect(q.waiting.last?.text == "info 7", "newer infos were dropped")
        q.post(Banner(.error, "error"), at: 0)
        #expect(q.waiting.count == BannerQueue.maximumWaiting)
        #expect(q.waiting.first?.text == "error" && q.waiting.last?.text == "info 6", "an error pushes the newest info out")
    }

    @Test func oneCountdownAtATime() {
        var q = BannerQueue()
        q.post(Banner(.error, "wrong password"), at: 0)
        q.post(Banner(.warning, "try again in", countdownUntil: 10), at: 0)
        q.post(Banner(.warning, "try again in", countdownUntil: 20), at: 0.1)
        #expect(q.waiting.map(\.countdownUntil) == [20], "the newer countdown replaced the waiting one")
        q.advance(to: 5)
        #expect(q.showing?.banner.countdownUntil == 20)
        q.post(Banner(.warning, "try again in", countdownUntil: 40), at: 6)
        #expect(q.showing?.banner.countdownUntil == 40 && q.waiting.isEmpty, "the showing one counts on to the new moment")
        #expect(q.visible(at: 7)?.banner.text(at: 7) == "try again in 33 s")
    }

    @Test func aPersistentBannerStaysUntilWithdrawn() {
        var q = BannerQueue()
        let caps = Banner(.warning, "Caps Lock is on", persistent: true)
        q.post(caps, at: 0)
        #expect(q.visible(at: 100) != nil)
        q.withdraw(at: 100) { $0 == caps }
        #expect(q.visible(at: 100.3) == nil)
    }
}

@Suite struct KeysymTests {
    @Test func layoutsTypeTheirCharacters() {
        #expect(Keysym.character(0x61) == "a")
        #expect(Keysym.character(0xfc) == "ü")
        #expect(Keysym.character(0xdf) == "ß")
        #expect(Keysym.character(0x6c1) == "а", "Cyrillic_a")
        #expect(Keysym.character(0x7e1) == "α", "Greek_alpha")
        #expect(Keysym.character(0x100_20ac) == "€", "a Unicode keysym")
        #expect(Keysym.character(0xff51) == nil, "Left types nothing")
        #expect(Keysym.character(0xffe1) == nil, "Shift types nothing")
    }
}
