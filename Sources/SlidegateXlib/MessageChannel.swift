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

    /// Sends a frame, after anything still waiting.
    package func send(_ frame: [UInt8]) throws(SystemError) {
        outgoing += frame
        try flush()
    }

    /// Sends what is waiting, as far as the socket takes it.
    package func flush() throws(SystemError) {
        guard !outgoing.isEmpty else { return }
        let sent = try descriptor.write(outgoing)
        outgoing.removeFirst(sent)
        if outgoing.count > Self.backlogLimit { keepsUp = false }
    }

    /// The bodies of the frames that have arrived; nil once the peer has closed its end.
    package func receive() throws(ProtocolError) -> [ArraySlice<UInt8>]? {
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
        var bodies: [ArraySlice<UInt8>] = []
        while let body = try incoming.next() { bodies.append(body) }
        return closed && bodies.isEmpty ? nil : bodies
    }
}
