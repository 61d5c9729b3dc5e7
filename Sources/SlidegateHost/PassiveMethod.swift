import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateProtocol

/// A method that needs no typing (`--auth fingerprint`, `--auth key`): a `slidegate-auth` of
/// its own running one PAM transaction after another on the method's service, from the
/// moment the lock is up, beside whatever else `--auth` asks for. Its texts become banners;
/// its verdicts go to the gate, which decides. A granted verdict counts only when the
/// helper then exits with the granted status.
///
/// When a transaction ends refused, the next starts: at once after a no-match (the gate's
/// `methodLimiter` paces those) unless three in a row came within 2 s of their start each
/// (a reader that refuses without a finger: KDE's rule), and after an error or a time-out
/// (a reader that went to sleep, a device gone) only once the person acts, and never sooner than a back-off that
/// doubles from 0.5 s to 60 s. A helper that ends or misbehaves is replaced after the same
/// back-off. Nothing runs on a timer while the reader waits: a resting lock costs no
/// wake-ups for it.
package final class PassiveMethod {
    package let method: AuthMethod
    private let helper: HelperSupervisor
    private let service: String
    private let tty: String
    /// A transaction runs in the helper.
    private var running = false
    /// The next transaction waits for the person to act (an input to the gate).
    private var waitsForInput = false
    /// The next transaction starts no sooner than this.
    private var notBefore = 0.0
    /// The last `sync` wanted a transaction.
    private var wanted = false
    /// Errors and helper deaths in a row make the next try wait longer.
    private var restarts = RestartPolicy.passiveHelper
    /// When the running transaction began.
    private var began = 0.0
    /// No-matches in a row that came within `quickRefusal` s of their transaction's start.
    private var quickRefusals = 0
    package static let quickRefusal = 2.0
    package static let quickRefusalsToWait = 3
    /// Why the method was last said on stderr not to work (each reason once in a row).
    private var said: String?
    package private(set) var failures = FailureLog()

    /// The method with the helper at `program`, on PAM service `service`; nothing runs until
    /// the first `sync`.
    package init(_ method: AuthMethod, program: Executable, service: String, tty: String) {
        self.method = method
        helper = HelperSupervisor(program, name: "the \(method.rawValue) helper")
        self.service = service
        self.tty = tty
    }

    /// The methods `options` ask for that need no typing, with the helper at `helperPath`;
    /// throws (exit 2) when the helper cannot be used. None starts yet.
    package static func forOptions(_ options: Options, helperPath: String) throws(UserError) -> [PassiveMethod] {
        let passive = options.auth.passive
        guard !passive.isEmpty else { return [] }
        let program: Executable
        do {
            program = try Executable(helperPath)
        } catch {
            throw UserError("--auth: cannot use the authentication helper \(helperPath): \(error)", status: .usage)
        }
        return passive.map { PassiveMethod($0, program: program, service: options.service(for: $0) ?? "", tty: AuthSession.tty) }
    }

    /// Ends the helper, if one runs.
    package func stop() {
        helper.stop()
        running = false
    }

    /// The person acted: a method waiting for that may start again.
    package func personActed() {
        waitsForInput = false
    }

    /// Keeps a transaction running while `wanted` (the gate holds no match of this method
    /// and its limiter lets it), from `notBefore` on; stops the helper while not wanted.
    package func sync(wanted: Bool, notBefore earliest: Double?, at now: Double) {
        self.wanted = wanted
        guard wanted else {
            if running { stop() }
            return
        }
        if let earliest { notBefore = max(notBefore, earliest) }
        guard !running, !waitsForInput, now >= notBefore else { return }
        do {
            try helper.start()
        } catch {
            trouble("cannot start its authentication helper: \(error)", at: now)
            return
        }
        guard helper.send(AuthRequest.begin(service: service, tty: tty)) else {
            trouble("cannot talk to its authentication helper", at: now)
            stop()
            return
        }
        running = true
        began = now
    }

    /// When `sync` next has something to do by itself (a back-off ends), or nil.
    package var deadline: Double? {
        wanted && !running && !waitsForInput ? notBefore : nil
    }

    /// Has `watcher` watch the current helper's socket, calling `handler` when it is readable.
    package func keepWatched(by watcher: DescriptorWatcher, _ handler: @escaping DescriptorHandler) {
        helper.keepWatched(by: watcher, handler)
    }

    /// Reads what the helper said, as the gate takes it.
    package func receive(at now: Double) -> [GateInput] {
        var inputs: [GateInput] = []
        switch helper.read() {
        case nil:
            break
        case .ended(let exit):
            running = false
            trouble("its authentication helper ended (\(exit))", at: now)
        case .malformed(let error):
            running = false
            trouble("its authentication helper sent a malformed message (\(error))", at: now)
        case .replies(let replies):
            for reply in replies {
                switch reply {
                case .hello:
                    break
                case .notice(let error, let text):
                    inputs.append(.authMessage(error ? .error : .info, text.cut(toUTF8: Banner.maximumText)))
                case .prompt:
                    // A method that needs no typing gets none: the stack is set up wrong.
                    _ = helper.send(AuthRequest.cancel)
                    trouble("PAM asks for typing (check /etc/pam.d/\(service): it must need none)", fromPAM: true, at: now)
                case .verdict(.granted, _), .verdict(.grantedPasswordExpired, _):
                    running = false
                    guard helper.endedGranted() else {
                        failures.add()
                        trouble("its authentication helper said yes but did not end as it must", at: now)
                        return inputs + [.methodVerdict(method, granted: false)]
                    }
                    restarts.succeeded()
                    quickRefusals = 0
                    said = nil
                    return inputs + [.methodVerdict(method, granted: true)]
                case .verdict(.cancelled, _):
                    running = false
                case .verdict(.refused, nil):
                    // No match: try again at once (the gate's limiter paces it), unless no
                    // finger could have been read that fast three times running.
                    running = false
                    restarts.succeeded()
                    failures.add()
                    inputs.append(.methodVerdict(method, granted: false))
                    quickRefusals = now - began < Self.quickRefusal ? quickRefusals + 1 : 0
                    if quickRefusals >= Self.quickRefusalsToWait {
                        quickRefusals = 0
                        waitsForInput = true
                        report("--auth \(method.rawValue): refused within \(Self.quickRefusal) s \(Self.quickRefusalsToWait) times running; trying again once the person acts")
                    }
                case .verdict(.refused, let reason?):
                    // An error or a time-out: try again once the person acts.
                    running = false
                    trouble("PAM refused (\(reason))", fromPAM: true, at: now)
                }
            }
        }
        return inputs
    }

    /// The helper ended (SIGCHLD) without a verdict that counts: replaced after a back-off.
    package func reap(at now: Double) {
        guard let exit = helper.reap() else { return }
        running = false
        trouble("its authentication helper ended (\(exit))", at: now)
    }

    /// Something went wrong: said on stderr (once a reason), and the next try waits for the
    /// back-off; after PAM's own error or time-out (`fromPAM`), for the person too.
    private func trouble(_ reason: String, fromPAM: Bool = false, at now: Double) {
        let text = "--auth \(method.rawValue): \(reason)"
        if said != text {
            said = text
            report(text)
        }
        running = false
        if fromPAM { waitsForInput = true }
        notBefore = now + restarts.died(after: 0)
    }
}
