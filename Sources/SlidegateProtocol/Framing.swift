import SlidegateCore

// The protocol between the lock-mode guard (`slidegate`) and the processes it supervises.
// The UI (`slidegate-ui --lock-ui`) draws the slider in a window the guard owns; the guard
// holds one end of a Unix stream socket, the UI the other as its descriptor 3. The
// authentication helper's protocol (AuthProtocol.swift) uses the same framing.
//
// FRAMING
//   Every message is one frame: a 4-byte little-endian length N (1 ≤ N ≤ 65536), then N
//   bytes: one byte naming the kind (`GuardMessage.Kind`, `UIMessage.Kind`, whose cases
//   say their fields), then the kind's fields in order: u8, u32, u64 (little-endian), f64
//   (an IEEE 754 double's bits, little-endian), string (u32 byte count, then UTF-8). A
//   boolean (u8) is 0 or 1. A frame whose length is out of range, whose kind or byte is
//   unknown, whose fields run past its end or leave bytes over, or whose string is not
//   UTF-8, is malformed. A message that would not fit is not sent (`appendFrame` says
//   false; the sender handles it).
//
// HANDSHAKE
//   The guard speaks first: `hello`, then `settings`; the UI answers `hello`. Each side
//   checks that the other's first message is `hello` of its own protocol number (a second
//   `hello` is malformed); the build string is for messages only. A UI that gets a
//   malformed frame or another protocol exits with status 10 (`GuardProtocol.uiStatus`),
//   which the guard reports by name; a guard that gets a malformed frame from the UI ends
//   that UI and starts another. No message ever carries a secret.

package enum GuardProtocol {
    /// Bumped whenever a message's meaning or fields change.
    package static let version: UInt32 = 10
    /// The UI's exit status when it cannot understand the guard.
    package static let uiStatus: Int32 = 10
    package static let maximumFrame = 65536
}

/// Why a frame could not be read.
package struct ProtocolError: Error, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// A message that goes out as one frame.
package protocol Framed {
    /// Appends the whole frame, length first, to `buffer`: a sender's pending bytes take a
    /// message without an allocation once the buffer has grown to its working size. A
    /// message that cannot be framed (over `GuardProtocol.maximumFrame`) leaves `buffer` as
    /// it was and says false.
    @discardableResult
    func appendFrame(to buffer: inout [UInt8]) -> Bool
}

extension Framed {
    /// The whole frame, length first, as a new array; empty when it cannot be framed.
    package var frame: [UInt8] {
        var bytes: [UInt8] = []
        appendFrame(to: &bytes)
        return bytes
    }
}

/// Splits a byte stream into frame bodies. A body is a view of the buffer, valid until the
/// next `append`; consumed frames are dropped then, in place.
package struct FrameBuffer {
    private var bytes: [UInt8] = []
    /// Where the next frame starts.
    private var start = 0

    package init() {}

    package mutating func append(_ data: ArraySlice<UInt8>) {
        if start > 0 {
            bytes.removeFirst(start)
            start = 0
        }
        bytes.append(contentsOf: data)
    }

    /// The next whole frame's body, nil until one has arrived; throws on a bad length.
    package mutating func next() throws(ProtocolError) -> ArraySlice<UInt8>? {
        guard bytes.count - start >= 4 else { return nil }
        let length = Int(clamping: bytes[start]) | Int(clamping: bytes[start + 1]) << 8 | Int(clamping: bytes[start + 2]) << 16 | Int(clamping: bytes[start + 3]) << 24
        guard (1...GuardProtocol.maximumFrame).contains(length) else { throw ProtocolError("a frame of \(length) bytes") }
        guard bytes.count - start >= 4 + length else { return nil }
        let body = bytes[(start + 4)..<(start + 4 + length)]
        start += 4 + length
        return body
    }
}

/// Writes one frame at the end of a byte buffer: the length, patched in once the body is
/// written, then the body.
struct FrameWriter {
    private(set) var body: [UInt8] = []
    /// The message is not one that can be sent.
    private var refused = false

    /// Appends the frame `write` writes to `buffer`, in `buffer`'s own storage; a frame that
    /// is too long, or that `write` refused, is taken back, and the answer is false.
    static func append(to buffer: inout [UInt8], _ write: (inout FrameWriter) -> Void) -> Bool {
        var w = FrameWriter()
        swap(&w.body, &buffer)
        let start = w.body.count
        w.u32(0)
        write(&w)
        let length = w.body.count - start - 4
        let fits = !w.refused && length <= GuardProtocol.maximumFrame
        if fits {
            for i in 0..<4 { w.body[start + i] = UInt8(truncatingIfNeeded: length >> (8 * i)) }
        } else {
            w.body.removeSubrange(start...)
        }
        swap(&w.body, &buffer)
        return fits
    }

