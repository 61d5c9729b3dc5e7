import Glibc
import Testing

/// A managed machine: the system-wide file of `$XDG_CONFIG_DIRS`, the user's file, the
/// command line and the administrator's `/etc/slidegate/enforced`, each seen in what
/// slidegate does. The enforced file is this suite's own: slidegate runs in a mount
/// namespace where a directory of the test's is bound over /etc/slidegate, so no other test
/// sees it.
@Suite(.serialized) final class ManagedTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let scratch: Scratch
    /// What is bound over /etc/slidegate: root's, mode 755, as the package makes it.
    let policy: String
    /// /etc/slidegate had to be made for the mount (no package installed it): removed after.
    let madeMountPoint: Bool

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        scratch = try Scratch()
        policy = scratch.path + "/policy"
        mkdir(policy, 0o755)
        chmod(policy, 0o755)
        madeMountPoint = mkdir("/etc/slidegate", 0o755) == 0
    }

    func write(_ text: String, to path: String, mode: mode_t = 0o644) {
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
        chmod(path, mode)
    }

    /// `slidegate ARGUMENTS` with this suite's enforced file (if any) at /etc/slidegate/enforced.
    func managed(_ arguments: [String], environment: [String: String?] = [:], stdout: String = "/dev/null") throws -> Child {
        let bind = "mount --bind \"$0\" /etc/slidegate && exec \"$@\""
        return try screen.slidegate(
            ["--mount", "--propagation", "private", "/bin/sh", "-c", bind, policy, slidegatePath] + arguments, environment: environment,
            stdout: stdout, program: "/usr/bin/unshare")
    }

    /// A system-wide file in `directory`/slidegate/config.
    func system(_ text: String, in directory: String) -> String {
        mkdir(scratch.path + "/" + directory, 0o755)
        mkdir(scratch.path + "/" + directory + "/slidegate", 0o755)
        write(text, to: scratch.path + "/" + directory + "/slidegate/config")
        return scratch.path + "/" + directory
    }

    func background(_ arguments: [String], _ environment: [String: String?]) throws -> (r: Int, g: Int, b: Int)? {
        let gate = try managed(["--slider", "600x80+100+100"] + arguments, environment: environment)
        defer {
            gate.signal(SIGTERM)
            _ = gate.wait()
        }
        var seen: (r: Int, g: Int, b: Int)?
        guard eventually({ client.thumbShown(at: 0, threshold: 90) && !client.canGrabKeyboard() }) else { return nil }
        seen = client.pixel(5, 5)
        return seen
    }

    @Test func eachPlaceOverridesTheOneBelowAndTheFirstSystemFileCounts() throws {
        let first = system("background=#600000\nforeground=#ffffff\n", in: "b")
        let later = system("background=#006000\n", in: "c")
        let dirs = "/nonexistent:\(scratch.path)/a:\(first):\(later)"
        var environment: [String: String?] = ["XDG_CONFIG_DIRS": dirs]
        #expect(try background([], environment)! == (0x60, 0, 0), "the first system file found, not the later one")
        mkdir(scratch.path + "/home", 0o700)
        mkdir(scratch.path + "/home/slidegate", 0o700)
        write("background=#204060\n", to: scratch.path + "/home/slidegate/config")
        environment["XDG_CONFIG_HOME"] = scratch.path + "/home"
        #expect(try background([], environment)! == (0x20, 0x40, 0x60), "the user's file over the system's")
        #expect(try background(["--background", "#102030"], environment)! == (0x10, 0x20, 0x30), "the command line over both")
        #expect(try background(["--no-config"], environment)! == (0x60, 0, 0), "--no-config skips the user's file only")
        environment["XDG_CONFIG_DIRS"] = scratch.path + "/nowhere"
        environment["XDG_CONFIG_HOME"] = unset
        #expect(try background([], environment)! == (0x15, 0x17, 0x1c), "no system file: the built-in background")
    }

    @Test func anEnforcedNumberIsTheMostAnyPlaceMayAsk() throws {
        write("# kiosk policy\ntimeout=1\n", to: policy + "/enforced")
        defer { unlink(policy + "/enforced") }
        var started = now()
        let held = try managed(LockModeTests.arguments)
        #expect(held.wait(timeout: 10) == 4, "the enforced time-out ends it: \(held.standardError)")
        #expect(now() - started > 0.9)
        started = now()
        let shorter = try managed(LockModeTests.arguments + ["--timeout", "0.3"])
        #expect(shorter.wait(timeout: 10) == 4)
        #expect(now() - started < 0.9, "a shorter one is allowed")
        let longer = try managed(LockModeTests.arguments + ["--timeout", "60"])
        #expect(longer.wait(timeout: 10) == 2)
        #expect(longer.standardError == "slidegate: --timeout 60: enforced by /etc/slidegate/enforced:2 (timeout=1 at most)\n")
    }

    @Test func anEnforcedSettingCannotBeChangedFromTheUsersFileOrTheCommandLine() throws {
        write("# workstation policy\n\nauth=pam\n", to: policy + "/enforced")
        defer { unlink(policy + "/enforced") }
        let line = "enforced by /etc/slidegate/enforced:3 (auth=pam)"
        for arguments in [["--auth", "none"], ["--no-config", "--auth", "none"]] {
            let gate = try managed(LockModeTests.arguments + arguments)
            #expect(gate.wait(timeout: 10) == 2)
            #expect(gate.standardError == "slidegate: --auth none: \(line)\n")
        }
        mkdir(scratch.path + "/user", 0o700)
        mkdir(scratch.path + "/user/slidegate", 0o700)
        write("fps=30\nauth=none\n", to: scratch.path + "/user/slidegate/config")
        let fromFile = try managed(LockModeTests.arguments, environment: ["XDG_CONFIG_HOME": scratch.path + "/user"])
        #expect(fromFile.wait(timeout: 10) == 2)
        #expect(fromFile.standardError == "slidegate: \(scratch.path)/user/slidegate/config:2: auth none: \(line)\n")
        #expect(client.canGrabKeyboard(), "nothing was locked")
        // The system file's own auth=none gives way, and the slide asks for the password.
        let pam = try PamStack()
        var environment = pam.environment
        environment["XDG_CONFIG_DIRS"] = system("auth=none\n", in: "sys")
        let gate = try managed(LockModeTests.arguments, environment: environment)
        #expect(eventually { covered() && thumbShown(at: 0) }, "\(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "the password is asked for")
        #expect(gate.isRunning)
        client.type(AuthTests.password)
        #expect(gate.wait(timeout: 10) == 0, "\(gate.standardError)")
    }

    @Test func anEnforcedFileSomeoneElseCouldWriteIsRefused() throws {
        let file = policy + "/enforced"
        defer {
            unlink(file)
            chmod(policy, 0o755)
        }
        for (mode, directoryMode, owner) in [(0o666 as mode_t, 0o755 as mode_t, 0 as uid_t), (0o644, 0o777, 0), (0o644, 0o755, 1000)] {
            write("auth=pam\n", to: file, mode: mode)
            chown(file, owner, 0)
            chmod(policy, directoryMode)
            let gate = try managed(LockModeTests.arguments)
            #expect(gate.wait(timeout: 10) == 2)
            let what = directoryMode == 0o777 ? "its directory" : "the file"
            let shownMode = String(directoryMode == 0o777 ? 0o777 : mode, radix: 8)
            let shownOwner = directoryMode == 0o777 ? 0 : owner
            #expect(
                gate.standardError
                    == "slidegate: /etc/slidegate/enforced: \(what) must be owned by root and writable by no one else (owner uid \(shownOwner), mode \(shownMode))\n")
            #expect(client.canGrabKeyboard(), "nothing was locked")
        }
        unlink(file)
        #expect(symlink(scratch.path + "/elsewhere", file) == 0)
        let linked = try managed(LockModeTests.arguments)
        #expect(linked.wait(timeout: 10) == 2)
        #expect(linked.standardError == "slidegate: /etc/slidegate/enforced: is a symbolic link; enforced settings must be in a file of root's own\n")
    }

    @Test func checkSaysWhichPlaceEachSettingCameFrom() throws {
        write("timeout=30\nauth=pam\n", to: policy + "/enforced")
        defer { unlink(policy + "/enforced") }
        let pam = try PamStack()
        var environment = pam.environment
        let systemDirectory = system("fps=30\ntext=shop till\n", in: "sys")
        environment["XDG_CONFIG_DIRS"] = systemDirectory
        mkdir(scratch.path + "/u", 0o700)
        mkdir(scratch.path + "/u/slidegate", 0o700)
        write("fps=20\n", to: scratch.path + "/u/slidegate/config")
        environment["XDG_CONFIG_HOME"] = scratch.path + "/u"
        let output = scratch.path + "/report"
        let check = try managed(["--check", "--timeout", "10"], environment: environment, stdout: output)
        #expect(check.wait(timeout: 30) == 0, "\(contents(of: output))")
        let report = contents(of: output).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        for expected in [
            "auth pam enforced /etc/slidegate/enforced:2", "timeout 10 command line", "fps 20 \(scratch.path)/u/slidegate/config:1",
            "text shop till system \(systemDirectory)/slidegate/config:2", "grace 0 default",
            "ok enforced /etc/slidegate/enforced: auth, timeout", "ok system file \(systemDirectory)/slidegate/config: 2 settings read",
        ] {
            #expect(report.contains(expected), "\(expected): \(report.joined(separator: "\n"))")
        }
    }

    deinit {
        if madeMountPoint { rmdir("/etc/slidegate") }
    }
}
