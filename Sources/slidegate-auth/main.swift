import CCrypt
import CPAM
import CSystem
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateSystem

// slidegate-auth: checks answers with PAM, and PINs, for the decider (the guard in lock mode,
// slidegate-ui in windowed mode), over the socket on descriptor 3 (AuthProtocol.swift documents the messages). One PAM transaction per attempt;
// after a granted verdict it exits with AuthProtocol.grantedStatus. It reads answers
// straight into locked memory, is never dumpable (installed setgid, from its first
// instruction on), and takes no secret while traced.

/// The helper's end of the guard's socket, read and written blocking: the helper does
/// nothing but wait for the guard or for PAM.
final class GuardSocket {
    let fd: Int32 = 3
    let answer: SecretBuffer

    init() throws(SystemError) {
        answer = try SecretBuffer()
    }

    func send(_ reply: AuthReply) {
        let frame = reply.frame
        guard !frame.isEmpty else {
            report("slidegate-auth: a reply over the protocol's limit")
            exit(1)
        }
        do {
            try FileDescriptor(rawValue: fd).writeAll(frame)
        } catch {
            exit(1)
        }
    }

    /// Reads exactly `count` bytes into `pointer`; exits when the guard is gone.
    private func readExactly(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
        var done = 0
        while done < count {
            guard let n = try? retryingInterrupts("read", { read(fd, pointer + done, count - done) }), n > 0 else { exit(0) }
            done += n
        }
    }

    enum Incoming {
        case request(AuthRequest)
        /// An answer, now in `answer`.
        case answer
        /// The wheels' digits, now in `answer`.
        case pin
    }

    /// The next message. An answer's bytes go straight into the locked buffer.
    func receive() -> Incoming {
        var header = [UInt8](repeating: 0, count: 5)
        header.withUnsafeMutableBytes { readExactly($0.baseAddress!, 5) }
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard (1...GuardProtocol.maximumFrame).contains(length) else { fail("a frame of \(length) bytes") }
        if header[4] == AuthProtocol.answerKind || header[4] == AuthProtocol.pinKind {
            refuseIfTraced()
            answer.clear()
            let size = length - 1
            guard size <= answer.capacity else { fail("an answer of \(size) bytes") }
            _ = answer.fill(upTo: size) { room in
                readExactly(room.baseAddress!, size)
                return size
            }
            return header[4] == AuthProtocol.pinKind ? .pin : .answer
        }
        var body = [UInt8](repeating: 0, count: length)
        body[0] = header[4]
        if length > 1 { body.withUnsafeMutableBytes { readExactly($0.baseAddress! + 1, length - 1) } }
        do {
            return .request(try AuthRequest(body: body[...]))
        } catch {
            fail(error.description)
        }
    }

    func fail(_ why: String) -> Never {
        report("slidegate-auth: cannot understand the guard: \(why)")
        exit(ExitStatus.uiProtocolError.code)
    }
}

/// A process tracing the helper could read the secret from its memory or rewrite its
/// verdict: the helper takes no secret while traced, and ends instead.
func refuseIfTraced() {
    let tracer = sg_tracer_pid()
    guard tracer != 0 else { return }
    report("slidegate-auth: " + (tracer > 0 ? "traced by process \(tracer)" : "cannot tell whether it is traced") + "; refusing to take a secret")
    exit(1)
}

/// One PAM transaction's conversation: prompts go to the guard, answers come back.
final class Conversation {
    let socket: GuardSocket
    /// The person went back: the conversation ended without an answer.
    var cancelled = false

    init(_ socket: GuardSocket) {
        self.socket = socket
    }

