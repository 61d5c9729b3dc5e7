import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateProtocol

/// One `slidegate-auth` kept for a use: started and greeted when asked, its socket watched,
/// its replies read, and gone when it ends, misbehaves or is stopped. `AuthSession` (the
/// password and the PIN) and each `PassiveMethod` (a method that needs no typing) have one,
/// and differ only in what they ask of it and when they start the next: a password or PIN
/// helper at once (a person waits on it), a method that needs no typing after its
/// `RestartPolicy`'s wait.
package final class HelperSupervisor {
    /// What reading the helper found.
    package enum Reading {
        /// Whole replies (maybe none yet).
        case replies([AuthReply])
        /// The helper ended or closed its socket, as said: it is gone.
        case ended(String)
        /// It said something that is not the protocol, or a second hello: it is gone.
        case malformed(ProtocolError)
    }

    /// "the authentication helper", or "the fingerprint helper": for the event loop's
    /// messages.
    private let name: String
    private let program: Executable
    /// With `--auth pin`, the PIN file the helper checks the wheels against.
    private let pinFile: String?
    private var helper: AuthHelper?
    /// The socket an event loop watches, if one does.
    private var watched: (descriptor: Int32, watch: DescriptorWatch)?

    package init(_ program: Executable, name: String, pinFile: String? = nil) {
        self.program = program
        self.name = name
        self.pinFile = pinFile
    }

    deinit {
        stop()
    }

    /// Whether a helper was started and is not gone yet (it may have ended).
    package var isStarted: Bool { helper != nil }

    /// Whether a helper runs (started, and not known to have ended).
    package var isRunning: Bool { helper != nil && helper?.process.poll() == nil }

    /// The running helper's socket, for the event loop to watch.
    package var descriptor: Int32? { helper?.channel.descriptor.rawValue }

    /// The running helper's exit, once it has ended.
    package var exit: ChildExit? { helper?.process.poll() }

    /// The running helper's process id.
    package var processID: pid_t? { helper?.process.pid }

    /// Starts a helper and waits (up to 2 s) for its hello, unless one runs; one that has
    /// ended is reaped first.
    package func start() throws(SystemError) {
        guard !isRunning else { return }
        stop()
        helper = try AuthHelper.start(program, pinFile: pinFile)
    }

    /// Ends the helper, if one runs, and reaps it.
    package func stop() {
        helper?.process.signal(SIGKILL)
        helper?.process.stop()
        helper = nil
    }

    /// Sends `request`; false when no helper runs or it does not take it.
    package func send(_ request: AuthRequest) -> Bool {
        guard let helper else { return false }
        return (try? helper.channel.send(request)) != nil
    }

    /// Writes a secret answer framed as `kind` straight from `secret`'s locked memory.
    package func sendSecret(kind: UInt8, _ secret: SecretBuffer) throws(SystemError) {
        guard let channel = helper?.channel else { throw SystemError("no helper runs", code: ESRCH) }
        try channel.flush()
        try channel.descriptor.writeAll(AuthProtocol.secretHeader(kind: kind, secretLength: secret.count))
        try channel.descriptor.writeAll(secret.bytes)
    }

    /// Has `watcher` watch the current helper's socket (it changes when the helper is
    /// replaced), calling `handler` when it is readable.
    package func keepWatched(by watcher: DescriptorWatcher, _ handler: @escaping DescriptorHandler) {
        guard descriptor != watched?.descriptor else { return }
        if let old = watched { watcher.unwatch(old.watch) }
        watched = descriptor.map { ($0, watcher.watch($0, name: "\(name)'s socket", peer: true, handler)) }
    }

    /// Reads what the helper said. A helper that ended, closed its socket or broke the
    /// protocol is stopped and gone; nil when none runs.
    package func read() -> Reading? {
        guard let helper else { return nil }
        var replies: [AuthReply] = []
        do {
            let open = try helper.channel.receive { (body) throws(ProtocolError) in
                let reply = try AuthReply(body: body)
                if case .hello = reply { throw ProtocolError("a second hello") }
                replies.append(reply)
            }
            guard open else {
                // A helper whose socket closed is ending: waited for (0.1 s at most), so
                // that how it ended can be said.
                helper.process.stop()
                let exit = helper.process.exit.map { "\($0)" } ?? "closed its socket"
                stop()
                return .ended(exit)
            }
        } catch {
            stop()
            return .malformed(error)
        }
        return .replies(replies)
    }

    /// After a granted verdict: whether the helper then exited, within 2 s, with the granted
    /// status, as it must for the verdict to count. Either way it is gone.
    package func endedGranted() -> Bool {
        guard let helper else { return false }
        let granted = AuthHelper.endedGranted(helper.process)
        if granted { self.helper = nil } else { stop() }
        return granted
    }

    /// The helper ended (SIGCHLD) without the granted status: it is gone, and its exit said.
    package func reap() -> ChildExit? {
        guard let exit, exit != .exited(AuthProtocol.grantedStatus) else { return nil }
        stop()
        return exit
    }
}
