import SlidegateCore
import Testing

@Suite struct VerificationTests {
    @Test func aRefusalShowsForItsTimeThenIsIdle() {
        var v = Verification()
        v.begin()
        #expect(v.isVerifying)
        v.finish(granted: false, at: 10)
        #expect(v.state == .refused(until: 10 + Verification.refusalDuration))
        #expect(v.settled(at: 12.4) == .refused(until: 12.5))
        #expect(v.settled(at: 12.5) == .idle)
    }

    @Test func onlyARunningCheckCanFinish() {
        var v = Verification()
        v.finish(granted: true, at: 1)
        #expect(v.state == .idle)
        v.begin()
        v.finish(granted: true, at: 1)
        #expect(v.state == .granted)
    }

    @Test func aNewAttemptDismissesTheRefusal() {
        var v = Verification()
        v.begin()
        v.finish(granted: false, at: 0)
        v.dismissRefusal()
        #expect(v.state == .idle)
    }
}
