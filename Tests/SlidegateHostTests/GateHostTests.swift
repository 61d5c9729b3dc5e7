import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateHost
import SlidegateSystem
import Testing

/// The one decider without an X server: a stand-in for what it asks of the server (the
/// keyboard's state, the screen saver) and for the event loop that watches its helpers'
/// sockets; the real slidegate-auth, or a stand-in helper compiled from C, where a helper
/// runs.
@Suite struct GateHostTests {
    final class StandInServer: HostServer {
        var capsLock: Bool? = false
        var keyboardLayout: String?
        var wakes = 0
        func wakeScreen() { wakes += 1 }
        var blanks = 0
        func blankScreen() { blanks += 1 }
    }

    /// Watches nothing by itself: `fire` calls a watched descriptor's handler, as the event
    /// loop does when it is readable.
    final class StandInWatcher: DescriptorWatcher {
        var watched: [(watch: DescriptorWatch, descriptor: Int32, handler: DescriptorHandler)] = []
        var lastWatch: UInt64 = 0

        func watch(_ descriptor: Int32, name: String, peer: Bool, _ handler: @escaping DescriptorHandler) -> DescriptorWatch {
            lastWatch += 1
            let watch = DescriptorWatch(id: lastWatch)
            watched.removeAll { $0.descriptor == descriptor }
            watched.append((watch, descriptor, handler))
            return watch
        }

        func unwatch(_ watch: DescriptorWatch) {
            watched.removeAll { $0.watch == watch }
        }

        /// Calls the handler of each watched descriptor that is readable within `seconds`.
        func fire(within seconds: Double) throws -> SlidegateCore.ExitStatus? {
            let limit = boottimeNow() + seconds
            while boottimeNow() < limit {
                var polled = watched.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
                guard poll(&polled, nfds_t(polled.count), 50) > 0 else { continue }
                for (entry, polled) in zip(watched, polled) where polled.revents != 0 {
                    return try entry.handler()
                }
            }
            return nil
        }
    }

