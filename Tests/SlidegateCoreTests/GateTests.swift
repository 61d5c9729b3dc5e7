import SlidegateCore
import Testing

/// A 600x80 slider at (100, 100): padding 6, thumb 68x68 resting at x 106...174, its left
/// edge travelling 520 px to x 626.
private let layout = SliderLayout(bounds: Rect(x: 100, y: 100, width: 600, height: 80))

private func gate(command: String? = nil, timeout: Double? = nil, text: String = "slide to unlock") -> Gate {
    Gate(settings: Gate.Settings(text: text, unlockCommand: command, timeout: timeout, fps: 60), layout: layout, start: 0)
}

/// Presses on the thumb's centre at `t` and moves the pointer by `dx` at `t + 0.1`.
private func drag(_ g: inout Gate, by dx: Double, at t: Double = 0) {
    #expect(g.handle(.press(x: 140, y: 140), at: t) == nil)
    #expect(g.handle(.motion(x: 140 + dx, y: 140), at: t + 0.1) == nil)
}

@Suite struct SliderLayoutTests {
    @Test func thumbIsASquareAsTallAsTheTrackLessPadding() {
        #expect(layout.padding == 6)
        #expect(layout.thumb(at: 0) == Rect(x: 106, y: 106, width: 68, height: 68))
        #expect(layout.thumb(at: 1) == Rect(x: 626, y: 106, width: 68, height: 68))
        #expect(layout.thumb(at: 0.5).x == 366)
    }

    @Test func labelSitsRightOfTheRestingThumb() {
        #expect(layout.labelArea == Rect(x: 180, y: 100, width: 508, height: 80))
        #expect(layout.areaBeforeEnd.maxX == 620)
    }

    @Test func pointerPositionsAreInValueUnits() {
        #expect(layout.position(forPointerX: 106) == 0)
        #expect(layout.position(forPointerX: 366) == 0.5)
        #expect(layout.position(forPointerX: 1146) == 2)
    }
}

@Suite struct GateDragTests {
    @Test func thumbFollowsThePointerKeepingTheGrabOffset() {
        var g = gate()
        #expect(g.handle(.press(x: 170, y: 110), at: 0) == nil)
        #expect(g.isDragging)
        _ = g.handle(.motion(x: 430, y: 110), at: 0.1)
        #expect(g.thumbValue(at: 0.1) == 0.5)
        _ = g.handle(.motion(x: 430, y: 400), at: 0.2)
        #expect(g.thumbValue(at: 0.2) == 0.5, "moving off the axis keeps the value")
        _ = g.handle(.motion(x: -300, y: 140), at: 0.3)
        #expect(g.thumbValue(at: 0.3) == 0)
        _ = g.handle(.motion(x: 5000, y: 140), at: 0.4)
        #expect(g.thumbValue(at: 0.4) == 1)
    }

    @Test func pressesOffTheThumbDoNothing() {
        var g = gate()
        for (x, y) in [(660.0, 140.0), (690, 140), (300, 140), (140, 102), (175, 140), (99, 140)] {
            #expect(g.handle(.press(x: x, y: y), at: 0) == nil)
            #expect(!g.isDragging, "press at \(x),\(y)")
            _ = g.handle(.motion(x: 5000, y: y), at: 0.1)
            #expect(g.handle(.release, at: 0.2) == nil)
            #expect(g.thumbValue(at: 0.2) == 0)
        }
    }

    @Test func tapAtTheEndNeverUnlocks() {
        var g = gate()
        #expect(g.handle(.press(x: 660, y: 140), at: 0) == nil)
        #expect(g.handle(.release, at: 0.05) == nil)
        #expect(g.exitStatus == nil)
    }

    @Test func releaseAtTheEndCompletesEvenWhenOvershooting() {
        var g = gate()
        drag(&g, by: 2000)
        #expect(g.handle(.release, at: 0.2) == .exit(.completed))
        #expect(g.exitStatus == .completed)
        #expect(g.handle(.release, at: 0.3) == nil, "a duplicate release is ignored")
    }

    @Test func releaseJustShortOfTheEndSpringsBack() {
        var g = gate()
        drag(&g, by: 519)
        #expect(g.handle(.release, at: 0.2) == nil)
        #expect(g.exitStatus == nil)
        #expect(g.thumbValue(at: 0.2) > 0.99)
    }