    func converse(_ messages: [(style: Int32, text: String)]) -> [UnsafeMutablePointer<CChar>?]? {
        var answers: [UnsafeMutablePointer<CChar>?] = []
        for message in messages {
            switch message.style {
            case PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON:
                socket.send(.prompt(echo: message.style == PAM_PROMPT_ECHO_ON, text: message.text.cut(toUTF8: AuthProtocol.maximumPrompt)))
                switch socket.receive() {
                case .answer:
                    // PAM frees its answers (pam_unix wipes them first); the locked copy is
                    // wiped here at once.
                    let bytes = socket.answer.bytes
                    let copy = bytes.isEmpty ? strdup("") : strndup(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
                    socket.answer.clear()
                    answers.append(copy)
                case .request(.cancel):
                    cancelled = true
                    answers.forEach { free($0) }
                    return nil
                case .request(let other):
                    socket.fail("\(other) in the middle of a conversation")
                case .pin:
                    socket.fail("a PIN in the middle of a conversation")
                }
            case PAM_ERROR_MSG, PAM_TEXT_INFO:
                socket.send(.notice(error: message.style == PAM_ERROR_MSG, text: message.text.cut(toUTF8: Banner.maximumText)))
                answers.append(nil)
            default:
                answers.forEach { free($0) }
                return nil
            }
        }
        return answers
    }
}

/// PAM's conversation callback: hands the messages to the `Conversation` in `context`.
func converse(
    _ count: Int32, _ messages: UnsafeMutablePointer<UnsafePointer<pam_message>?>?,
    _ responses: UnsafeMutablePointer<UnsafeMutablePointer<pam_response>?>?, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    guard let messages, let responses, let context, count > 0 else { return PAM_CONV_ERR }
    let conversation = Unmanaged<Conversation>.fromOpaque(context).takeUnretainedValue()
    let list = (0..<Int(count)).map { i -> (Int32, String) in
        let message = messages[i]!.pointee
        return (message.msg_style, message.msg.map { String(cString: $0) } ?? "")
    }
    guard let answers = conversation.converse(list.map { (style: $0.0, text: $0.1) }) else { return PAM_CONV_ERR }
    let replies = calloc(Int(count), MemoryLayout<pam_response>.stride)!.assumingMemoryBound(to: pam_response.self)
    for (i, answer) in answers.enumerated() { replies[i] = pam_response(resp: answer, resp_retcode: 0) }
    responses.pointee = replies
    return PAM_SUCCESS
}

/// Runs one transaction; returns the verdict to send.
func authenticate(service: String, tty: String, user: String, socket: GuardSocket) -> AuthReply {
    let conversation = Conversation(socket)
    let context = Unmanaged.passRetained(conversation)
    defer { context.release() }
    var conv = pam_conv(conv: { converse($0, $1, $2, $3) }, appdata_ptr: context.toOpaque())
    var handle: OpaquePointer?
    var status = pam_start(service, user, &conv, &handle)
    guard status == PAM_SUCCESS, let handle else {
        return .verdict(.refused, message: "PAM could not start (\(String(cString: pam_strerror(nil, status))))")
    }
    _ = pam_set_item(handle, PAM_TTY, tty)
    _ = pam_set_item(handle, PAM_RUSER, user)
    _ = pam_set_item(handle, PAM_RHOST, "localhost")
    status = pam_authenticate(handle, 0)
    if status == PAM_SUCCESS { status = pam_acct_mgmt(handle, 0) }
    let reason = String(cString: pam_strerror(handle, status))
    pam_end(handle, status)
    if conversation.cancelled { return .verdict(.cancelled, message: nil) }
    switch status {
    case PAM_SUCCESS: return .verdict(.granted, message: nil)
    case PAM_NEW_AUTHTOK_REQD: return .verdict(.grantedPasswordExpired, message: nil)
    // A plain refusal: no reason given, the person tries again (a no-match is one).
    case PAM_AUTH_ERR, PAM_USER_UNKNOWN, PAM_MAXTRIES: return .verdict(.refused, message: nil)
    default: return .verdict(.refused, message: reason)
    }
}

/// Checks the digits in `answer` against the PIN file at `path`: the verdict to send.
func checkPin(_ answer: SecretBuffer, against path: String?) -> AuthReply {
    defer { answer.clear() }
    guard let path else { return .verdict(.refused, message: "no PIN file was given") }
    let file: PinFile
    do {
        file = try PinFile.load(path)
    } catch {
        return .verdict(.refused, message: "the PIN file cannot be used")
    }
    guard answer.count == file.length, answer.bytes.allSatisfy({ (48...57).contains($0) }), let phrase = answer.cString
    else { return .verdict(.refused, message: nil) }
    return PinHasher.matches(phrase, file.hash) ? .verdict(.granted, message: nil) : .verdict(.refused, message: nil)
}

/// crypt(5) with libxcrypt, its work space in locked memory that is wiped after each use.
enum PinHasher {
    /// Hashes `phrase` with `setting` (a hash, or a salt from crypt_gensalt); nil on failure.
    static func hash(_ phrase: UnsafePointer<CChar>, setting: String) -> String? {
        guard let data = try? SecretBuffer(capacity: MemoryLayout<crypt_data>.size) else { return nil }
        defer { data.clear() }
        let result = setting.withCString { crypt_rn(phrase, $0, data.scratch, Int32(MemoryLayout<crypt_data>.size)) }
        guard let result, result.pointee != 0x2A else { return nil }
        return String(cString: result)
    }

