import CX11
import Glibc
import Testing

/// What the lock screen offers beside unlocking: keys that run commands while locked, the
/// switch-user button, and the failed attempts' notification after an unlock. Each command
/// writes into a directory of the test's own, which is what the test reads.
@Suite(.serialized) struct LockExtrasTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: PamStack
    let scratch: Scratch

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try PamStack()
        scratch = try Scratch()
    }

    var directory: String { scratch.path }
    var log: String { directory + "/log" }

    @Test func aBoundKeyRunsItsCommandAndLeavesThePasswordAlone() throws {
        let gate = try lock(
            ["--auth", "pam", "--pam-service", "slidegate", "--key-command", "XF86AudioRaiseVolume=echo up >> \(log)"],
            environment: pam.environment)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() })
        client.type(String(AuthTests.password.prefix(3)), enter: false)
        client.key(0x1008_FF13)
        #expect(eventually { contents(of: log) == "up\n" }, "the key ran its command: \(gate.standardError)")
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "and the lock holds")
        client.type(String(AuthTests.password.dropFirst(3)))
        #expect(gate.wait() == 0, "the key typed nothing into the password: \(gate.standardError)")
    }

    /// A descriptor slidegate inherited without close-on-exec (from whatever started it)
    /// reached every child: key commands, the UI, the helpers. Now each gets 0-2 and its own.
    @Test func anInheritedDescriptorReachesNoChild() throws {
        let secret = directory + "/inherited"
        let fd = open(secret, O_RDWR | O_CREAT, 0o600)
        #expect(fd > 2)
        defer { close(fd) }
        let gate = try screen.slidegate(
            LockModeTests.arguments + ["--auth", "pam", "--pam-service", "slidegate", "--key-command", "XF86AudioRaiseVolume=ls -l /proc/$$/fd/ >> \(log)"],
            environment: pam.environment, keep: [fd])
        #expect(eventually { covered() && thumbShown(at: 0) }, "locked: \(gate.standardError)")
        let opened = { (pid: pid_t) -> [String] in
            (0..<64).compactMap { n in
                var buffer = [CChar](repeating: 0, count: 4096)
                let length = readlink("/proc/\(pid)/fd/\(n)", &buffer, 4095)
                return length > 0 ? String(terminated: Array(buffer.prefix(length)) + [0]) : nil
            }
        }
        #expect(opened(gate.pid).contains(secret), "slidegate itself has it, as it was given")
        #expect(!opened(guardOf(gate.pid)).contains(secret), "its guard has not")
        let ui = try #require(uiChild(of: gate.pid))
        #expect(!opened(ui).contains(secret), "the UI has not")
        client.key(0x1008_FF13)
        #expect(eventually { contents(of: log).contains("->") }, "the key ran its command: \(gate.standardError)")
        #expect(!contents(of: log).contains(secret), "nor has a key command: \(contents(of: log))")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func aKeyThatTypesIsRefusedBeforeAnythingIsLocked() throws {
        let gate = try screen.slidegate(LockModeTests.arguments + ["--key-command", "Return=echo no >> \(log)"])
        #expect(gate.wait() == 2)
        #expect(gate.standardError.contains("--key-command: expected KEYSYM=COMMAND with a key that types no text"), "\(gate.standardError)")
        #expect(client.canGrabKeyboard() && client.mappedTopLevels().isEmpty, "nothing was locked")
    }

    /// The switch-user button: 173x48 (0.6 of the slider's height, 3.6 times that wide),
    /// centred under the 600x80 slider at (100, 100) in the room below it: x 313...486,
    /// y 426...474.
    @Test func theSwitchUserButtonAndCtrlAltSRunTheCommandAndTheLockStays() throws {
        let gate = try lock(["--switch-user-command", "echo switched >> \(log)"])
        #expect(eventually { client.pixel(345, 450) != (16, 32, 48) }, "the button is drawn: \(gate.standardError)")
        client.move(400, 450)
        client.button(true)
        client.button(false)
        #expect(eventually { contents(of: log) == "switched\n" }, "\(gate.standardError)")
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "the lock stays")
        client.keyDown(0xffe3)
        client.keyDown(0xffe9)
        client.key(0x73)
        client.keyUp(0xffe9)
        client.keyUp(0xffe3)
        #expect(eventually { contents(of: log) == "switched\nswitched\n" }, "Ctrl+Alt+S: \(gate.standardError)")
        #expect(gate.isRunning)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// A `notify-send` of the test's own, first on PATH, writes what it was asked to say.
    private func fakeNotifySend() -> [String: String?] {
        let script = directory + "/notify-send"
        let f = fopen(script, "w")!
        fputs("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done >> \(log)\n", f)
        fclose(f)
        chmod(script, 0o755)
        var environment = pam.environment
        environment["PATH"] = directory + ":" + (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
        return environment
    }

    @Test func afterAnUnlockTheFailedAttemptsAreNotified() throws {
        let gate = try lock(["--auth", "pam", "--pam-service", "slidegate", "--show-failed-attempts"], environment: fakeNotifySend())
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() })
        client.type("wrong")
        #expect(eventually { errorBannerShows() }, "wrong password: \(gate.standardError)")
        sleep(seconds: 1.1)
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(
            eventually {
                contents(of: log).hasPrefix("--app-name=slidegate\n--icon=dialog-password\n--\n1 failed attempt while locked, the last at ")
            }, "\(contents(of: log))")
    }

    @Test func noFailureNoNotification() throws {
        let gate = try lock(["--auth", "pam", "--pam-service", "slidegate", "--show-failed-attempts"], environment: fakeNotifySend())
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() })
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        sleep(seconds: 0.5)
        #expect(contents(of: log) == "")
    }
}