    @Test func duplicateReleaseAfterSpringBackIsIgnored() {
        var g = gate()
        drag(&g, by: 260)
        _ = g.handle(.release, at: 1)
        #expect(g.handle(.release, at: 1.01) == nil)
        #expect(g.thumbValue(at: 1.01) < 0.5)
    }

    @Test func springBackEasesOutOver350Milliseconds() {
        var g = gate()
        drag(&g, by: 260)
        _ = g.handle(.release, at: 1)
        let samples: [(Double, Double)] = [(0, 0.5), (0.25, 0.5 * (1 - 0.378138)), (0.5, 0.5 * (1 - 0.684643)), (0.75, 0.5 * (1 - 0.906535))]
        for (fraction, expected) in samples {
            #expect(abs(g.thumbValue(at: 1 + 0.35 * fraction) - expected) < 1e-4, "at \(fraction)")
        }
        #expect(g.thumbValue(at: 1.35) == 0)
        #expect(g.advance(to: 1.35) == nil)
        #expect(g.thumbValue(at: 2) == 0)
    }

    @Test func pressDuringSpringBackCatchesTheThumbWhereItIs() {
        var g = gate()
        drag(&g, by: 260)
        _ = g.handle(.release, at: 1)
        let caught = g.thumbValue(at: 1.1)
        let thumb = layout.thumb(at: caught)
        #expect(g.handle(.press(x: 140, y: 140), at: 1.1) == nil)
        #expect(!g.isDragging, "the resting place is no longer the thumb")
        #expect(g.handle(.press(x: thumb.midX, y: thumb.midY), at: 1.1) == nil)
        #expect(g.isDragging)
        #expect(g.thumbValue(at: 1.2) == caught, "the thumb stays where it was caught")
        _ = g.handle(.motion(x: thumb.midX + 52, y: thumb.midY), at: 1.2)
        #expect(abs(g.thumbValue(at: 1.2) - (caught + 0.1)) < 1e-9)
    }

    @Test func labelFadesWithTheSlideAndComesBack() {
        #expect(Presenter.labelAlpha(forValue: 0) == 1)
        #expect(abs(Presenter.labelAlpha(forValue: 0.325) - 0.5) < 1e-12)
        #expect(Presenter.labelAlpha(forValue: 0.65) == 0)
        #expect(Presenter.labelAlpha(forValue: 0.9) == 0)
        var g = gate()
        drag(&g, by: 104)
        #expect(abs(g.scene(at: 0.1).label!.alpha - (1 - 0.2 / 0.65)) < 1e-12)
        _ = g.handle(.release, at: 0.5)
        #expect(g.scene(at: 0.6).label!.alpha > g.scene(at: 0.5).label!.alpha)
        #expect(g.scene(at: 0.85).label!.alpha == 1)
    }

    @Test func windowCloseAndSignalsEndTheGate() {
        var g = gate()
        #expect(g.handle(.closeRequested, at: 1) == .exit(.windowClosed))
        var h = gate()
        drag(&h, by: 100)
        #expect(h.handle(.signal(15), at: 1) == .exit(.signal(15)))
        #expect(h.handle(.release, at: 1.1) == nil)
    }
}

@Suite struct GateShimmerTests {
    @Test func shimmerRunsOnlyWhileTheThumbRests() {
        var g = gate()
        guard case .shimmer(let band)? = g.scene(at: 0.5).label?.emphasis else {
            Issue.record("expected a shimmering label")
            return
        }
        #expect(band != nil)
        drag(&g, by: 10, at: 0.5)
        #expect(g.scene(at: 0.7).label?.emphasis == .shimmer(band: nil))
        #expect(g.nextDeadline(after: 0.7) == nil, "nothing repaints while the pointer is still")
        _ = g.handle(.release, at: 1)
        #expect(g.scene(at: 1.2).label?.emphasis == .shimmer(band: nil))
        #expect(g.scene(at: 1.35).label?.emphasis == .shimmer(band: -0.1), "the sweep restarts once the thumb is at rest")
        #expect(g.scene(at: 1.85).label?.emphasis == .shimmer(band: 0.5))
    }

