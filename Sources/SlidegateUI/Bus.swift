import CBus
import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// A connection to the system or the session bus, on the UI's event loop: sd-bus, which
/// starts no thread and is driven from the loop (`sd_bus_process` when its descriptor is
/// ready, its timeout as a deadline). Replies and signals go to closures; nothing waits.
/// A bus that fails is closed and said once; what used it shows nothing more.
final class Bus {
    enum Kind {
        case system, session

        var name: String { self == .system ? "the system bus" : "the session bus" }
    }

    /// An argument of a call.
    enum Argument {
        case text(String)
        case flag(Bool)
    }

    let kind: Kind
    private var bus: OpaquePointer?
    /// The event loop that drives it; nil for `--check`, which waits (`settle`).
    private let loop: EventLoop?
    private var watch: EventLoop.Watch?
    /// Calls sent and not yet answered (or failed).
    private var pending = 0
    /// Closures the bus's slots hold, released with them.
    private final class Box {
        let body: (OpaquePointer) -> Void
        init(_ body: @escaping (OpaquePointer) -> Void) { self.body = body }
    }

    /// Connects (sd-bus loaded on the first), or says why not.
    init(_ kind: Kind, loop: EventLoop?) throws(UserError) {
        if let why = sg_bus_load() { throw UserError("cannot load sd-bus: \(String(cString: why))", status: .internalError) }
        var opened: OpaquePointer?
        let r = sg_bus_open(kind == .system ? 1 : 0, &opened)
        guard r >= 0, let opened else {
            throw UserError("cannot connect to \(kind.name): \(String(cString: strerror(-r)))", status: .internalError)
        }
        self.kind = kind
        self.loop = loop
        bus = opened
        watch = loop?.watch(sg_bus_fd(opened), name: kind.name, peer: true, events: { [unowned self] in events }) {
            [unowned self] () throws(UserError) in
            process()
            return nil
        }
    }

    /// `--check`: handles what arrives until every call sent has its answer, or `seconds`
    /// have passed.
    func settle(within seconds: Double) {
        let limit = boottimeNow() + seconds
        while let bus, pending > 0, boottimeNow() < limit {
            process()
            var polled = pollfd(fd: sg_bus_fd(bus), events: events, revents: 0)
            _ = poll(&polled, 1, 50)
        }
    }

    deinit { close() }

    private func close() {
        if let watch { loop?.unwatch(watch) }
        watch = nil
        if let bus { sg_bus_close(bus) }
        bus = nil
    }

    /// The poll events the bus waits for now.
    private var events: Int16 {
        guard let bus else { return 0 }
        return Int16(clamping: max(sg_bus_events(bus), 0))
    }

    /// When the earliest pending call times out, on the boot-time clock.
    var deadline: Double? {
        var usec: UInt64 = 0
        guard let bus, sg_bus_timeout(bus, &usec) >= 0, usec != UInt64.max else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let left = Double(usec) / 1e6 - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        return boottimeNow() + max(left, 0)
    }

    /// Handles what arrived (and calls that timed out).
    func process() {
        guard let bus else { return }
        // A flood is handled a bounded amount at a time: the rest waits for the next pass.
        for _ in 0..<256 {
            let r = sg_bus_process(bus)
            if r == 0 { return }
            if r < 0 {
                report("\(kind.name) failed: \(String(cString: strerror(-r))); what the lock showed from it stays as it was")
                close()
                return
            }
            if self.bus == nil { return }
        }
    }

    private static let deliver: sg_bus_handler = { message, context in
        guard let message, let context else { return }
        Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().body(message)
    }

    private static let release: sg_bus_release = { context in
        guard let context else { return }
        Unmanaged<Box>.fromOpaque(context).release()
    }

    /// Calls a method; `reply` gets its answer (an error reply too: `BusMessage.error`). A
    /// call that cannot be sent is said on stderr.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [Argument] = [],
        reply: @escaping (BusMessage) -> Void = { _ in }
    ) {
        guard let bus else { return }
        var types = ""
        var texts: [String] = []
        var flag: Int32 = 0
        for argument in arguments {
            switch argument {
            case .text(let text):
                types += "s"
                texts.append(text)
            case .flag(let value):
                types += "b"
                flag = value ? 1 : 0
            }
        }
        pending += 1
        let context = Unmanaged.passRetained(
            Box { [weak self] message in
                self?.pending -= 1
                reply(BusMessage(message))
            }
        ).toOpaque()
        let first = texts.first ?? ""
        let second = texts.dropFirst().first ?? ""
        let r = sg_bus_call(
            bus, destination, path, interface, member, types, first, second, flag, Self.callTimeout, Self.deliver, Self.release, context)
        if r < 0 {
            pending -= 1
            Unmanaged<Box>.fromOpaque(context).release()
            report("cannot call \(interface).\(member) on \(kind.name): \(String(cString: strerror(-r)))")
        }
    }

    /// Microseconds a call may take before it fails.
    private static let callTimeout: UInt64 = 5_000_000

    /// Signals of `interface`'s `member` (from `sender` on `path`, when given) go to `signal`.
    func match(sender: String? = nil, path: String? = nil, _ interface: String, _ member: String, signal: @escaping (BusMessage) -> Void) {
        guard let bus else { return }
        let context = Unmanaged.passRetained(Box { signal(BusMessage($0)) }).toOpaque()
        let r = sg_bus_match(bus, sender, path, interface, member, Self.deliver, Self.release, context)
        if r < 0 {
            Unmanaged<Box>.fromOpaque(context).release()
            report("cannot follow \(interface).\(member) on \(kind.name): \(String(cString: strerror(-r)))")
        }
    }
}

