import Glibc
import SlidegateProtocol

/// One end of a protocol socket: frames out, frame bodies in. Writes never block: what the
/// peer has not taken yet waits here and goes with the next send; a peer that lets more
/// than `backlogLimit` bytes pile up counts as hung. Owns the descriptor.
package final class MessageChannel {
    package let descriptor: FileDescriptor
    private var incoming = FrameBuffer()
    private var outgoing: [UInt8] = []
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    package static let backlogLimit = 256 * 1024

    package init(_ descriptor: FileDescriptor) throws(SystemError) {
        self.descriptor = descriptor
        try descriptor.setNonBlocking()
    }

    deinit {
        descriptor.close()
    }

    /// Whether the peer keeps up: false once it has left too much unread.
    package private(set) var keepsUp = true

    /// Sends a message, after anything still waiting; its frame is written straight into
    /// what waits, so a message costs no allocation. A message too long to frame is not
    /// sent: EMSGSIZE.
    package func send(_ message: some Framed) throws(SystemError) {
        guard message.appendFrame(to: &outgoing) else { throw SystemError("a message over the protocol's limit", code: EMSGSIZE) }
        try flush()
    }

    /// Sends what is waiting, as far as the socket takes it.
    package func flush() throws(SystemError) {
        guard !outgoing.isEmpty else { return }
        let sent = try descriptor.write(outgoing)
        outgoing.removeFirst(sent)
        if outgoing.count > Self.backlogLimit { keepsUp = false }
    }

    /// Hands `each` the body of every frame that has arrived (a view, valid during the
    /// call); false once the peer has closed its end and no frame was left.
    package func receive(_ each: (ArraySlice<UInt8>) throws(ProtocolError) -> Void) throws(ProtocolError) -> Bool {
        var closed = false
        while true {
            let n: Int?
            do {
                n = try descriptor.read(into: &readBuffer)
            } catch where error.code == ECONNRESET {
                closed = true
                break
            } catch {
                throw ProtocolError(error.description)
            }
            guard let n else { break }
            if n == 0 {
                closed = true
                break
            }
            incoming.append(readBuffer[..<n])
        }
        var any = false
        while let body = try incoming.next() {
            any = true
            try each(body)
        }
        return !closed || any
    }
}