    /// Whether `phrase` hashes to `hash`, compared in constant time.
    static func matches(_ phrase: UnsafePointer<CChar>, _ hash: String) -> Bool {
        guard let computed = self.hash(phrase, setting: hash) else { return false }
        let a = Array(computed.utf8)
        let b = Array(hash.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}

/// `slidegate --set-pin`: reads a new PIN twice (from the terminal without echo, or two
/// lines of standard input) and writes the PIN file atomically, mode 0600, its directory
/// made 0700. Returns the exit status.
func setPin(path: String) -> ExitStatus {
    func fail(_ message: String, _ status: ExitStatus = .usage) -> ExitStatus {
        report(message)
        return status
    }
    guard let first = try? SecretBuffer(capacity: 256), let second = try? SecretBuffer(capacity: 256) else {
        return fail("--set-pin: cannot lock memory for the PIN", .internalError)
    }
    let terminal = isatty(0) == 1
    for (buffer, prompt) in [(first, "New PIN (4 to 12 digits): "), (second, "The same PIN again: ")] {
        guard readLine(into: buffer, prompt: terminal ? prompt : nil) else {
            return fail("--set-pin: expected the PIN twice, \(terminal ? "typed" : "on two lines of standard input")")
        }
    }
    guard first.count == second.count, first.bytes.elementsEqual(second.bytes) else {
        return fail("--set-pin: the two PINs differ; nothing was written")
    }
    guard PinFile.lengths.contains(first.count), first.bytes.allSatisfy({ (48...57).contains($0) }), let phrase = first.cString
    else { return fail("--set-pin: expected a PIN of 4 to 12 digits (0-9 only); nothing was written") }
    guard let salt = crypt_gensalt("$y$", 0, nil, 0), let hash = PinHasher.hash(phrase, setting: String(cString: salt)) else {
        return fail("--set-pin: libxcrypt cannot make a yescrypt hash", .internalError)
    }
    let file = PinFile(length: first.count, hash: hash)
    do {
        try writeAtomically(file.line, to: path)
    } catch {
        return fail("--set-pin: \(error.message)", error.status)
    }
    if terminal { print("PIN set in \(path)") }
    return .completed
}

/// Reads one line into `buffer` (without its newline), with echo off while a terminal
/// prompt shows; false at the end of input or when it does not fit.
func readLine(into buffer: SecretBuffer, prompt: String?) -> Bool {
    var saved = termios()
    let terminal = prompt != nil && tcgetattr(0, &saved) == 0
    if let prompt {
        _ = prompt.withCString { write(2, $0, strlen($0)) }
    }
    if terminal {
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &quiet)
    }
    defer {
        if terminal {
            tcsetattr(0, TCSAFLUSH, &saved)
            _ = write(2, "\n", 1)
        }
    }
    var byte: UInt8 = 0
    while true {
        let n = try? retryingInterrupts("read") { read(0, &byte, 1) }
        guard n == 1 else { return buffer.count > 0 }
        if byte == 10 { return true }
        guard buffer.count < 255, buffer.fill(upTo: 1, { room in
            room[0] = byte
            return 1
        }) == 1 else { return false }
    }
}

/// Writes `text` to `path` through a temporary file in the same directory (mode 0600),
/// flushed and renamed into place; makes the directory (0700) if it is missing.
func writeAtomically(_ text: String, to path: String) throws(UserError) {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    let directory = parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
    func problem(_ what: String) -> UserError {
        UserError("\(what) (\(String(cString: strerror(errno))))", status: .usage)
    }
    var prefix = directory.hasPrefix("/") ? "" : "."
    for part in directory.split(separator: "/") {
        prefix += "/" + part
        if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw problem("cannot make the directory \(prefix)") }
    }
    var template = Array((directory + "/.pin-XXXXXX").utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw problem("cannot write in \(directory)") }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var done = false
    defer {
        close(fd)
        if !done { unlink(temporary) }
    }
    guard fchmod(fd, 0o600) == 0 else { throw problem("cannot set the mode of \(temporary)") }
    do {
        try FileDescriptor(rawValue: fd).writeAll(Array(text.utf8))
    } catch {
        throw UserError("cannot write \(temporary) (\(error))", status: .usage)
    }
    guard fsync(fd) == 0 else { throw problem("cannot flush \(temporary)") }
    guard rename(temporary, path) == 0 else { throw problem("cannot put the PIN file at \(path)") }
    done = true
}

// Installed setgid, the helper started non-dumpable; the group's only use was that.
guard sg_drop_group() == 0 else {
    report("slidegate-auth: cannot give up its group (\(String(cString: strerror(errno))))")
    exit(1)
}
if case let code = sg_forbid_core_dumps(), code != 0 {
    report("slidegate-auth: cannot keep secrets out of core dumps (\(String(cString: strerror(code))))")
    exit(1)
}
if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--set-pin" {
    exit(setPin(path: CommandLine.arguments[2]).code)
}
refuseIfTraced()
// A helper blocked in PAM (a reader waiting for a finger) reads nothing from the guard: it
// ends with the guard instead of noticing its socket close.
if case let code = sg_die_with_parent(), code != 0 {
    report("slidegate-auth: cannot end with the guard (\(String(cString: strerror(code))))")
    exit(1)
}
signal(SIGPIPE, SIG_IGN)
guard let account = getpwuid(getuid()) else {
    report("slidegate-auth: no user has uid \(getuid())")
    exit(1)
}
/// Answers the guard's requests until one is granted (then exits with
/// `AuthProtocol.grantedStatus`) or the guard goes away.
func serve(user: String) -> Never {
    let socket: GuardSocket
    do {
        socket = try GuardSocket()
    } catch {
        report("slidegate-auth: \(error)")
        exit(1)
    }
    guard case .request(.hello(let version, _)) = socket.receive(), version == AuthProtocol.version else {
        socket.fail("no hello, or another protocol")
    }
    socket.send(.hello(protocol: AuthProtocol.version, build: Options.version))
    var pinFile: String?
    while true {
        switch socket.receive() {
        case .request(.pinFile(let path)):
            pinFile = path
        case .pin:
            let verdict = checkPin(socket.answer, against: pinFile)
            socket.send(verdict)
            if case .verdict(.granted, _) = verdict { exit(AuthProtocol.grantedStatus) }
        case .request(.begin(let service, let tty)):
            let verdict = authenticate(service: service, tty: tty, user: user, socket: socket)
            socket.send(verdict)
            if case .verdict(.granted, _) = verdict { exit(AuthProtocol.grantedStatus) }
            if case .verdict(.grantedPasswordExpired, _) = verdict { exit(AuthProtocol.grantedStatus) }
        case .request(.cancel):
            continue
        case .answer:
            socket.answer.clear()
        case .request(.hello):
            socket.fail("a second hello")
        }
    }
}

serve(user: String(cString: account.pointee.pw_name))