/// A message being read, valid only inside the closure it was given to: each read takes
/// the next value; a value of another type than asked is nil, and the message is not read
/// further.
struct BusMessage {
    private let message: OpaquePointer

    init(_ message: OpaquePointer) {
        self.message = message
    }

    /// The error's name when this is an error reply.
    var error: String? { sg_bus_message_error(message).map { String(cString: $0) } }
    var sender: String? { sg_bus_message_sender(message).map { String(cString: $0) } }

    private var next: (type: CChar, contents: String?)? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sg_bus_message_peek(message, &type, &contents) > 0 else { return nil }
        return (type, contents.map { String(cString: $0) })
    }

    func string() -> String? {
        guard let (type, _) = next, type == CChar(UInt8(ascii: "s")) || type == CChar(UInt8(ascii: "o")) else { return nil }
        var pointer: UnsafePointer<CChar>?
        guard sg_bus_message_read(message, type, &pointer) >= 0, let pointer else { return nil }
        return BusValue.text(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strnlen(pointer, BusValue.Limits.text + 3)))
    }

    /// An array of strings (as).
    func strings() -> [String]? {
        guard case .texts(let list)? = value(depth: 0) else { return nil }
        return list
    }

    /// A dictionary of variants (a{sv}), as properties come.
    func properties() -> [String: BusValue]? {
        guard case .dictionary(let entries)? = value(depth: 0) else { return nil }
        return entries
    }

    /// The next value, whatever it is; nil at the end or when it cannot be read.
    func value(depth: Int = 0) -> BusValue? {
        guard let (type, contents) = next else { return nil }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            return string().map { .text($0) }
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            return sg_bus_message_read(message, type, &flag) >= 0 ? .flag(flag != 0) : nil
        case UInt8(ascii: "d"):
            var number = 0.0
            return sg_bus_message_read(message, type, &number) >= 0 ? .number(number) : nil
        case UInt8(ascii: "y"), UInt8(ascii: "n"), UInt8(ascii: "q"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"),
            UInt8(ascii: "t"):
            return integer(type).map { .number($0) }
        case UInt8(ascii: "v") where depth < BusValue.Limits.depth:
            guard let contents, sg_bus_message_enter(message, type, contents) >= 0 else { return nil }
            let inner = value(depth: depth + 1)
            return sg_bus_message_exit(message) >= 0 ? inner : nil
        case UInt8(ascii: "a") where depth < BusValue.Limits.depth && (contents == "s" || contents == "{sv}"):
            guard let contents, sg_bus_message_enter(message, type, contents) >= 0 else { return nil }
            let read = contents == "s" ? strings(in: depth) : dictionary(in: depth)
            return sg_bus_message_exit(message) >= 0 ? read : nil
        default:
            return sg_bus_message_skip(message) >= 0 ? .other : nil
        }
    }

    private func integer(_ type: CChar) -> Double? {
        var raw: UInt64 = 0
        guard sg_bus_message_read(message, type, &raw) >= 0 else { return nil }
        return switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): Double(UInt8(truncatingIfNeeded: raw))
        case UInt8(ascii: "n"): Double(Int16(truncatingIfNeeded: raw))
        case UInt8(ascii: "q"): Double(UInt16(truncatingIfNeeded: raw))
        case UInt8(ascii: "i"): Double(Int32(truncatingIfNeeded: raw))
        case UInt8(ascii: "u"): Double(UInt32(truncatingIfNeeded: raw))
        case UInt8(ascii: "x"): Double(Int64(bitPattern: raw))
        default: Double(raw)
        }
    }

    /// The strings of an array entered; past `Limits.entries` they are skipped.
    private func strings(in depth: Int) -> BusValue? {
        var list: [String] = []
        while next != nil {
            if list.count < BusValue.Limits.entries {
                guard let text = string() else { return nil }
                list.append(text)
            } else if sg_bus_message_skip(message) < 0 {
                return nil
            }
        }
        return .texts(list)
    }

    /// The entries of an a{sv} entered; past `Limits.entries` they are skipped.
    private func dictionary(in depth: Int) -> BusValue? {
        var entries: [String: BusValue] = [:]
        while let (type, contents) = next {
            guard entries.count < BusValue.Limits.entries else {
                if sg_bus_message_skip(message) < 0 { return nil }
                continue
            }
            guard let contents, sg_bus_message_enter(message, type, contents) >= 0, let key = string(),
                let value = value(depth: depth + 1), sg_bus_message_exit(message) >= 0
            else { return nil }
            entries[key] = value
        }
        return .dictionary(entries)
    }
}
