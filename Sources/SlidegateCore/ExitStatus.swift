/// The documented exit statuses of slidegate.
package enum ExitStatus: Equatable, Sendable {
    /// The slide was completed (and the unlock command, if any, succeeded).
    case completed
    /// Something inside slidegate failed (a drawing or X call it could not recover from).
    case internalError
    /// A bad option, value or configuration.
    case usage
    /// No display could be opened, or the lock could not be taken.
    case noDisplayOrLock
    /// `--timeout` expired without a completed slide.
    case timedOut
    /// The window manager closed the window.
    case windowClosed
    /// Ended by signal N: 128 + N.
    case signal(Int32)
    /// slidegate-ui and slidegate-auth, never slidegate: the guard's messages could not be
    /// understood (the guard reports it and starts another UI or helper).
    case uiProtocolError

    package var code: Int32 {
        switch self {
        case .completed: 0
        case .internalError: 1
        case .usage: 2
        case .noDisplayOrLock: 3
        case .timedOut: 4
        case .windowClosed: 5
        case .signal(let n): 128 + n
        case .uiProtocolError: 10
        }
    }

    /// The status a process exited with, as slidegate documents it; a code slidegate does
    /// not use is an internal error.
    package init(code: Int32) {
        switch code {
        case 0: self = .completed
        case 2: self = .usage
        case 3: self = .noDisplayOrLock
        case 4: self = .timedOut
        case 5: self = .windowClosed
        case 10: self = .uiProtocolError
        case 129...255: self = .signal(code - 128)
        default: self = .internalError
        }
    }
}

/// An error a user can cause, with the one line slidegate prints for it and its exit status.
package struct UserError: Error, Equatable, Sendable {
    package var message: String
    package var status: ExitStatus

    package init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// The line printed on stderr.
    package var line: String { "slidegate: \(message)" }
}
