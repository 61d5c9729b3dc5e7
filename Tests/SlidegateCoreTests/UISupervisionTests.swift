import SlidegateCore
import Testing

@Suite struct UISupervisionTests {
    @Test func aUIStartsAndIsAskedSoonThenOnlyWhileItAnimates() {
        var s = UISupervision(start: 0)
        s.started(at: 0)
        #expect(s.due(at: 0.1, answerDue: nil) == UISupervision.Due())
        #expect(s.deadline == 0.25, "asked a quarter second after its start")
        #expect(s.due(at: 0.25, answerDue: nil) == UISupervision.Due(action: .ping))
        #expect(s.nextPing == nil)
        _ = s.drew()
        s.answered(at: 0.3, animating: false)
        #expect(s.deadline == nil, "a still lock asks nothing: no wake-ups")
        s.answered(at: 0.3, animating: true)
        #expect(s.deadline == 1.3, "an animating one is asked once a second")
    }

    @Test func aUIThatDoesNotAnswerIsReplacedAndTheNextStartsAtOnce() {
        var s = UISupervision(start: 0)
        s.started(at: 0)
        #expect(s.due(at: 0.25, answerDue: nil) == UISupervision.Due(action: .ping))
        #expect(s.due(at: 1.0, answerDue: 1.25) == UISupervision.Due(), "still within its second")
        #expect(s.due(at: 1.25, answerDue: 1.25) == UISupervision.Due(action: .replace))
        s.ended(at: 1.25, after: 1.25)
        #expect(s.due(at: 1.25, answerDue: nil).action == .start, "the first early death: at once")
    }

    /// UIs that keep dying within 2 s of their start wait 0.1 s, doubling, up to 5 s.
    @Test func uisThatKeepDyingYoungBackOff() {
        var s = UISupervision(start: 0)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<10 {
            s.started(at: now)
            s.ended(at: now + 0.5, after: 0.5)
            now += 0.5
            let restart = s.restartAt!
            waits.append(((restart - now) * 1000).rounded() / 1000)
            now = restart
            #expect(s.due(at: now, answerDue: nil).action == .start)
        }
        #expect(waits == [0, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5, 5, 5])
        s.started(at: now)
        s.ended(at: now + 3, after: 3)
        #expect(s.restartAt == now + 3, "a UI that lived long is restarted at once")
    }

    /// The plain slider is drawn once, 2 s after nothing was drawn, and nothing more is due
    /// while it shows (no wake-ups); a UI that draws takes over, and the next one that dies
    /// gets 2 s again.
    @Test func theFallbackIsDrawnOnceAndGivesWayToAUIThatDraws() {
        var s = UISupervision(start: 10)
        s.couldNotStart(at: 10)
        #expect(s.due(at: 10, answerDue: nil) == UISupervision.Due(action: .start))
        s.couldNotStart(at: 10)
        #expect(s.due(at: 11.9, answerDue: nil) == UISupervision.Due(action: .start))
        s.couldNotStart(at: 11.9)
        let actions = s.due(at: 12, answerDue: nil)
        #expect(actions.drawFallback)
        #expect(s.fallbackShown && s.fallbackAt == nil)
        #expect(!s.due(at: 13, answerDue: nil).drawFallback, "once")
        s.started(at: 13)
        let first = s.drew()
        #expect(first, "the first frame after the fallback")
        #expect(!s.fallbackShown)
        let second = s.drew()
        #expect(!second, "not the first any more")
        s.ended(at: 20, after: 7)
        #expect(s.fallbackAt == 22)
    }

    @Test func aBlankScreenOwesNoAnswersAndIsAskedWhenItComesBack() {
        var s = UISupervision(start: 0)
        s.started(at: 0)
        _ = s.drew()
        s.blankChanged(true, at: 0.1)
        #expect(s.nextPing == nil)
        s.input(at: 0.2, guardDraws: false)
        s.answered(at: 0.2, animating: true)
        #expect(s.nextPing == nil, "nothing is asked of a sleeping UI")
        s.blankChanged(false, at: 5)
        #expect(s.due(at: 5, answerDue: nil) == UISupervision.Due(action: .ping), "asked at once when the screen is back")
    }

    @Test func inputIsFollowedByAQuestionUnlessTheGuardDrawsTheDrag() {
        var s = UISupervision(start: 0)
        s.started(at: 0)
        _ = s.due(at: 0.25, answerDue: nil)
        s.input(at: 1, guardDraws: false)
        #expect(s.nextPing == 1.25)
        _ = s.due(at: 1.25, answerDue: nil)
        s.input(at: 2, guardDraws: true)
        #expect(s.nextPing == 3)
    }

    @Test func aStoppedLockHasNothingDue() {
        var s = UISupervision(start: 0)
        s.started(at: 0)
        s.stopped()
        #expect(s.deadline == nil)
        #expect(s.due(at: 100, answerDue: nil) == UISupervision.Due())
    }
}
