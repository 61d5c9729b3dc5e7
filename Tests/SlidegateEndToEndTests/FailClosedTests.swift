import CX11
import Glibc
import Testing

/// Attacks on what the guard takes from outside once it has the screen: values too long to
/// send, PAM stacks that refuse before asking, helpers changed on disk. Each is performed
/// as an attacker would; the lock holds, and the right password still opens it after.
@Suite(.serialized) struct FailClosedTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: PamStack

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try PamStack()
    }

    /// The guard's child that runs slidegate-ui.
    static func uiPid(of pid: pid_t) -> pid_t? {
        child(of: pid, running: "slidegate-ui")
    }

    /// CPU time a process has used so far, in clock ticks (utime + stime).
    static func cpuTicks(of pid: pid_t) -> Int? {
        let stat = contents(of: "/proc/\(pid)/stat")
        guard let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// A 70,000-character label, message or clock format would not fit in what the guard
    /// sends its drawing program: refused before anything is locked, with --fork too (whose
    /// parent would otherwise have said "locked" with exit 0).
    @Test(arguments: ["--text", "--message", "--clock-format"])
    func aValueTooLongToSendIsExit2BeforeLocking(option: String) throws {
        let gate = try screen.slidegate(LockModeTests.arguments + ["--fork", option, String(repeating: "x", count: 70_000)])
        #expect(gate.wait() == 2)
        #expect(gate.standardError == "slidegate: \(option): expected at most 4096 bytes, got 70000\n", "\(gate.standardError)")
        #expect(client.canGrabKeyboard() && client.mappedTopLevels().isEmpty, "nothing was locked")
    }

    /// Two 34,000-byte info messages from pam_echo, then the UI dies, so the guard sends its
    /// whole state (with the banners) to a new one: the texts were cut where they came in,
    /// the lock holds, and the password opens it.
    /// CVE-2007-1859 (xscreensaver): a user missing from passwd made the locker fail in a way
    /// that unlocked. A lock by a user with no passwd entry is exit 2 before anything is
    /// locked, naming why. Needs root to run as another uid (the tests run as root).
    @Test func aUserMissingFromPasswdIsExit2BeforeLocking() throws {
        try #require(getuid() == 0, "the tests run as root, to start slidegate as a uid with no passwd entry")
        #expect(getpwuid(54321) == nil, "uid 54321 has no passwd entry here")
        let gate = try Child(
            "/usr/bin/setpriv", ["--reuid=54321", "--regid=54321", "--clear-groups", slidegatePath] + LockModeTests.arguments + ["--auth", "pam"],
            environment: [
                "DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "HOME": "/nonexistent", "XDG_CONFIG_HOME": unset,
                "XDG_CONFIG_DIRS": "/nonexistent/slidegate-tests", "XDG_CACHE_HOME": unset,
            ])
        #expect(gate.wait(timeout: 10) == 2, "\(gate.standardError)")
        #expect(gate.standardError.contains("no user has uid 54321"), "\(gate.standardError)")
        #expect(client.mappedTopLevels().isEmpty && client.canGrabKeyboard(), "nothing was ever locked")
    }

    @Test func hugePamMessagesAreCutAndTheLockHolds() throws {
        let gate = try lock(["--auth", "pam", "--pam-service", "loud"], environment: pam.environment)
        client.type("s", enter: false)
        #expect(eventually { client.bannerIcon() != nil }, "PAM's message is a banner: \(gate.standardError)")
        let first = try #require(Self.uiPid(of: gate.pid))
        kill(first, SIGKILL)
        #expect(eventually { Self.uiPid(of: gate.pid).map { $0 != first } ?? false }, "another UI: \(gate.standardError)")
        sleep(seconds: 0.3)
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "still locked: \(gate.standardError)")
        client.type(String(AuthTests.password.dropFirst()))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// A stack that refuses before it prompts (pam_deny, what a missing service file meets on
    /// Fedora and Arch), and a service pam_wrapper has no file for: a key shows "not
    /// available" once on stderr and as a banner; nothing is retried until the person acts
    /// again, so the guard's CPU stays at rest and no attempt counts as failed.
    @Test(arguments: ["deny", "no-such-service"])
    func aStackThatRefusesBeforeAskingIsNotAvailableAndCostsNothing(service: String) throws {
        let gate = try lock(["--auth", "pam", "--pam-service", service], environment: pam.environment)
        client.type("a", enter: false)
        #expect(eventually { gate.standardError.contains("slidegate: authentication is not available") }, "\(gate.standardError)")
        #expect(eventually { errorBannerShows() }, "a banner says so")
        let before = try #require(Self.cpuTicks(of: guardOf(gate.pid)))
        sleep(seconds: 2)
        let after = try #require(Self.cpuTicks(of: guardOf(gate.pid)))
        #expect(after - before <= 5, "the guard used \(after - before) ticks in 2 s after the refusal")
        for _ in 0..<3 {
            client.type("bc", enter: true)
            sleep(seconds: 0.2)
        }
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "still locked")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
        let said = gate.standardError.split(separator: "\n").filter { $0.hasPrefix("slidegate: authentication is not available") }
        #expect(said.count == 1, "said once: \(gate.standardError)")
        #expect(!gate.standardError.contains("failed attempt"), "no attempt failed: \(gate.standardError)")
    }

    /// A traced helper could have its secret read or its verdict rewritten: it ends at once,
    /// saying why, and takes nothing.
    @Test func theHelperRefusesToRunTraced() throws {
        let helper = String(slidegatePath.dropLast("slidegate".count)) + "slidegate-auth"
        let traced = try Child("/usr/bin/strace", ["-f", "-o", "/dev/null", helper])
        #expect(traced.wait() == 1)
        #expect(traced.standardError.contains("slidegate-auth: traced by process "), "\(traced.standardError)")
        let free = try Child(helper, [])
        #expect(free.wait() == 0, "untraced, with no guard on descriptor 3, it just ends: \(free.standardError)")
        #expect(free.standardError.isEmpty)
    }

    /// The helpers are started through /proc/self/fd/N; each names itself after its file,
    /// not "N", in ps, top and pidof.
    @Test func theHelpersAreNamedInPs() throws {
        let gate = try lock(["--auth", "pam"], environment: pam.environment)
        let ui = try #require(Self.uiPid(of: gate.pid))
        let helper = try #require(AuthTests.helperPid(of: gate.pid))
        #expect(contents(of: "/proc/\(ui)/comm") == "slidegate-ui\n")
        #expect(contents(of: "/proc/\(helper)/comm") == "slidegate-auth\n")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    /// The guard stopped, its helper killed, the helper's file rewritten in place (the same
    /// inode) with a program that would say yes: the guard does not run it, says why, and
    /// the lock holds.
    @Test func aHelperRewrittenInPlaceIsNotRun() throws {
        var template = Array("/tmp/slidegate-rewrite.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        let marker = directory + "/ran"
        defer {
            for name in ["slidegate", "slidegate-ui", "slidegate-auth", "ran"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        let built = String(slidegatePath.dropLast("slidegate".count))
        for name in ["slidegate", "slidegate-ui", "slidegate-auth"] {
            #expect(copyFile(built + name, directory + "/" + name))
            chmod(directory + "/" + name, 0o755)
        }
        let gate = try screen.slidegate(
            LockModeTests.arguments + ["--auth", "pam"], environment: pam.environment, program: directory + "/slidegate")
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(gate.standardError)")
        let helper = try #require(AuthTests.helperPid(of: gate.pid))
        let guarding = guardOf(gate.pid)
        kill(guarding, SIGSTOP)
        kill(helper, SIGKILL)
        #expect(eventually { contents(of: "/proc/\(helper)/stat").contains(") Z") || contents(of: "/proc/\(helper)/stat").isEmpty })
        let rewritten = fopen(directory + "/slidegate-auth", "we")
        try #require(rewritten != nil, "the helper's file can be rewritten once nothing runs it")
        fputs("#!/bin/sh\ntouch \(marker)\nexit 42\n", rewritten)
        fclose(rewritten)
        kill(guarding, SIGCONT)
        #expect(eventually { gate.standardError.contains("changed since the lock began") }, "\(gate.standardError)")
        client.type(AuthTests.password)
        #expect(eventually { errorBannerShows() }, "a banner says authentication is not available")
        sleep(seconds: 0.5)
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "still locked: \(gate.standardError)")
        #expect(access(marker, F_OK) != 0, "the rewritten helper never ran")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }
}
