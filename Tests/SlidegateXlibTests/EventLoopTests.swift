import CX11
import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateXlib
import Testing

/// An Xvfb of the test's own, for what needs a connection (the event loop checks Xlib's
/// queue before every wait). Ended with the test.
final class TestServer {
    let pid: pid_t
    let name: String

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw UserError("pipe", status: .internalError) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["/usr/bin/Xvfb", "-displayfd", "\(fds[1])", "-screen", "0", "320x240x24", "-nolisten", "tcp"]
        var cArgv = argv.map { strdup($0) } + [nil]
        defer { cArgv.forEach { free($0) } }
        // The test's thread may block signals, and a spawned process keeps that mask: Xvfb
        // would never hear the SIGTERM that ends it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var child = pid_t()
        guard posix_spawn(&child, argv[0], &actions, &attributes, &cArgv, environ) == 0 else {
            throw UserError("cannot start Xvfb", status: .internalError)
        }
        pid = child
        close(fds[1])
        var text = ""
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { text.append(Character(UnicodeScalar(byte))) }
        close(fds[0])
        name = ":" + text
    }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

@Suite struct EventLoopTests {
    /// Finding 7 of the third red-team round: a method's helper socket closed, the next
    /// helper's socket opened under the same number, then the first method's watch ended by
    /// that number — and with it the second's. A watch is now ended by its own token.
    @Test func endingAWatchLeavesTheNewerWatchOfItsNumberAlone() throws {
        let server = try TestServer()
        let display = try XDisplay(named: server.name)
        let loop = try EventLoop(display: display, synthetic: .ignored)
        var first: [Int32] = [0, 0]
        #expect(pipe(&first) == 0)
        let number = first[0]
        let firstWatch = loop.watch(number, name: "the first helper's socket", peer: true) { .internalError }
        close(first[0])
        close(first[1])
        var second: [Int32] = [0, 0]
        #expect(pipe(&second) == 0)
        defer { second.forEach { close($0) } }
        #expect(second[0] == number, "the kernel gives the lowest free number again")
        loop.watch(second[0], name: "the second helper's socket", peer: true) { .completed }
        loop.unwatch(firstWatch)
        #expect(write(second[1], "x", 1) == 1)
        let end = boottimeNow() + 2
        let status = try loop.run(
            event: { (_: inout XEvent) throws(UserError) in nil },
            pass: { () throws(UserError) in boottimeNow() < end ? .wait(until: end) : .exit(.timedOut) })
        #expect(status == .completed, "the second helper's socket is still watched")
    }
}
