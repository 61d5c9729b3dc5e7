import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateProtocol

/// One running `slidegate-auth`: its process and the decider's end of its socket, started
/// and greeted. `AuthSession` runs one for the password and the PIN, `PassiveMethod` one for
/// each method that needs no typing.
package struct AuthHelper {
    package let process: ChildProcess
    package let channel: MessageChannel

    /// Starts `program` and waits (up to 2 s) for its hello; with `pinFile`, tells it where
    /// the PIN file is. A helper that does not answer as it must is stopped.
    package static func start(_ program: Executable, pinFile: String? = nil) throws(SystemError) -> AuthHelper {
        let (mine, theirs) = try FileDescriptor.socketPair()
        defer { theirs.close() }
        let channel: MessageChannel
        do {
            channel = try MessageChannel(mine)
        } catch {
            mine.close()
            throw error
        }
        let process = try program.start([], descriptors: [3: theirs.rawValue])
        do {
            try channel.send(AuthRequest.hello(protocol: AuthProtocol.version, build: Options.version))
            if let pinFile { try channel.send(AuthRequest.pinFile(pinFile)) }
            try awaitHello(on: channel)
        } catch {
            process.signal(SIGKILL)
            process.stop()
            throw error
        }
        return AuthHelper(process: process, channel: channel)
    }

    private static func awaitHello(on channel: MessageChannel) throws(SystemError) {
        let limit = boottimeNow() + 2
        while boottimeNow() < limit {
            var polled = pollfd(fd: channel.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&polled, 1, 50)
            // The first reply, if one came: it must be a hello of this protocol.
            var first: AuthReply??
            let open = try? channel.receive { (body) throws(ProtocolError) in
                if first == nil { first = .some(try? AuthReply(body: body)) }
            }
            guard open == true else { break }
            guard let first else { continue }
            if case .hello(let version, _)? = first, version == AuthProtocol.version { return }
            throw SystemError("the helper's handshake", code: EPROTO)
        }
        throw SystemError("no handshake from the helper", code: ETIMEDOUT)
    }

    /// After a granted verdict: whether `process` then exits, within 2 s, with the granted
    /// status, as it must for the verdict to count.
    package static func endedGranted(_ process: ChildProcess) -> Bool {
        let limit = boottimeNow() + 2
        while process.poll() == nil && boottimeNow() < limit { usleep(1_000) }
        return process.exit == .exited(AuthProtocol.grantedStatus)
    }
}

/// Failed attempts while the gate ran, of any method: how many, and when the first and the
/// last were.
package struct FailureLog: Sendable {
    package private(set) var count = 0
    package private(set) var first: time_t?
    package private(set) var last: time_t?

    package init() {}

    package mutating func add() {
        let now = time(nil)
        count += 1
        if first == nil { first = now }
        last = now
    }

    /// "3 failed attempts since 14:02", for stderr when the gate ends; nil when none failed.
    package var summary: String? {
        guard count > 0, let first else { return nil }
        return "\(attempts) since \(Self.hoursAndMinutes(first))"
    }

    /// "3 failed attempts while locked, the last at 14:07", for the notification after an
    /// unlock; nil when none failed.
    package var notice: String? {
        guard count > 0, let last else { return nil }
        return "\(attempts) while locked, the last at \(Self.hoursAndMinutes(last))"
    }

    private var attempts: String { "\(count) failed attempt\(count == 1 ? "" : "s")" }

    private static func hoursAndMinutes(_ moment: time_t) -> String {
        var moment = moment
        var parts = tm()
        localtime_r(&moment, &parts)
        return twoDigits(parts.tm_hour) + ":" + twoDigits(parts.tm_min)
    }

    /// Both logs' attempts, counted since the earlier first.
    package static func + (a: FailureLog, b: FailureLog) -> FailureLog {
        var sum = FailureLog()
        sum.count = a.count + b.count
        sum.first = [a.first, b.first].compactMap { $0 }.min()
        sum.last = [a.last, b.last].compactMap { $0 }.max()
        return sum
    }

    private static func twoDigits(_ n: Int32) -> String {
        n < 10 ? "0\(n)" : "\(n)"
    }
}
