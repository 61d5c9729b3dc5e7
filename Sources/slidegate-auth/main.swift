import CPAM
import CXShim
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateXlib

// slidegate-auth: checks answers with PAM for the lock-mode guard, over the socket on
// descriptor 3 (AuthProtocol.swift documents the messages). One PAM transaction per attempt;
// after a granted verdict it exits with AuthProtocol.grantedStatus. It reads answers
// straight into locked memory and is never dumpable.

/// The helper's end of the guard's socket, read and written blocking: the helper does
/// nothing but wait for the guard or for PAM.
final class GuardSocket {
    let fd: Int32 = 3
    let answer: SecretBuffer

    init() throws(SystemError) {
        answer = try SecretBuffer()
    }

    func send(_ reply: AuthReply) {
        do {
            try FileDescriptor(rawValue: fd).writeAll(reply.frame)
        } catch {
            exit(1)
        }
    }

    /// Reads exactly `count` bytes into `pointer`; exits when the guard is gone.
    private func readExactly(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
        var done = 0
        while done < count {
            let n = read(fd, pointer + done, count - done)
            if n > 0 {
                done += n
            } else if n == 0 || errno != EINTR {
                exit(0)
            }
        }
    }

    enum Incoming {
        case request(AuthRequest)
        /// An answer, now in `answer`.
        case answer
    }

    /// The next message. An answer's bytes go straight into the locked buffer.
    func receive() -> Incoming {
        var header = [UInt8](repeating: 0, count: 5)
        header.withUnsafeMutableBytes { readExactly($0.baseAddress!, 5) }
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard (1...GuardProtocol.maximumFrame).contains(length) else { fail("a frame of \(length) bytes") }
        if header[4] == AuthProtocol.answerKind {
            answer.clear()
            let size = length - 1
            guard size <= answer.capacity else { fail("an answer of \(size) bytes") }
            _ = answer.fill(upTo: size) { room in
                readExactly(room.baseAddress!, size)
                return size
            }
            return .answer
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
                socket.send(.prompt(echo: message.style == PAM_PROMPT_ECHO_ON, text: message.text))
                while true {
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
                    }
                    break
                }
            case PAM_ERROR_MSG, PAM_TEXT_INFO:
                socket.send(.notice(error: message.style == PAM_ERROR_MSG, text: message.text))
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
    case PAM_AUTH_ERR, PAM_USER_UNKNOWN: return .verdict(.refused, message: nil)
    default: return .verdict(.refused, message: reason)
    }
}

sg_forbid_core_dumps()
signal(SIGPIPE, SIG_IGN)
guard let account = getpwuid(getuid()) else {
    report("slidegate-auth: no user has uid \(getuid())")
    exit(1)
}
let user = String(cString: account.pointee.pw_name)
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
while true {
    switch socket.receive() {
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
