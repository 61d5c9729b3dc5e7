import SlidegateCore
import Testing

@Suite struct GuardRestartsTests {
    @Test func aGuardThatEndsBeforeLockingEndsTheSupervisorAsItDid() {
        var r = GuardRestarts()
        #expect(r.guardEnded(.exited(2), at: 0) == .exit(2), "a bad option stays exit 2")
        var killed = GuardRestarts()
        #expect(killed.guardEnded(.killed(signal: 11), at: 0) == .exit(1), "a crash before locking is an internal error")
    }

    @Test func anEndAskedForEndsTheLock() {
        var r = GuardRestarts()
        r.heard(.locked)
        r.heard(.ending(0))
        #expect(r.guardEnded(.exited(0), at: 1) == .exit(0))
        var signalled = GuardRestarts()
        signalled.heard(.locked)
        signalled.heard(.ending(143))
        #expect(signalled.guardEnded(.exited(143), at: 1) == .exit(143))
    }

    @Test func aDeathAfterLockingLocksAgainThenTheSafeModeAfterThreeIn10Seconds() {
        var r = GuardRestarts()
        r.heard(.locked)
        #expect(r.guardEnded(.killed(signal: 4), at: 1) == .relock(safe: false, delay: 0))
        #expect(r.guardEnded(.exited(1), at: 20) == .relock(safe: false, delay: 0), "Xlib's exit(1) is a death too")
        #expect(r.guardEnded(.exited(0), at: 25) == .relock(safe: false, delay: 0), "even status 0 without saying so")
        #expect(!r.safeMode, "two within 10 s")
        #expect(r.guardEnded(.killed(signal: 9), at: 29) == .relock(safe: true, delay: 0))
        #expect(r.guardEnded(.killed(signal: 9), at: 100) == .relock(safe: true, delay: GuardRestarts.safeModeDelay), "the safe mode stays")
    }

    @Test func aStatusSaidForALaterGuardDoesNotCarryOver() {
        var r = GuardRestarts()
        r.heard(.locked)
        r.heard(.ending(0))
        #expect(r.guardEnded(.exited(0), at: 1) == .exit(0))
        var other = GuardRestarts()
        other.heard(.locked)
        other.heard(.ending(4))
        #expect(other.guardEnded(.exited(4), at: 1) == .exit(4))
        var died = GuardRestarts()
        died.heard(.locked)
        _ = died.guardEnded(.killed(signal: 9), at: 1)
        #expect(died.guardEnded(.exited(0), at: 2) == .relock(safe: false, delay: 0), "the next guard said nothing")
    }

    @Test func aTerminatingSignalEndsTheLockWhateverTheGuardDoes() {
        var r = GuardRestarts()
        r.heard(.locked)
        r.terminate(by: 15)
        #expect(r.terminatingStatus == 143)
        #expect(r.guardEnded(.killed(signal: 9), at: 1) == .exit(143))
    }

    @Test func reportLinesAreReadStrictly() {
        var reader = GuardReportReader()
        #expect(reader.take(Array("G\nL\nF\nS\nE143\n".utf8)) == [.grabbing, .locked, .shown, .shed, .ending(143)])
        #expect(reader.take(Array("E1".utf8)).isEmpty, "half a line waits")
        #expect(reader.take(Array("0\n".utf8)) == [.ending(10)])
        #expect(reader.take(Array("E256\nE-1\nE\nLL\nx\n\n".utf8)).isEmpty)
        #expect(reader.rejected == 6)
        #expect(reader.take(Array(String(repeating: "L", count: 5000).utf8) + Array("\nL\n".utf8)) == [.locked], "an overlong line is dropped whole")
        for report in [GuardReport.grabbing, .locked, .shown, .shed, .ending(0), .ending(255)] {
            #expect(reader.take(Array(report.line.utf8)) == [report])
        }
    }
}
