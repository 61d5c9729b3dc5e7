import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateSystem
import SlidegateXlib

/// One lock-mode UI process and the socket the guard talks to it through (its descriptor
/// 3), with what the guard knows of it: whether it answered the handshake, has drawn, and
/// answers pings.
final class UIProcess {
    let process: ChildProcess
    let channel: MessageChannel
    /// It said `drawn`: the slider it painted is on screen.
    private(set) var drawn = false
    /// The ping it has not answered yet, and when it went.
    private var unanswered: (sequence: UInt32, sent: Double)?
    private var sequence: UInt32 = 0
    /// Its hello came (it must come first, and once).
    private var greeted = false

    /// How long a UI may leave a ping unanswered before it counts as hung.
    static let answerTime = 1.0

    /// Starts `program` with the guard's end of `socket` kept here; the UI's end becomes
    /// its descriptor 3 and is closed here once it started.
    init(_ program: Executable, socket: (guardEnd: FileDescriptor, uiEnd: FileDescriptor)) throws(SystemError) {
        defer { socket.uiEnd.close() }
        do {
            channel = try MessageChannel(socket.guardEnd)
        } catch {
            socket.guardEnd.close()
            throw error
        }
        process = try program.start(["--lock-ui"], descriptors: [3: socket.uiEnd.rawValue])
    }

    /// Sends a message; says why when the UI must be replaced (it stopped taking them, or
    /// the message could not be framed and the UI would go on without it).
    func send(_ message: GuardMessage) -> String? {
        do {
            try channel.send(message)
        } catch where error.code == EMSGSIZE {
            return "missed a message over the protocol's limit"
        } catch {
            return "stopped reading"
        }
        return channel.keepsUp ? nil : "stopped reading"
    }

    /// What one read brought from the UI.
    struct Received {
        /// The UI has drawn a whole frame.
        var drawn = false
        /// It answered a ping.
        var answered = false
        /// It answered `lend`: the slider's parts (`.some(nil)`: not lent).
        var lendAnswer: SliderParts??
        /// The controls it shows now, when it said.
        var controls: [LockControl]?
    }

    /// What the UI said; nil once it closed its end. Throws on a malformed message.
    func receive() throws(ProtocolError) -> Received? {
        var received = Received()
        let open = try channel.receive { (body) throws(ProtocolError) in
            let message = try UIMessage(body: body)
            guard greeted || message.kind == .hello else { throw ProtocolError("\(message.kind) before hello") }
            switch message {
            case .hello where greeted:
                throw ProtocolError("a second hello")
            case .hello(let version, let build) where version != GuardProtocol.version:
                throw ProtocolError("the UI speaks protocol \(version) (build \(build)), the guard \(GuardProtocol.version)")
            case .hello:
                greeted = true
            case .drawn:
                drawn = true
                received.drawn = true
            case .pong(let answered):
                if answered == unanswered?.sequence { unanswered = nil }
                received.answered = true
            case .lent(let parts):
                received.lendAnswer = .some(parts)
            case .notLent:
                received.lendAnswer = .some(nil)
            case .controls(let shown):
                received.controls = shown
            }
        }
        return open ? received : nil
    }

    /// Pings the UI, unless a ping is still unanswered; says why when the UI must be replaced.
    func ping(at now: Double) -> String? {
        guard unanswered == nil else { return nil }
        sequence &+= 1
        unanswered = (sequence, now)
        return send(.ping(sequence))
    }

    /// By when the UI must answer the ping it has, or nil when it owes none.
    var answerDue: Double? { unanswered.map { $0.sent + Self.answerTime } }

    /// The screen blanked: the UI sleeps and owes no answer.
    func forgetPing() {
        unanswered = nil
    }

    /// Why it ended, in words for stderr.
    static func describe(_ exit: ChildExit) -> String {
        exit == .exited(GuardProtocol.uiStatus) ? "it did not understand the guard's messages" : "\(exit)"
    }
}

/// A UI started before the lock, held until the guard hands it the windows (`take`). A
/// guard that gives up before that (no grab, no cover) ends it and reaps it as it goes, so
/// that nothing of the lock outlives the error.
final class EarlyUI {
    private var process: UIProcess?

    init(_ process: UIProcess) {
        self.process = process
    }

    func take() -> UIProcess? {
        defer { process = nil }
        return process
    }

    deinit {
        process?.process.stop()
    }
}