    @Test func framesAreAtTheFrameRateDuringTheSweepAndNoneDuringThePause() {
        let g = gate()
        #expect(abs(g.nextDeadline(after: 0)! - 1.0 / 60) < 1e-9)
        #expect(abs(g.nextDeadline(after: 0.5)! - 31.0 / 60) < 1e-9)
        #expect(abs(g.nextDeadline(after: 0.995)! - 1) < 1e-9, "a last frame when the band has left")
        #expect(g.nextDeadline(after: 1.0) == 2, "no frame during the dim second")
        #expect(g.nextDeadline(after: 1.7) == 2)
    }

    @Test func springBackAnimatesAtTheFrameRate() {
        var g = gate()
        drag(&g, by: 260)
        _ = g.handle(.release, at: 1)
        #expect(abs(g.nextDeadline(after: 1)! - (1 + 1.0 / 60)) < 1e-9)
        #expect(abs(g.nextDeadline(after: 1.349)! - 1.35) < 1e-9)
    }

    /// What the UI hands to the X server ahead: the sweep under way, from the band's entry
    /// to its exit, and nothing between sweeps or while the thumb moves.
    @Test func theSweepUnderWayIsKnownFromItsStartToItsEnd() throws {
        var g = gate()
        let first = try #require(g.shimmerSweep(at: 0.4))
        #expect(first.start == 0 && first.end == 1)
        #expect(g.shimmerSweep(at: 1.5) == nil, "the pause")
        let second = try #require(g.shimmerSweep(at: 2))
        #expect(second.start == 2 && second.end == 3)
        #expect(g.scene(at: second.end).label?.emphasis == .shimmer(band: nil), "it ends on the text without the band")
        drag(&g, by: 10, at: 2.1)
        #expect(g.shimmerSweep(at: 2.3) == nil)
        #expect(gate(text: "").shimmerSweep(at: 0.4) == nil)
    }

    /// Besides the slider's own frames, a time limit makes the gate act: a sweep that it
    /// falls in cannot be handed over whole.
    @Test func theNextChangeBesidesTheSliderLeavesOutItsFrames() {
        #expect(gate().nextChangeBesidesTheSlider(after: 0.4) == nil)
        #expect(gate().nextDeadline(after: 0.4) != nil)
        #expect(gate(timeout: 2.5).nextChangeBesidesTheSlider(after: 0.4) == 2.5)
    }

    @Test func emptyTextMeansNoLabelAndNoFrames() {
        let g = gate(text: "")
        #expect(g.scene(at: 0.5).label == nil)
        #expect(g.nextDeadline(after: 0.5) == nil)
    }
}

@Suite struct ShimmerTests {
    @Test func bandCrossesTheTextInOneSecondThenPausesOne() {
        let s = Shimmer()
        #expect(s.bandCentre(elapsed: 0) == -0.1)
        #expect(abs(s.bandCentre(elapsed: 0.5)! - 0.5) < 1e-12)
        #expect(abs(s.bandCentre(elapsed: 0.999)! - 1.0988) < 1e-9)
        #expect(s.bandCentre(elapsed: 1) == nil)
        #expect(s.bandCentre(elapsed: 1.99) == nil)
        #expect(s.bandCentre(elapsed: 2) == -0.1)
        #expect(abs(s.bandCentre(elapsed: 4.25)! - s.bandCentre(elapsed: 0.25)!) < 1e-12)
    }
}

@Suite struct TimingCurveTests {
    @Test func easeOutMatchesTheBezierSamples() {
        let c = TimingCurve.easeOut
        for (p, expected) in [(0.0, 0.0), (0.1, 0.160572), (0.5, 0.684643), (0.9, 0.982973), (1, 1)] {
            #expect(abs(c.value(at: p) - expected) < 1e-5, "at \(p)")
        }
        #expect(c.value(at: -1) == 0)
        #expect(c.value(at: 2) == 1)
    }

    @Test func easeOutIsMonotonic() {
        let c = TimingCurve.easeOut
        var last = 0.0
        for i in 1...1000 {
            let v = c.value(at: Double(i) / 1000)
            #expect(v >= last)
            last = v
        }
    }
}

