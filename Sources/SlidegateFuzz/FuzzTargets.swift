import SlidegateCore
import SlidegateProtocol

/// The fuzz targets: each takes any bytes and runs the real code on them, checking the
/// properties that keep the guard alive and the lock closed. A broken property is a
/// `FuzzFailure`; libFuzzer (`slidegate-fuzz`, `./dev fuzz`) turns it into a crash and keeps
/// the input, and the corpus tests run every kept input again.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The frames a guard reads from its UI and its helper, and those a UI and a helper read.
    case decoders
    /// The command line and the configuration file.
    case options
    /// theme.conf, the PIN file, the keysym → character table, and a status command's output.
    case files
    /// The gate, fed a sequence of inputs and times.
    case gate
    /// The lock screen's layout over any monitors the X server may report.
    case layout
    /// The supervisor's reading of its guard's reports and its decisions when a guard ends.
    case supervisor

    package func run(_ bytes: [UInt8]) throws(FuzzFailure) {
        switch self {
        case .decoders: try Self.decoders(bytes)
        case .options: try Self.options(bytes)
        case .files: try Self.files(bytes)
        case .gate: try Self.gate(bytes)
        case .layout: try Self.layout(bytes)
        case .supervisor: try Self.supervisor(bytes)
        }
    }
}

/// A property the real code broke for an input.
package struct FuzzFailure: Error, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Reads values off the front of the fuzzer's bytes; zeros once they run out.
struct FuzzBytes {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        rest = bytes[...]
    }

    var isEmpty: Bool { rest.isEmpty }

    mutating func u8() -> UInt8 {
        rest.popFirst() ?? 0
    }

    mutating func u16() -> UInt16 {
        UInt16(u8()) | UInt16(u8()) << 8
    }

    /// A pointer coordinate as the X server gives one: 16 bits, signed.
    mutating func coordinate() -> Double {
        Double(Int16(bitPattern: u16()))
    }

    /// Up to `limit` bytes of text (repaired to UTF-8).
    mutating func text(limit: Int) -> String {
        let count = Int(u16()) % (limit + 1)
        let taken = rest.prefix(count)
        rest = rest.dropFirst(taken.count)
        return String(decoding: taken, as: UTF8.self)
    }
}

extension FuzzTarget {
    /// Every frame in the stream is decoded as each peer would decode it. A frame that
    /// decodes must encode again, and that encoding must decode to the same bytes.
    static func decoders(_ bytes: [UInt8]) throws(FuzzFailure) {
        var buffer = FrameBuffer()
        // Split where the first byte says, so frames also arrive in pieces.
        let cut = bytes.isEmpty ? 0 : min(Int(bytes[0]), bytes.count)
        for piece in [bytes[..<cut], bytes[cut...]] {
            buffer.append(piece)
            while true {
                let body: ArraySlice<UInt8>
                do {
                    guard let next = try buffer.next() else { break }
                    body = next
                } catch {
                    return
                }
                try stable(body, UIMessage.init(body:))
                try stable(body, AuthReply.init(body:))
                try stable(body, GuardMessage.init(body:))
                try stable(body, AuthRequest.init(body:))
            }
        }
    }

    /// Decodes `body` as `decode` does; if it decodes, its frame decodes to a message with
    /// the same frame.
    private static func stable<M: Framed>(
        _ body: ArraySlice<UInt8>, _ decode: (ArraySlice<UInt8>) throws(ProtocolError) -> M
    ) throws(FuzzFailure) {
        guard let message = try? decode(body) else { return }
        let frame = message.frame
        guard frame.count >= 4 else { throw FuzzFailure("\(M.self): a decoded message cannot be framed again: \(message)") }
        guard let again = try? decode(frame[4...]) else { throw FuzzFailure("\(M.self): its own frame does not decode: \(message)") }
        guard again.frame == frame else { throw FuzzFailure("\(M.self): decoding its frame changes it: \(message)") }
    }

    /// The bytes as arguments (split at NUL), as a configuration file and as an enforced
    /// one. Whatever parses must fit the settings message the guard sends its UI, and keep
    /// what is enforced.
    static func options(_ bytes: [UInt8]) throws(FuzzFailure) {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let text = String(decoding: bytes, as: UTF8.self)
        try check(try? Options.parse(arguments))
        if let config = try? ConfigFile.parse(text, path: "/fuzz/config") {
            try check(try? Options.parse([], config: config))
            try check(try? Options.parse(Array(arguments.prefix(4)), config: config))
        }
        if let enforced = try? ConfigFile.parse(text, path: ConfigFile.enforcedPath, layer: .enforced) {
            let invocation = try? Options.parse(Array(arguments.prefix(4)), enforced: enforced)
            try check(invocation)
            if case .run(let options)? = invocation, let auth = enforced.last(where: { $0.option.name == "auth" })?.value.flatMap(AuthMethods.init(spelled:)),
                !auth.methods.allSatisfy(options.auth.contains)
            {
                throw FuzzFailure("an enforced auth=\(auth.spelled) gave way to \(options.auth.spelled)")
            }
        }
        _ = ConfigFile.choice(in: arguments)
    }

    private static func check(_ invocation: Invocation?) throws(FuzzFailure) {
        guard case .run(let options)? = invocation else { return }
        for scale in [0.5, 1, 4] { _ = try? options.checkSize(scale: scale) }
        var settings = UISettings(looks: options.looks, fps: options.fps, pinLength: 12)
        settings.strings = options.strings
        guard settings.options != nil else {
            throw FuzzFailure("options that parse are not looks the drawing program takes: \(options.looks)")
        }
        guard !GuardMessage.settings(settings).frame.isEmpty else {
            throw FuzzFailure("options that parse do not fit the settings message: \(options)")
        }
    }

    /// The bytes as theme.conf and as a PIN file, and as keysyms for the typed character.
    static func files(_ bytes: [UInt8]) throws(FuzzFailure) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? ThemeConfig(parsing: text, path: "/fuzz/theme.conf")
        if let pin = try? PinFile(parsing: text), !(4...12).contains(pin.length) {
            throw FuzzFailure("a PIN file of \(pin.length) digits was taken")
        }
        let line = StatusLine.clean(bytes)
        if line.utf8.count > StatusLine.maximumBytes || line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw FuzzFailure("a status line of \(line.utf8.count) bytes, or with a control character, was kept")
        }
        var reader = FuzzBytes(bytes)
        while !reader.isEmpty {
            let keysym = UInt32(reader.u16()) | UInt32(reader.u16()) << 16
            if let scalar = Keysym.character(keysym), scalar.value < 0x20 || scalar.value == 0x7f {
                throw FuzzFailure("keysym \(keysym) types the control character \(scalar.value)")
            }
        }
    }
}