    let server = StandInServer()
    let watcher = StandInWatcher()
    static let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80))

    func host(_ arguments: [String], auth: AuthSession? = nil, methods: [PassiveMethod] = [], start: Double = boottimeNow()) throws -> GateHost {
        guard case .run(let options) = try Options.parse(arguments) else { throw UserError("not a run", status: .usage) }
        return GateHost(
            options: options, pinLength: 0, layout: Self.layout, auth: auth, methods: methods, server: server, watcher: watcher,
            start: start)
    }

    /// slidegate-auth, built beside the test bundle.
    static var helperPath: String {
        guard let resolved = realpath("/proc/self/exe", nil) else { return "slidegate-auth" }
        defer { free(resolved) }
        let test = String(cString: resolved)
        return String(test[..<(test.lastIndex(of: "/") ?? test.endIndex)]) + "/slidegate-auth"
    }

    @Test func withoutAuthTheSlideAloneOpens() throws {
        let host = try host(["--auth", "none"])
        let start = boottimeNow()
        #expect(host.handle(.press(x: 40, y: 40), at: start) == nil)
        #expect(host.handle(.motion(x: 590, y: 40), at: start + 0.1) == nil)
        #expect(host.handle(.release, at: start + 0.2) == SlidegateCore.ExitStatus.completed)
    }

    /// Caps Lock and the layout reach the gate from the server on the next key, and only
    /// when they changed; a server that cannot say changes nothing.
    @Test func capsLockAndTheLayoutComeFromTheServer() throws {
        server.keyboardLayout = "us"
        let host = try host(["--auth", "pam"])
        #expect(host.gate.keyboardLayout == "us", "the layout at the start")
        server.capsLock = true
        server.keyboardLayout = "de"
        #expect(host.keyReleased(at: boottimeNow()) == nil)
        #expect(host.gate.capsLock && host.gate.keyboardLayout == "de")
        server.capsLock = nil
        #expect(host.keyReleased(at: boottimeNow()) == nil)
        #expect(host.gate.capsLock, "unknown is not off")
    }

    /// A bound key runs its command (never twice at once) and types nothing.
    @Test func aKeyCommandRunsAndTypesNothing() throws {
        var template = Array("/tmp/slidegate-host.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer {
            unlink(directory + "/ran")
            rmdir(directory)
        }
        let host = try host(["--auth", "none", "--key-command", "F12=echo x >> \(directory)/ran; sleep 1"])
        host.keyPressed(KeyPress(keysym: 0xffc9), at: boottimeNow()).map { Issue.record("ended: \($0)") }
        host.keyPressed(KeyPress(keysym: 0xffc9), at: boottimeNow()).map { Issue.record("ended: \($0)") }
        let limit = boottimeNow() + 5
        while access(directory + "/ran", F_OK) != 0 && boottimeNow() < limit { usleep(10_000) }
        usleep(200_000)
        let ran = try #require(fopen(directory + "/ran", "r"))
        defer { fclose(ran) }
        var bytes = 0
        while fgetc(ran) != EOF { bytes += 1 }
        #expect(bytes == 2, "one run: \"x\\n\"")
        #expect(!host.gate.entry.isOpen)
    }

    /// The password's keys edit the secret the session holds in locked memory; the gate
    /// keeps only their count.
    @Test func typedKeysGoToTheSecretAndTheirCountToTheGate() throws {
        let auth = try AuthSession(helperPath: Self.helperPath, service: "slidegate-test-none", tty: ":99")
        let host = try host(["--auth", "pam"], auth: auth)
        for character in "abc".unicodeScalars {
            _ = host.keyPressed(KeyPress(keysym: character.value, password: PasswordKey(entry: .character, character: character)), at: boottimeNow())
        }
        #expect(host.gate.entry.isOpen && host.gate.entry.count == 3)
        #expect(auth.secret.count == 3)
        _ = host.keyPressed(KeyPress(keysym: 0xff08, password: PasswordKey(entry: .backspace)), at: boottimeNow())
        #expect(host.gate.entry.count == 2 && auth.secret.count == 2)
        _ = host.keyPressed(KeyPress(keysym: 0x75, password: PasswordKey(entry: .clear)), at: boottimeNow())
        #expect(host.gate.entry.count == 0 && auth.secret.count == 0)
        host.finish()
    }

    /// A method that needs no typing starts once the host's first pass runs; its refusal
    /// reaches the gate's limiter, and wakes the screen (someone touched the reader).
    @Test func aPassiveVerdictReachesTheGateAndWakesTheScreen() throws {
        let (program, cleanUp) = try HelperSupervisorTests.standInProgram([.verdict(.refused, message: nil)])
        defer { cleanUp() }
        let method = PassiveMethod(.fingerprint, program: program, service: "slidegate-fingerprint", tty: ":99")
        let host = try host(["--auth", "fingerprint"], methods: [method])
        #expect(host.advance(to: boottimeNow()) == nil)
        #expect(!watcher.watched.isEmpty, "the helper's socket is watched")
        #expect(try watcher.fire(within: 5) == nil)
        #expect(server.wakes == 1)
        #expect(host.gate.methodLimiter.failures == 1)
        #expect(host.failures.count == 1)
        host.finish()
    }

    /// `--blank-after`: the screen blanks once the person has been still that long, once;
    /// input starts the wait again, and blanks it again after as long.
    @Test func theScreenBlanksAfterAQuietSpellOnceUntilInput() throws {
        let start = 1000.0
        let host = try host(["--auth", "none", "--blank-after", "30"], start: start)
        #expect(host.deadline == start + 30)
        #expect(host.handle(.motion(x: 5, y: 5), at: start + 10) == nil)
        #expect(host.deadline == start + 40, "input moved the deadline")
        #expect(host.advance(to: start + 39.9) == nil)
        #expect(server.blanks == 0)
        #expect(host.advance(to: start + 40) == nil)
        #expect(server.blanks == 1)
        #expect(host.deadline == nil, "a blank screen waits for input: no wake-up")
        #expect(host.advance(to: start + 500) == nil)
        #expect(server.blanks == 1)
        _ = host.keyPressed(KeyPress(keysym: 0x61), at: start + 500)
        #expect(host.deadline == start + 530, "a key the gate takes nothing from is input too")
        #expect(host.advance(to: start + 530) == nil)
        #expect(server.blanks == 2)
    }

    /// Escape on the slider blanks at once — when it is released, since the server ends a
    /// blank screen at any input — and only with `--blank-after`.
    @Test func escapeBlanksOnItsReleaseWithBlankAfterOnly() throws {
        let start = 1000.0
        let escape = KeyPress(keysym: 0xff1b, password: PasswordKey(entry: .escape))
        let blanking = try host(["--auth", "none", "--blank-after", "600"], start: start)
        #expect(blanking.keyPressed(escape, at: start + 1) == nil)
        #expect(server.blanks == 0, "not while the key is down")
        #expect(blanking.deadline == nil)
        #expect(blanking.keyReleased(at: start + 1.1) == nil)
        #expect(server.blanks == 1)
        #expect(blanking.deadline == nil)
        #expect(blanking.keyReleased(at: start + 2) == nil)
        #expect(server.blanks == 1, "another key's release does not blank")
        #expect(blanking.deadline == start + 602)
        let plain = try host(["--auth", "none"], start: start)
        #expect(plain.keyPressed(escape, at: start + 1) == nil)
        #expect(plain.keyReleased(at: start + 1.1) == nil)
        #expect(plain.deadline == nil)
        #expect(server.blanks == 1, "no --blank-after: Escape does nothing")
    }

    /// With the password field open, Escape edits it and blanks nothing.
    @Test func escapeInThePasswordFieldBlanksNothing() throws {
        let auth = try AuthSession(helperPath: Self.helperPath, service: "slidegate-test-none", tty: ":99")
        let host = try host(["--auth", "pam", "--blank-after", "600"], auth: auth)
        _ = host.keyPressed(KeyPress(keysym: 0x61, password: PasswordKey(entry: .character, character: "a")), at: boottimeNow())
        #expect(host.gate.entry.isOpen && host.gate.entry.count == 1)
        _ = host.keyPressed(KeyPress(keysym: 0xff1b, password: PasswordKey(entry: .escape)), at: boottimeNow())
        _ = host.keyReleased(at: boottimeNow())
        #expect(server.blanks == 0)
        #expect(host.gate.entry.count == 0, "Escape emptied the field")
        host.finish()
    }
}
