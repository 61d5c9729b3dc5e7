import SlidegateCore
import SlidegateProtocol
import SlidegateXlib

/// Lock mode's UI end of the guard's socket (descriptor 3): the guard's messages in, the
/// UI's answers out. A message it cannot understand ends the UI with
/// `ExitStatus.uiProtocolError`, which the guard reports.
final class GuardLink {
    private let channel: MessageChannel

    init(descriptor: Int32) throws(UserError) {
        do {
            channel = try MessageChannel(FileDescriptor(rawValue: descriptor))
        } catch {
            throw error.userError(.internalError, "--lock-ui: descriptor \(descriptor)")
        }
    }

    var descriptor: Int32 { channel.descriptor.rawValue }

    /// The messages that have arrived; nil once the guard closed its end (the lock is over).
    func receive() throws(UserError) -> [GuardMessage]? {
        do {
            guard let bodies = try channel.receive() else { return nil }
            var messages: [GuardMessage] = []
            for body in bodies {
                let message = try GuardMessage(body: body)
                if case .hello(let version, let build) = message, version != GuardProtocol.version {
                    throw ProtocolError("the guard (build \(build)) speaks protocol \(version), this UI \(GuardProtocol.version)")
                }
                messages.append(message)
            }
            return messages
        } catch {
            throw UserError("--lock-ui: cannot understand the guard: \(error)", status: .uiProtocolError)
        }
    }

    /// Sends an answer; a guard that is gone is noticed when its end closes.
    func send(_ message: UIMessage) {
        try? channel.send(message.frame)
    }
}
