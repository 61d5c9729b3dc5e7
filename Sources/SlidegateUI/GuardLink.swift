import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateSystem
import SlidegateXlib

/// Lock mode's UI end of the guard's socket (descriptor 3): the guard's messages in, the
/// UI's answers out. A message it cannot understand ends the UI with
/// `ExitStatus.uiProtocolError`, which the guard reports.
final class GuardLink {
    private let channel: MessageChannel
    /// The guard's hello came (it must come first, and once).
    private var greeted = false

    init(descriptor: Int32) throws(UserError) {
        do {
            channel = try MessageChannel(FileDescriptor(rawValue: descriptor))
        } catch {
            throw error.userError(.internalError, "--lock-ui: descriptor \(descriptor)")
        }
    }

    var descriptor: Int32 { channel.descriptor.rawValue }

    /// Appends the messages that have arrived to `messages` (a buffer the caller reuses, so
    /// a message costs no allocation); false once the guard closed its end (the lock is over).
    func receive(into messages: inout [GuardMessage]) throws(UserError) -> Bool {
        do {
            return try channel.receive { (body) throws(ProtocolError) in
                let message = try GuardMessage(body: body)
                if case .hello(let version, let build) = message {
                    guard !greeted else { throw ProtocolError("a second hello") }
                    guard version == GuardProtocol.version else {
                        throw ProtocolError("the guard (build \(build)) speaks protocol \(version), this UI \(GuardProtocol.version)")
                    }
                    greeted = true
                } else if !greeted {
                    throw ProtocolError("\(message.kind) before hello")
                }
                messages.append(message)
            }
        } catch {
            throw UserError("--lock-ui: cannot understand the guard: \(error)", status: .uiProtocolError)
        }
    }

    /// Waits until the guard has sent something or closed its end; false if it closed it
    /// with nothing sent. A UI started before the lock is taken waits here before it talks
    /// to the X server: a guard that ends first (a bad PIN file, no display) has said why,
    /// and its UI leaves without a word.
    func guardSpoke() -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = try? retryingInterrupts("poll") { poll(&entry, 1, -1) }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) != 0
    }

    /// Sends an answer; a guard that is gone is noticed when its end closes.
    func send(_ message: UIMessage) {
        try? channel.send(message)
    }
}
