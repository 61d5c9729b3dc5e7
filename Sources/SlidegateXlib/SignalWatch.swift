import CXShim
import Glibc

/// Turns SIGTERM, SIGINT, SIGHUP and SIGCHLD into readable events on a descriptor, so the
/// event loop handles them on its own thread. Children get the default dispositions and an
/// empty mask back (see `UnlockCommand`).
public final class SignalWatch {
    public static let terminating: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    public let fileDescriptor: Int32

    public init() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.terminating + [SIGCHLD] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        fileDescriptor = sg_signalfd(&set)
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        close(fileDescriptor)
    }

    /// The signals that have arrived since the last call.
    public func pending() -> [Int32] {
        var signals: [Int32] = []
        while case let n = sg_read_signal(fileDescriptor), n != 0 { signals.append(n) }
        return signals
    }
}
