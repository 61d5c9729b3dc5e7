// The protocol between the decider (the guard in lock mode, slidegate-ui in windowed mode:
// whichever runs the `GateHost`) and the authentication helper, `slidegate-auth`, over a
// Unix stream socket only the decider holds (the helper's descriptor 3), in the framing of
// `GuardProtocol` (Framing.swift). The helper is started before the screen is locked and
// runs one PAM transaction per attempt.
//
// HANDSHAKE: the guard sends `hello`; the helper answers `hello`; protocol numbers must match.
//
// GUARD → HELPER
//   hello   (1)  u32 protocol, string build
//   begin   (2)  string service, string tty: start a transaction (pam_start as the user
//                slidegate runs as; PAM_TTY the display, PAM_RUSER that user, PAM_RHOST
//                localhost) and run pam_authenticate, then pam_acct_mgmt
//   answer  (3)  the answer to the pending prompt: the rest of the frame, raw bytes. The
//                guard writes it straight from its locked buffer; the helper reads it
//                straight into its own. It is the only message that carries a secret.
//   cancel  (4)  end the pending conversation without an answer (the person went back)
//   pin file (5) string path: where the PIN file is (`--auth pin`), sent after the hello
//   pin     (6)  the wheels' digits as ASCII: the rest of the frame, raw bytes, written and
//                read like `answer`. Outside a transaction only; the helper checks them
//                against the PIN file's hash with crypt_rn and a constant-time compare,
//                and answers with `verdict` (granted or refused, with a reason when the
//                PIN file could not be used).
//
// HELPER → GUARD
//   hello   (1)  u32 protocol, string build
//   prompt  (5)  u8 echo (1: PAM_PROMPT_ECHO_ON, the answer may be shown), string text
//   notice  (6)  u8 kind (0 PAM_TEXT_INFO, 2 PAM_ERROR_MSG), string text
//   verdict (7)  u8 outcome (0 refused, 1 granted, 2 cancelled, 3 granted but PAM wants a
//                new password), u8 has message, [string PAM's reason]
//
// After `granted` (1 or 3) the helper exits with `AuthProtocol.grantedStatus`; the guard
// unlocks only on that verdict *and* that exit status. Any other ending — another status,
// a crash, no verdict within `AuthProtocol.answerLimit` of an answer — is a failed attempt.
package enum AuthProtocol {
    package static let version: UInt32 = 2
    /// The helper's exit status after a granted verdict, and only then.
    package static let grantedStatus: Int32 = 42
    /// Seconds PAM may take over an answer before the helper is taken for hung.
    package static let answerLimit = 60.0
    /// The longest prompt text taken from PAM, in bytes of UTF-8 (longer ones are cut, by
    /// the helper and again by the decider).
    package static let maximumPrompt = 256
    package static let answerKind = AuthRequest.Kind.answer.rawValue
    package static let pinKind = AuthRequest.Kind.pin.rawValue

    /// The start of an `answer` or `pin` frame (`kind`) whose secret, `secretLength` bytes,
    /// the sender writes after it from its locked buffer: the frame's length, then the kind.
    package static func secretHeader(kind: UInt8, secretLength: Int) -> [UInt8] {
        var w = FrameWriter()
        w.u32(UInt32(clamping: secretLength + 1))
        w.u8(kind)
        return w.body
    }
}

package enum AuthRequest: Framed, Equatable, Sendable {
    case hello(protocol: UInt32, build: String)
    case begin(service: String, tty: String)
    case cancel
    case pinFile(String)

    /// The byte that names a request on the wire; `answer` and `pin` carry a secret and are
    /// written and read apart (`AuthProtocol.secretHeader`).
    package enum Kind: UInt8, CaseIterable, Sendable {
        case hello = 1, begin, answer, cancel, pinFile, pin
    }

    @discardableResult
    package func appendFrame(to buffer: inout [UInt8]) -> Bool {
        FrameWriter.append(to: &buffer) { w in
            switch self {
            case .hello(let version, let build): w.hello(version, build)
            case .begin(let service, let tty):
                w.u8(Kind.begin.rawValue)
                w.string(service)
                w.string(tty)
            case .cancel: w.u8(Kind.cancel.rawValue)
            case .pinFile(let path):
                w.u8(Kind.pinFile.rawValue)
                w.string(path)
            }
        }
    }

    /// Reads a request's body; an `answer` (which is read apart, into locked memory) is not one.
    package init(body: ArraySlice<UInt8>) throws(ProtocolError) {
        var r = FrameReader(body)
        let byte = try r.u8()
        guard let kind = Kind(rawValue: byte) else { throw ProtocolError("unknown request kind \(byte)") }
        switch kind {
        case .hello: self = .hello(protocol: try r.u32(), build: try r.string())
        case .begin: self = .begin(service: try r.string(), tty: try r.string())
        case .cancel: self = .cancel
        case .pinFile: self = .pinFile(try r.string())
        case .answer, .pin: throw ProtocolError("a secret where a request was expected")
        }
        try r.end()
    }
}

package enum AuthOutcome: UInt8, Equatable, Sendable {
    case refused = 0, granted = 1, cancelled = 2, grantedPasswordExpired = 3
}

package enum AuthReply: Framed, Equatable, Sendable {
    case hello(protocol: UInt32, build: String)
    case prompt(echo: Bool, text: String)
    case notice(error: Bool, text: String)
    case verdict(AuthOutcome, message: String?)

    /// The byte that names a reply on the wire.
    package enum Kind: UInt8, CaseIterable, Sendable {
        case hello = 1, prompt = 5, notice, verdict
    }

    @discardableResult
    package func appendFrame(to buffer: inout [UInt8]) -> Bool {
        FrameWriter.append(to: &buffer) { w in
            switch self {
            case .hello(let version, let build): w.hello(version, build)
            case .prompt(let echo, let text):
                w.u8(Kind.prompt.rawValue)
                w.bool(echo)
                w.string(text)
            case .notice(let error, let text):
                w.u8(Kind.notice.rawValue)
                w.u8(error ? 2 : 0)
                w.string(text)
            case .verdict(let outcome, let message):
                w.u8(Kind.verdict.rawValue)
                w.u8(outcome.rawValue)
                w.optional(message) { $0.string($1) }
            }
        }
    }

    package init(body: ArraySlice<UInt8>) throws(ProtocolError) {
        var r = FrameReader(body)
        let byte = try r.u8()
        guard let kind = Kind(rawValue: byte) else { throw ProtocolError("unknown reply kind \(byte)") }
        switch kind {
        case .hello: self = .hello(protocol: try r.u32(), build: try r.string())
        case .prompt: self = .prompt(echo: try r.bool(), text: try r.string())
        case .notice:
            let noticeKind = try r.u8()
            guard noticeKind == 0 || noticeKind == 2 else { throw ProtocolError("notice: unknown kind \(noticeKind)") }
            self = .notice(error: noticeKind == 2, text: try r.string())
        case .verdict:
            let raw = try r.u8()
            guard let outcome = AuthOutcome(rawValue: raw) else { throw ProtocolError("verdict: unknown outcome \(raw)") }
            self = .verdict(outcome, message: try r.optionalString())
        }
        try r.end()
    }
}
