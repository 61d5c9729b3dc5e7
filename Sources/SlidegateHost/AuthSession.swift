import CSystem
import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateProtocol

/// `pam` and `pin` in `--auth`, for whichever process decides (the guard in lock mode, slidegate-ui in
/// windowed mode): the authentication helper it supervises, the secret typed so far (in
/// locked memory), and the keys that edit it. The helper is started, and must answer its
/// handshake, before anything looks locked; it is started again whenever it ends, and the
/// session never unlocks on anything but a granted verdict followed by the helper's
/// dedicated exit status.
package final class AuthSession {
    /// What the helper said, as the gate takes it.
    package enum Event {
        case input(GateInput)
        /// PAM granted, but wants the password changed (which the lock is not the place for).
        case grantedPasswordExpired
    }

    private let helper: HelperSupervisor
    private let service: String
    private let tty: String
    /// The pending answer is the wheels' digits, not a password.
    private var checkingPin = false
    package let secret: SecretBuffer
    /// A transaction runs in the helper.
    private var inTransaction = false
    /// The running transaction has asked for an answer.
    private var prompted = false
    /// A transaction ended refused without asking anything (a stack that denies at once, or
    /// PAM that cannot start): none begins again until the person acts (a key, or the
    /// password stage opening anew), so a stack that cannot work costs nothing and counts
    /// no failures.
    private var unavailable = false
    /// Why authentication was last said on stderr not to be available (each reason once).
    private var saidUnavailable: String?
    /// When the pending answer went to PAM, while it is there.
    private var answeredAt: Double?
    /// The character of the key being handled, for `.secret(.append)`.
    private var typed: Unicode.Scalar?
    /// The failed attempts, for the summary on stderr.
    package private(set) var failures = FailureLog()
    /// Opens the helper and starts it; throws (exit 2) when it cannot start or answer.
    package init(helperPath: String, service: String, tty: String, pinFile: String? = nil) throws(UserError) {
        self.service = service
        self.tty = tty
        do {
            helper = HelperSupervisor(try Executable(helperPath), name: "the authentication helper", pinFile: pinFile)
            secret = try SecretBuffer()
        } catch {
            throw UserError("--auth: cannot use the authentication helper \(helperPath): \(error)", status: .usage)
        }
        do {
            try start()
        } catch {
            throw UserError("--auth: the authentication helper \(helperPath) does not work: \(error)", status: .usage)
        }
    }

    /// The session `options` ask for (nil with `--auth none`), with the helper at
    /// `helperPath`; from here on the process never dumps core (it holds the secret).
    package static func forOptions(_ options: Options, helperPath: String) throws(UserError) -> AuthSession? {
        guard options.auth != .none else { return nil }
        if case let code = sg_forbid_core_dumps(), code != 0 {
            throw SystemError("prctl(PR_SET_DUMPABLE)", code: code).userError(.internalError, "--auth: cannot keep the secret out of core dumps")
        }
        guard options.auth.usesPassword || options.auth.usesPin else { return nil }
        return try AuthSession(
            helperPath: helperPath, service: options.service(for: .pam) ?? "", tty: Self.tty, pinFile: options.auth.usesPin ? options.pinFile : nil)
    }


    /// What PAM_TTY says: the display.
    package static var tty: String { getenv("DISPLAY").map { String(cString: $0) } ?? "" }

    /// Starts the helper and waits (up to 2 s) for its hello.
    private func start() throws(SystemError) {
        try helper.start()
        inTransaction = false
        answeredAt = nil
        checkingPin = false
    }

    /// Keeps the transaction in step with the password stage: one runs while the stage is
    /// open and waits for a prompt; it ends, and the secret is wiped, when the stage closes.
    /// Returns what the gate is to show when no transaction can run.
    package func follow(_ entry: PasswordEntry, wasOpen: Bool) -> GateInput? {
        if entry.isOpen {
            if !wasOpen { unavailable = false }
            if entry.prompt == nil && !entry.checking && !unavailable { return begin() }
        } else if wasOpen {
            cancel()
        }
        return nil
    }

    /// What was typed, for a prompt whose answer may be shown (never a hidden one).
    package func echo(for entry: PasswordEntry) -> String? {
        entry.prompt?.echo == true ? String(decoding: secret.bytes, as: UTF8.self) : nil
    }

    /// Has `watcher` watch the current helper's socket (it changes when the helper is
    /// replaced), calling `handler` when it is readable.
    package func keepWatched(by watcher: DescriptorWatcher, _ handler: @escaping DescriptorHandler) {
        helper.keepWatched(by: watcher, handler)
    }

    /// The password stage opened (or PAM refused and the stage waits for a new prompt):
    /// start a transaction.
    private func begin() -> GateInput? {
        guard !inTransaction else { return nil }
        if !helper.isRunning, let error = restart(reason: nil) {
            return notAvailable("the authentication helper cannot start: \(error)")
        }
        guard helper.send(AuthRequest.begin(service: service, tty: tty)) else { return nil }
        inTransaction = true
        prompted = false
        return nil
    }

    /// The stage closed: the transaction ends without an answer; the secret is wiped.
    private func cancel() {
        secret.clear()
        guard inTransaction, answeredAt == nil else { return }
        _ = helper.send(AuthRequest.cancel)
        inTransaction = false
    }

    /// Starts a new helper after one ended or misbehaved; says why on stderr. Returns why
    /// none could start.
    @discardableResult
    private func restart(reason: String?) -> SystemError? {
        if let reason { report("the authentication helper \(reason); starting another") }
        helper.stop()
        inTransaction = false
        answeredAt = nil
        checkingPin = false
        do {
            try start()
        } catch {
            report("cannot start the authentication helper: \(error)")
            return error
        }
        return nil
    }

    /// Does to the secret what the gate decided. Returns the gate input that follows, if
    /// any (a refusal when the answer could not even be sent).
    package func apply(_ edit: SecretEdit, at now: Double) -> GateInput? {
        switch edit {
        case .append:
            if let typed { secret.append(typed) }
        case .deleteLast:
            secret.removeLastCharacter()
        case .clear:
            secret.clear()
        case .submit:
            defer { secret.clear() }
            guard inTransaction else { return failure("the authentication helper is not running") }
            return sendSecret(kind: AuthProtocol.answerKind, at: now)
        }
        return nil
    }

    /// Sends the wheels' digits for the helper to check against the PIN file (`.checkPin`);
    /// they pass through the locked buffer and are wiped once sent. Returns the refusal
    /// when they could not be sent.
    package func checkPin(_ digits: [Int], at now: Double) -> GateInput? {
        secret.clear()
        defer { secret.clear() }
        for d in digits { secret.append(Unicode.Scalar(UInt8(clamping: 48 + min(max(d, 0), 9)))) }
        if !helper.isRunning { restart(reason: nil) }
        checkingPin = true
        return sendSecret(kind: AuthProtocol.pinKind, at: now)
    }

    /// Writes the secret, framed as `kind`, straight from the locked buffer.
    private func sendSecret(kind: UInt8, at now: Double) -> GateInput? {
        guard helper.isRunning else { return failure("the authentication helper is not running") }
        do {
            try helper.sendSecret(kind: kind, secret)
        } catch {
            let refusal = failure(checkingPin ? "the PIN could not be checked" : "the password could not be checked")
            restart(reason: "could not take the answer (\(error))")
            return refusal
        }
        answeredAt = now
        return nil
    }

    /// No transaction can ask anything (PAM refused before asking, or no helper starts): no
    /// attempt failed, but none can succeed until something changes. Said on stderr once
    /// for each reason, shown as a banner each time.
    private func notAvailable(_ reason: String?) -> GateInput {
        unavailable = true
        let text = ("authentication is not available" + (reason.map { " (\($0))" } ?? "")).cut(toUTF8: 1024)
        if saidUnavailable != text {
            saidUnavailable = text
            let hint = helper.isStarted ? ": PAM refused before asking for anything (check /etc/pam.d/\(service))" : ""
            report(text + hint)
        }
        return .authMessage(.error, text.cut(toUTF8: Banner.maximumText))
    }

    /// What the pending answer is, for messages.
    private var checked: String { checkingPin ? "PIN" : "password" }

    /// A failed attempt, counted for the summary on stderr: of the PIN if one was being
    /// checked, else of the password.
    private func failure(_ message: String?) -> GateInput {
        failures.add()
        if checkingPin {
            checkingPin = false
            return .pinVerdict(granted: false, message: message)
        }
        return .authVerdict(granted: false, message: message)
    }

    /// When the answer with PAM counts as hung, while one is there.
    package var answerDeadline: Double? { answeredAt.map { $0 + AuthProtocol.answerLimit } }

    /// Called on every pass: a hung check is a failed attempt.
    package func check(at now: Double) -> GateInput? {
        guard let deadline = answerDeadline, now >= deadline else { return nil }
        let refusal = failure("the \(checked) check took too long")
        restart(reason: "did not answer within \(Int(AuthProtocol.answerLimit)) s")
        return refusal
    }

    /// Reads what the helper said. A helper that ended, closed its socket or said something
    /// malformed is replaced; if an answer was with it, that is a failed attempt.
    package func receive() -> [Event] {
        var events: [Event] = []
        switch helper.read() {
        case nil:
            break
        case .ended(let exit):
            if answeredAt != nil { events.append(.input(failure("the \(checked) check failed"))) }
            restart(reason: "ended (\(exit))")
        case .malformed(let error):
            if answeredAt != nil { events.append(.input(failure("the \(checked) check failed"))) }
            restart(reason: "sent a malformed message (\(error))")
        case .replies(let replies):
            for reply in replies {
                switch reply {
                case .hello: break
                case .prompt(let echo, let text):
                    prompted = true
                    events.append(.input(.authPrompt(PasswordEntry.Prompt(text: text.cut(toUTF8: AuthProtocol.maximumPrompt), echo: echo))))
                case .notice(let error, let text):
                    events.append(.input(.authMessage(error ? .error : .info, text.cut(toUTF8: Banner.maximumText))))
                case .verdict(.refused, let message) where !prompted && answeredAt == nil && !checkingPin:
                    inTransaction = false
                    events.append(.input(notAvailable(message)))
                case .verdict(.cancelled, _):
                    // A transaction the person left; a PIN check may be pending behind it.
                    inTransaction = false
                case .verdict(let outcome, let message):
                    inTransaction = false
                    answeredAt = nil
                    switch outcome {
                    case .cancelled: break
                    case .refused: events.append(.input(failure(message?.cut(toUTF8: Banner.maximumText))))
                    case .granted, .grantedPasswordExpired:
                        events.append(confirmGranted(expired: outcome == .grantedPasswordExpired))
                    }
                }
            }
        }
        return events
    }

    /// A granted verdict counts only when the helper then exits with the granted status.
    private func confirmGranted(expired: Bool) -> Event {
        guard helper.isStarted else { return .input(failure(nil)) }
        guard helper.endedGranted() else {
            let refusal = failure("the \(checked) check failed")
            restart(reason: "said yes but did not end as it must")
            return .input(refusal)
        }
        if checkingPin {
            checkingPin = false
            return .input(.pinVerdict(granted: true, message: nil))
        }
        return expired ? .grantedPasswordExpired : .input(.authVerdict(granted: true, message: nil))
    }

    /// The helper ended (SIGCHLD): replaced; an answer with it is a failed attempt.
    package func reap() -> GateInput? {
        guard let exit = helper.reap() else { return nil }
        let refusal = answeredAt != nil ? failure("the \(checked) check failed") : nil
        restart(reason: "ended (\(exit))")
        return refusal
    }

    /// The person pressed a key (`PasswordKey` says what it is to the password stage, nil
    /// for one that means nothing there): a stack that was not available is tried again,
    /// and the character the key types is kept for `.secret(.append)`.
    package func take(_ key: PasswordKey?) -> EntryKey? {
        unavailable = false
        typed = key?.character
        return key?.entry
    }
}
