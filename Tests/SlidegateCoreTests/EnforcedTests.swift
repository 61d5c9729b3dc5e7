import SlidegateCore
import Testing

/// The administrator's enforced settings against the system file, the user's file and the
/// command line (`Options.parse`'s `enforced`).
@Suite struct EnforcedTests {
    func options(_ arguments: [String], system: String = "", user: String = "", enforced: String) throws(UserError) -> Options {
        let config = try ConfigFile.parse(system, path: "/etc/xdg/slidegate/config", layer: .system)
            + (try ConfigFile.parse(user, path: "/home/u/config"))
        let rules = try ConfigFile.parse(enforced, path: ConfigFile.enforcedPath, layer: .enforced)
        guard case .run(let options) = try Options.parse(arguments, config: config, enforced: rules) else {
            throw UserError("not a run", status: .usage)
        }
        return options
    }

    func refusal(_ arguments: [String], user: String = "", enforced: String) -> String? {
        do {
            _ = try options(arguments, user: user, enforced: enforced)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func anEnforcedSettingWinsOverEveryPlaceThatDoesNotAskOtherwise() throws {
        let given = try options(["--text", "hi"], system: "pam-service=login\n", enforced: "# policy\n\nauth=pam\npam-service=slidegate\n")
        #expect(given.auth == .pam && given.service(for: .pam) == "slidegate" && given.text == "hi")
        #expect(try options(["--pam-service", "slidegate", "--auth", "pam"], user: "pam-service=slidegate\n", enforced: "pam-service=slidegate\nauth=pam\n").service(for: .pam) == "slidegate")
    }

    @Test func askingForSomethingElseIsRefusedNamingBothPlaces() {
        #expect(refusal(["--auth", "none"], enforced: "timeout=9\n\nauth=pam\n") == "--auth none: enforced by /etc/slidegate/enforced:3 (auth=pam)")
        #expect(refusal([], user: "fps=30\nauth=none\n", enforced: "auth=pam\n") == "/home/u/config:2: auth none: enforced by /etc/slidegate/enforced:1 (auth=pam)")
        #expect(refusal(["--pam-service", "login", "--auth", "pam"], enforced: "pam-service=slidegate\n") == "--pam-service login: enforced by /etc/slidegate/enforced:1 (pam-service=slidegate)")
        #expect(refusal(["--unlock-command", "true"], enforced: "unlock-command=/usr/bin/audit-unlock\n")?.hasPrefix("--unlock-command true: enforced by") == true)
    }

    @Test func anEnforcedListIsTheLeastThatMustBeAsked() throws {
        #expect(try options(["--auth", "pam,fingerprint"], enforced: "auth=pam\n").auth == AuthMethods([.pam, .fingerprint]))
        #expect(try options(["--auth", "pin,pam"], enforced: "auth=pam\n").auth == AuthMethods([.pam, .pin]))
        #expect(refusal(["--auth", "pin"], enforced: "auth=pam\n") == "--auth pin: enforced by /etc/slidegate/enforced:1 (auth=pam)")
        #expect(refusal(["--auth", "pam"], enforced: "auth=pam,fingerprint\n") != nil)
    }

    @Test func anEnforcedNumberIsTheMostThatMayBeAsked() throws {
        #expect(try options([], enforced: "timeout=30\n").timeout == 30)
        #expect(try options(["--timeout", "10"], enforced: "timeout=30\n").timeout == 10)
        #expect(refusal(["--timeout", "60"], enforced: "timeout=30\n") == "--timeout 60: enforced by /etc/slidegate/enforced:1 (timeout=30 at most)")
        #expect(try options(["--auth", "pam", "--grace", "2"], enforced: "grace=5\n").grace == 2)
        #expect(try options(["--auth", "pam"], enforced: "grace=5\n").grace == 5)
        #expect(refusal(["--auth", "pam", "--grace", "9"], enforced: "grace=5\n") != nil)
    }

    /// An enforced `auth` with nothing said of what can bypass it: `--grace 31622400`
    /// opened by slide, `--timeout 1` ended the lock, `--key-command 'F12=kill -9 $PPID'`
    /// killed the guard from the locked screen. Each is now none unless the file sets it.
    @Test func anEnforcedAuthPinsWhatCouldBypassIt() throws {
        let rules = "auth=pam\n"
        #expect(refusal(["--auth", "pam", "--grace", "31622400"], enforced: rules) == "--grace 31622400: enforced by /etc/slidegate/enforced:1 (auth=pam: no grace unless that file sets one)")
        #expect(refusal(["--timeout", "1"], enforced: rules)?.hasPrefix("--timeout 1: enforced by /etc/slidegate/enforced:1") == true)
        #expect(refusal(["--key-command", "F12=kill -9 $PPID"], enforced: "auth=pam\ngrace=5\nshow-failed-attempts\n") != nil, "the README's workstation")
        #expect(refusal(["--switch-user-command", "true"], enforced: rules) != nil)
        #expect(refusal([], user: "grace=3\n", enforced: rules) == "/home/u/config:1: grace 3: enforced by /etc/slidegate/enforced:1 (auth=pam: no grace unless that file sets one)")
        let fromSystem = try options([], system: "grace=3\ntimeout=60\n", enforced: rules)
        #expect(fromSystem.grace == 0 && fromSystem.timeout == nil, "the system file's are dropped")
        #expect(try options(["--auth", "pam", "--grace", "2"], enforced: "auth=pam\ngrace=5\n").grace == 2, "what the file sets binds as before")
        #expect(try options(["--timeout", "1"], enforced: "timeout=30\n").timeout == 1, "without an enforced auth nothing is pinned")
        #expect(try options(["--geometry", "400x60", "--timeout", "1"], enforced: rules).timeout == 1, "a window is no lock")
    }

    @Test func theSystemFileNeverOverridesAnEnforcedSetting() throws {
        let given = try options([], system: "timeout=300\nauth=none\n", enforced: "timeout=30\nauth=pam\n")
        #expect(given.timeout == 30 && given.auth == .pam)
    }

    @Test func keyCommandsAreTheEnforcedOnesOrNone() throws {
        let bound = try options(["--key-command", "F7=true"], enforced: "key-command=F7=true\nkey-command=F8=false\n")
        #expect(bound.keyCommands.map(\.name) == ["F7", "F8"])
        #expect(refusal(["--key-command", "F9=true"], enforced: "key-command=F7=true\n") != nil)
        #expect(try options([], enforced: "key-command=none\n").keyCommands.isEmpty)
        #expect(refusal([], user: "key-command=F9=true\n", enforced: "key-command=none\n") == "/home/u/config:1: key-command F9=true: enforced by /etc/slidegate/enforced:1 (key-command=none)")
    }

    @Test func anEnforcedFlagIsAlwaysOn() throws {
        let kiosk = "timeout=60\ncountdown\nabove\nundecorated\n"
        let window = try options(["--geometry", "600x80+0+0"], enforced: kiosk)
        #expect(window.countdown && window.above && window.undecorated && window.timeout == 60)
        // The window manager's flags are windowed mode's: a lock leaves them be.
        #expect(try options([], enforced: kiosk).countdown)
    }

    @Test func theEnforcedFileHoldsOnlyEnforceableWellFormedSettings() {
        #expect(throws: UserError.self) { try ConfigFile.parse("text=mine\n", path: ConfigFile.enforcedPath, layer: .enforced) }
        let message = (try? ConfigFile.parse("fps=30\n", path: ConfigFile.enforcedPath, layer: .enforced)) == nil
        #expect(message)
        #expect(refusal([], enforced: "timeout=soon\n") == "/etc/slidegate/enforced:1: timeout: expected a number of seconds greater than 0, such as 30 or 2.5, got \"soon\"")
        let enforceable = OptionSpec.all.filter { $0.enforcement != nil }.map(\.name)
        #expect(
            enforceable == [
                "blank-after", "status-command", "power-actions", "key-command", "switch-user-command", "auth", "pam-service", "fingerprint-service", "key-service", "pin-file", "grace",
                "show-failed-attempts", "unlock-command", "above", "undecorated", "timeout", "countdown",
            ])
    }

    /// A status command runs while the lock is up (and could end it): with `auth` enforced,
    /// only the enforced file's.
    @Test func anEnforcedAuthPinsTheStatusCommand() throws {
        #expect(refusal(["--status-command", "pkill slidegate"], enforced: "auth=pam\n") != nil)
        #expect(try options(["--status-command", "date"], enforced: "auth=pam\nstatus-command=date\n").statusCommand == "date")
        #expect(try options([], enforced: "status-command=acpi -b\n").statusCommand == "acpi -b")
    }

    /// A machine's power policy: the enforced wait before the screen blanks is the wait.
    @Test func anEnforcedBlankAfterIsTheWait() throws {
        #expect(try options([], enforced: "blank-after=300\n").blankAfter == 300)
        #expect(try options(["--blank-after", "300"], enforced: "blank-after=300\n").blankAfter == 300)
        #expect(refusal(["--blank-after", "0"], enforced: "blank-after=300\n") != nil)
    }

    @Test func theSystemFileIsTheFirstOfXDGConfigDirs() {
        #expect(ConfigFile.systemCandidates(configDirs: nil) == ["/etc/xdg/slidegate/config"])
        #expect(ConfigFile.systemCandidates(configDirs: "") == ["/etc/xdg/slidegate/config"])
        #expect(ConfigFile.systemCandidates(configDirs: "/a:relative:/b") == ["/a/slidegate/config", "/b/slidegate/config"])
    }
}
