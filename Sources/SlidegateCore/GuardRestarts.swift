/// What the guard tells the process that started it (the supervisor), a line each on a pipe.
/// The guard is a process the supervisor can lose: everything that comes from it is checked.
package enum GuardReport: Equatable, Sendable {
    /// Connected and about to take the grabs: whoever holds them for it lets go.
    case grabbing
    /// The screen is covered and grabbed.
    case locked
    /// The slider's first frame is on the screen (or the screen is blank and shows none).
    case shown
    /// The guard gave back its start-up pages.
    case shed
    /// The lock ends as asked (unlocked, timed out, ended by a signal), with this status,
    /// which the guard exits with next.
    case ending(Int32)

    /// The longest line a report takes, newline included; a longer one is not a report.
    package static let maximumLine = 16

    /// The line that says it.
    package var line: String {
        switch self {
        case .grabbing: "G\n"
        case .locked: "L\n"
        case .shown: "F\n"
        case .shed: "S\n"
        case .ending(let code): "E\(code)\n"
        }
    }

    /// A line without its newline; nil when it says nothing known.
    package init?(line: some Collection<UInt8>) {
        guard let first = line.first else { return nil }
        let rest = line.dropFirst()
        switch first {
        case UInt8(ascii: "G") where rest.isEmpty: self = .grabbing
        case UInt8(ascii: "L") where rest.isEmpty: self = .locked
        case UInt8(ascii: "F") where rest.isEmpty: self = .shown
        case UInt8(ascii: "S") where rest.isEmpty: self = .shed
        case UInt8(ascii: "E"):
            guard !rest.isEmpty, rest.count <= 3, rest.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let code = Int32(String(decoding: rest, as: UTF8.self), radix: 10), code <= 255
            else { return nil }
            self = .ending(code)
        default: return nil
        }
    }
}

/// Splits what the guard writes into reports, holding at most one line's bytes between
/// reads: a line longer than `GuardReport.maximumLine` is dropped to its newline.
package struct GuardReportReader: Sendable {
    private var pending: [UInt8] = []
    private var overlong = false
    /// Lines that said nothing known (or were too long), since the start.
    package private(set) var rejected = 0

    package init() {}

    package mutating func take(_ bytes: some Sequence<UInt8>) -> [GuardReport] {
        var reports: [GuardReport] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !overlong, let report = GuardReport(line: pending) {
                    reports.append(report)
                } else {
                    rejected += 1
                }
                pending.removeAll(keepingCapacity: true)
                overlong = false
            } else if pending.count < GuardReport.maximumLine - 1 {
                pending.append(byte)
            } else {
                overlong = true
            }
        }
        return reports
    }
}

/// How a guard process ended.
package enum GuardEnd: Equatable, Sendable {
    case exited(Int32)
    case killed(signal: Int32)
}

/// The supervisor's decisions: when a guard that ended is replaced, when by the safe mode,
/// and with which status the supervisor itself ends. Time is an argument (CLOCK_BOOTTIME).
package struct GuardRestarts: Equatable, Sendable {
    /// This many deaths within `deathWindow` seconds bring the safe mode.
    package static let deathsForSafeMode = 3
    package static let deathWindow = 10.0
    /// Between a safe-mode guard's death and the next: one that cannot live must not spin.
    package static let safeModeDelay = 0.5

    /// Whether any guard has said the screen is locked: from then on, every end but one
    /// asked for is a death, and the lock is taken again.
    package private(set) var locked = false
    package private(set) var safeMode = false
    /// When guards died, the last `deathWindow` seconds' worth.
    private var deaths: [Double] = []
    /// How the running guard said the lock ends.
    private var ending: Int32?
    /// A terminating signal passed on to the guard: the lock ends with it.
    private var terminating: Int32?

    package enum Next: Equatable, Sendable {
        /// The supervisor ends with this status.
        case exit(Int32)
        /// A new guard takes the lock again, after `delay` seconds; `safe`: in the safe mode.
        case relock(safe: Bool, delay: Double)
    }

    package init() {}

    package mutating func heard(_ report: GuardReport) {
        switch report {
        case .grabbing, .shown, .shed: break
        case .locked: locked = true
        case .ending(let code): ending = code
        }
    }

    /// A terminating signal came for the lock.
    package mutating func terminate(by signal: Int32) {
        if terminating == nil { terminating = signal }
    }

    /// The status to end with when a signal came and no guard runs; nil when none came.
    package var terminatingStatus: Int32? { terminating.map { 128 + $0 } }

    /// The running guard ended as `end` at `now`.
    package mutating func guardEnded(_ end: GuardEnd, at now: Double) -> Next {
        defer { ending = nil }
        if let ending { return .exit(ending) }
        if let terminatingStatus { return .exit(terminatingStatus) }
        guard locked else {
            switch end {
            case .exited(let code): return .exit(code)
            case .killed: return .exit(ExitStatus.internalError.code)
            }
        }
        deaths = deaths.filter { now - $0 < Self.deathWindow } + [now]
        let wasSafe = safeMode
        if deaths.count >= Self.deathsForSafeMode { safeMode = true }
        return .relock(safe: safeMode, delay: wasSafe ? Self.safeModeDelay : 0)
    }
}

/// Which lock a guard takes, and where it reports to the supervisor.
package struct GuardLaunch: Equatable, Sendable {
    package enum Mode: Sendable {
        /// The lock the person or the session asked for.
        case first
        /// After a guard died: no grace, the slide and the methods needed again, a banner.
        case relock
        /// After `GuardRestarts.deathsForSafeMode` deaths: as a relock, and one cover over
        /// the root window, no drawing program, no picture, no RandR, the plain slider.
        case safe
    }

    package var reportDescriptor: Int32
    package var mode: Mode

    package init(reportDescriptor: Int32, mode: Mode) {
        self.reportDescriptor = reportDescriptor
        self.mode = mode
    }
}