    /// The message being written is not sent at all.
    mutating func refuse() { refused = true }

    mutating func u8(_ v: UInt8) { body.append(v) }

    /// Kind 1, the same both ways: the protocol number and the build.
    mutating func hello(_ version: UInt32, _ build: String) {
        u8(GuardMessage.Kind.hello.rawValue)
        u32(version)
        string(build)
    }

    mutating func kind(_ kind: GuardMessage.Kind) { u8(kind.rawValue) }
    mutating func kind(_ kind: UIMessage.Kind) { u8(kind.rawValue) }

    /// A boolean: 1 or 0 (the reader takes nothing else).
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }

    /// An `input` message's tag and place (0, 0 where the input has none).
    mutating func input(_ tag: GuardMessage.InputTag, _ x: Double = 0, _ y: Double = 0) { tagged(tag.rawValue, x, y) }

    mutating func u32(_ v: UInt32) { littleEndian(UInt64(clamping: v), bytes: 4) }

    mutating func u64(_ v: UInt64) { littleEndian(v, bytes: 8) }

    /// The low `bytes` bytes of `v`, least significant first. (A loop over a range, not
    /// `stride`: a stride's iterator is generic code of the standard library that the
    /// linker cannot place with the rest of what a resting lock runs.)
    private mutating func littleEndian(_ v: UInt64, bytes: Int) {
        for i in 0..<bytes { body.append(UInt8(truncatingIfNeeded: v >> UInt64(clamping: 8 * i))) }
    }

    mutating func f64(_ v: Double) { u64(v.bitPattern) }

    mutating func string(_ s: String) {
        u32(UInt32(clamping: s.utf8.count))
        body.append(contentsOf: s.utf8)
    }

    mutating func color(_ c: Color) {
        f64(c.red)
        f64(c.green)
        f64(c.blue)
        f64(c.alpha)
    }

    /// A tag byte and one value.
    mutating func tagged(_ tag: UInt8, _ a: Double) {
        u8(tag)
        f64(a)
    }

    /// A tag byte and two values.
    mutating func tagged(_ tag: UInt8, _ a: Double, _ b: Double) {
        u8(tag)
        f64(a)
        f64(b)
    }

    /// A tag byte and five values (a wheel's motion).
    mutating func tagged(_ tag: UInt8, _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double) {
        tagged(tag, a, b)
        f64(c)
        f64(d)
        f64(e)
    }

    /// A flag byte, then the value when there is one.
    mutating func optional<T>(_ value: T?, _ write: (inout FrameWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func banner(_ b: Banner) {
        u8(UInt8(clamping: b.kind.rawValue))
        string(b.text)
        optional(b.countdownUntil) { $0.f64($1) }
        bool(b.persistent)
    }

    mutating func entry(_ e: PasswordEntry) {
        bool(e.isOpen)
        optional(e.prompt) { w, prompt in
            w.string(prompt.text)
            w.bool(prompt.echo)
        }
        u32(UInt32(clamping: e.count))
        bool(e.checking)
        f64(e.lastActivity)
        optional(e.shakeStart) { $0.f64($1) }
        bool(e.submitWhenAsked)
    }

    mutating func wheels(_ wheels: Wheels) {
        u32(UInt32(clamping: wheels.count))
        u32(UInt32(clamping: wheels.focus))
        optional(wheels.held) { $0.u32(UInt32(clamping: $1)) }
        for wheel in wheels.wheels {
            switch wheel.motion {
            case .still(let p): tagged(0, p, 0, 0, 0, 0)
            case .held(let anchor, let anchorY, let y, let velocity, let lastTime): tagged(1, anchor, anchorY, y, velocity, lastTime)
            case .coasting(let from, let velocity, let rate, let start, let target): tagged(2, from, velocity, rate, start, target)
            case .settling(let from, let velocity, let target, let start, let end): tagged(3, from, velocity, target, start, end)
            }
        }
    }
}

struct FrameReader {
    private var rest: ArraySlice<UInt8>

    init(_ body: ArraySlice<UInt8>) {
        rest = body
    }

    private mutating func take(_ n: Int) throws(ProtocolError) -> ArraySlice<UInt8> {
        guard rest.count >= n else { throw ProtocolError("a message ends early") }
        defer { rest = rest.dropFirst(n) }
        return rest.prefix(n)
    }

    private mutating func unsigned(_ bytes: Int) throws(ProtocolError) -> UInt64 {
        try take(bytes).reversed().reduce(0) { $0 << 8 | UInt64(clamping: $1) }
    }

    mutating func u8() throws(ProtocolError) -> UInt8 { UInt8(clamping: try unsigned(1)) }
    mutating func u32() throws(ProtocolError) -> UInt32 { UInt32(clamping: try unsigned(4)) }
    mutating func u64() throws(ProtocolError) -> UInt64 { try unsigned(8) }
    mutating func f64() throws(ProtocolError) -> Double { Double(bitPattern: try u64()) }

    mutating func string() throws(ProtocolError) -> String {
        let count = Int(clamping: try u32())
        guard count <= rest.count else { throw ProtocolError("a string runs past its message") }
        guard let text = String(validating: try take(count), as: UTF8.self) else {
            throw ProtocolError("a string is not UTF-8")
        }
        return text
    }

    mutating func color() throws(ProtocolError) -> Color {
        Color(red: try f64(), green: try f64(), blue: try f64(), alpha: try f64())
    }

    /// A boolean: 1 or 0, nothing else.
    mutating func bool() throws(ProtocolError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let flag: throw ProtocolError("a boolean of \(flag)")
        }
    }

    /// A presence flag: true when a value follows.
    mutating func present() throws(ProtocolError) -> Bool { try bool() }

    mutating func optionalF64() throws(ProtocolError) -> Double? { try present() ? try f64() : nil }
    mutating func optionalString() throws(ProtocolError) -> String? { try present() ? try string() : nil }

    /// A method that needs no typing, by its byte (`GuardMessage.methodTag`).
    mutating func passiveMethod() throws(ProtocolError) -> AuthMethod {
        let raw = Int(clamping: try u8())
        guard raw < AuthMethod.allCases.count, AuthMethod.allCases[raw].isPassive else {
            throw ProtocolError("unknown no-typing method \(raw)")
        }
        return AuthMethod.allCases[raw]
    }

    mutating func bannerKind() throws(ProtocolError) -> Banner.Kind {
        let raw = try u8()
        guard let kind = Banner.Kind(rawValue: Int(clamping: raw)) else { throw ProtocolError("unknown banner kind \(raw)") }
        return kind
    }

    mutating func banner() throws(ProtocolError) -> Banner {
        let kind = try bannerKind()
        let text = try string()
        let until = try optionalF64()
        return Banner(kind, text, countdownUntil: until, persistent: try bool())
    }

    mutating func entry() throws(ProtocolError) -> PasswordEntry {
        let isOpen = try bool()
        let prompt = try present() ? PasswordEntry.Prompt(text: try string(), echo: try bool()) : nil
        return PasswordEntry(
            isOpen: isOpen, prompt: prompt, count: Int(clamping: try u32()), checking: try bool(), lastActivity: try f64(),
            shakeStart: try optionalF64(), submitWhenAsked: try bool())
    }

    mutating func wheels() throws(ProtocolError) -> Wheels {
        let count = Int(clamping: try u32())
        guard (1...12).contains(count) else { throw ProtocolError("state: \(count) wheels") }
        let focus = Int(clamping: try u32())
        let held = try present() ? Int(clamping: try u32()) : nil
        guard focus < count, (held ?? 0) < count else { throw ProtocolError("state: wheel focus or hold out of range") }
        var wheels: [Wheel] = []
        for _ in 0..<count {
            let tag = try u8()
            let f = [try f64(), try f64(), try f64(), try f64(), try f64()]
            let motion: Wheel.Motion =
                switch tag {
                case 0: .still(f[0])
                case 1: .held(anchor: f[0], anchorY: f[1], y: f[2], velocity: f[3], lastTime: f[4])
                case 2: .coasting(from: f[0], velocity: f[1], rate: f[2], start: f[3], target: f[4])
                case 3: .settling(from: f[0], velocity: f[1], target: f[2], start: f[3], end: f[4])
                default: throw ProtocolError("state: unknown wheel motion \(tag)")
                }
            wheels.append(Wheel(motion: motion))
        }
        return Wheels(wheels: wheels, focus: focus, held: held)
    }

    func end() throws(ProtocolError) {
        guard rest.isEmpty else { throw ProtocolError("\(rest.count) bytes left over in a message") }
    }
}
