import CSystem
import Glibc
import SlidegateCore

/// Turns SIGTERM, SIGINT, SIGHUP and SIGCHLD into readable events on a descriptor, so the
/// event loop handles them on its own thread. Children get the default dispositions and an
/// empty mask back (see `ChildProcess`).
package final class SignalWatch {
    package static let terminating: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    package let fileDescriptor: Int32

    /// Throws when the kernel gives no signalfd: without one, SIGTERM would be blocked and
    /// never read, so nothing could end slidegate cleanly.
    package init() throws(UserError) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.terminating + [SIGCHLD] { sigaddset(&set, signal) }
        let fd = sg_signalfd(&set)
        guard fd >= 0 else { throw SystemError("signalfd").userError(.internalError, "cannot watch signals") }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        fileDescriptor = fd
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        close(fileDescriptor)
    }

    /// A terminating signal that has arrived, taken; nil when none has. The others stay
    /// pending for `pending()`.
    package func takeTermination() -> Int32? {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.terminating { sigaddset(&set, signal) }
        var now = timespec()
        let signal = sigtimedwait(&set, nil, &now)
        return signal > 0 ? signal : nil
    }

    /// The signals that have arrived since the last call.
    package func pending() -> [Int32] {
        var signals: [Int32] = []
        while case let n = sg_read_signal(fileDescriptor), n != 0 { signals.append(n) }
        return signals
    }
}