@Suite struct GateUnlockCommandTests {
    @Test func completionRunsTheCommandAndShowsBusy() {
        var g = gate(command: "true")
        drag(&g, by: 600)
        #expect(g.handle(.release, at: 0.2) == .runUnlockCommand("true"))
        let scene = g.scene(at: 0.3)
        #expect(scene.busy)
        #expect(scene.thumbValue == 1)
        #expect(scene.label?.text == "unlocking…")
        #expect(g.handle(.press(x: 660, y: 140), at: 0.4) == nil, "input is ignored while the command runs")
        #expect(g.handle(.unlockCommandFinished(succeeded: true), at: 0.5) == .exit(.completed))
    }

    @Test func failureShowsAMessageSpringsBackAndAllowsAnotherTry() {
        var g = gate(command: "false")
        drag(&g, by: 600)
        _ = g.handle(.release, at: 0.2)
        #expect(g.handle(.unlockCommandFinished(succeeded: false), at: 1) == nil)
        #expect(g.exitStatus == nil)
        #expect(g.scene(at: 1.1).label?.text == "unlock failed")
        #expect(g.thumbValue(at: 1.35) == 0)
        #expect(g.nextDeadline(after: 2) == 3.5, "the message stays 2.5 s")
        #expect(g.advance(to: 3.5) == nil)
        #expect(g.scene(at: 3.6).label?.text == "slide to unlock")
        drag(&g, by: 600, at: 4)
        #expect(g.handle(.release, at: 4.2) == .runUnlockCommand("false"))
    }

    @Test func aNewDragHidesTheFailureMessage() {
        var g = gate(command: "false")
        drag(&g, by: 600)
        _ = g.handle(.release, at: 0.2)
        _ = g.handle(.unlockCommandFinished(succeeded: false), at: 1)
        drag(&g, by: 50, at: 1.5)
        #expect(g.scene(at: 1.6).label?.text == "slide to unlock")
    }
}

@Suite struct GateTimeoutTests {
    @Test func timeoutEndsTheGateWithStatus4() {
        var g = gate(timeout: 1)
        #expect(g.nextDeadline(after: 0.999) == 1)
        #expect(g.advance(to: 0.99) == nil)
        #expect(g.advance(to: 1) == .exit(.timedOut))
        #expect(ExitStatus.timedOut.code == 4)
    }

    @Test func timeoutAlsoEndsADragInProgress() {
        var g = gate(timeout: 1)
        drag(&g, by: 300, at: 0.5)
        #expect(g.handle(.release, at: 1.2) == .exit(.timedOut))
    }

    @Test func timeoutWaitsForARunningUnlockCommand() {
        var g = gate(command: "sleep 1", timeout: 1)
        drag(&g, by: 600, at: 0.5)
        _ = g.handle(.release, at: 0.7)
        #expect(g.advance(to: 1.5) == nil)
        #expect(g.nextDeadline(after: 1.5) == nil)
        #expect(g.handle(.unlockCommandFinished(succeeded: true), at: 2) == .exit(.completed))
        var h = gate(command: "false", timeout: 1)
        drag(&h, by: 600, at: 0.5)
        _ = h.handle(.release, at: 0.7)
        _ = h.advance(to: 1.5)
        #expect(h.handle(.unlockCommandFinished(succeeded: false), at: 2) == .exit(.timedOut))
    }
}

@Suite struct RestartPolicyTests {
    @Test func aUIThatDiesOnceIsReplacedAtOnce() {
        var policy = RestartPolicy.drawingProgram
        #expect(policy.died(after: 0.3) == 0)
        #expect(policy.died(after: 60) == 0)
        #expect(policy.died(after: 0.3) == 0)
    }

    @Test func uisThatKeepDyingYoungBackOffTo5Seconds() {
        var policy = RestartPolicy.drawingProgram
        let delays = (0..<10).map { _ in policy.died(after: 0.1) }
        #expect(delays == [0, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5, 5, 5])
        #expect(policy.died(after: 2.5) == 0, "a UI that lived resets the back-off")
    }

    @Test func aHelperInTroubleWaitsFromHalfASecondToAMinute() {
        var policy = RestartPolicy.passiveHelper
        let delays = (0..<9).map { _ in policy.died(after: 3600) }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 32, 60, 60])
        policy.succeeded()
        #expect(policy.died(after: 0) == 0.5, "a verdict resets the back-off")
    }
}
