import SlidegateCore

extension FuzzTarget {
    /// The supervisor's decisions over anything a guard may write and any way guards may
    /// end: steps of (kind, bytes or an end, a time). Report bytes go through
    /// `GuardReportReader` in pieces; an end through `GuardRestarts`. Properties: what the
    /// reader yields says the same again line for line; once a guard said the screen is
    /// locked, an end nobody asked for (no `ending`, no terminating signal) always locks
    /// again, in the safe mode once it began, after a delay of 0 or `safeModeDelay`; an
    /// exit's status is what was said, a signal's, or (before any lock) the guard's own.
    static func supervisor(_ bytes: [UInt8]) throws(FuzzFailure) {
        var input = FuzzBytes(bytes)
        var reader = GuardReportReader()
        var restarts = GuardRestarts()
        var time = 0.0
        var said: Int32?
        var terminating: Int32?
        var wasSafe = false
        while !input.isEmpty {
            time += Double(input.u16()) / 1000
            switch input.u8() % 3 {
            case 0:
                let piece = Array(input.text(limit: 64).utf8)
                for report in reader.take(piece) {
                    guard GuardReport(line: Array(report.line.utf8).dropLast()) == report else {
                        throw FuzzFailure("\(report) does not read back from its own line")
                    }
                    restarts.heard(report)
                    if case .ending(let code) = report { said = code }
                }
            case 1:
                let signal = Int32(input.u8() % 64) + 1
                restarts.terminate(by: signal)
                if terminating == nil { terminating = signal }
            default:
                let code = Int32(input.u8())
                let end: GuardEnd = input.u8() & 1 == 0 ? .exited(code) : .killed(signal: code % 64 + 1)
                let locked = restarts.locked
                let next = restarts.guardEnded(end, at: time)
                let expected: GuardRestarts.Next
                if let said {
                    expected = .exit(said)
                } else if let terminating {
                    expected = .exit(128 + terminating)
                } else if !locked {
                    if case .exited(let own) = end { expected = .exit(own) } else { expected = .exit(ExitStatus.internalError.code) }
                } else {
                    guard case .relock(let safe, let delay) = next else { throw FuzzFailure("a death after locking ended the lock: \(next)") }
                    guard !wasSafe || safe, delay == 0 || delay == GuardRestarts.safeModeDelay else {
                        throw FuzzFailure("the safe mode was left, or an odd delay: \(next)")
                    }
                    wasSafe = safe
                    expected = next
                }
                guard next == expected else { throw FuzzFailure("\(end) after \(String(describing: said)): \(next), expected \(expected)") }
                said = nil
            }
        }
    }
}
