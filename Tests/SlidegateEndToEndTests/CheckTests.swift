import Glibc
import Testing

/// `slidegate --check`: each check end to end, once on a set-up that works and once on one
/// that does not, with what the report says and the exit status.
@Suite struct CheckTests {
    let screen: VirtualScreen
    let scratch: Scratch

    init() throws {
        screen = try VirtualScreen()
        scratch = try Scratch()
    }

    func write(_ text: String, to name: String, mode: mode_t = 0o644) -> String {
        let path = scratch.path + "/" + name
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
        chmod(path, mode)
        return path
    }

    /// Runs `slidegate --check` with `arguments`; its exit status and what it printed.
    func check(
        _ arguments: [String], environment: [String: String?] = [:], program: String = slidegatePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (status: Int32?, report: String, error: String) {
        let output = scratch.path + "/report"
        let child = try screen.slidegate(["--check"] + arguments, environment: environment, stdout: output, program: program)
        let status = child.wait(timeout: 30)
        let report = contents(of: output)
        // pam_wrapper's own complaints (a service directory without "other") are not slidegate's.
        let said = child.standardError.split(separator: "\n").filter { !$0.hasPrefix("PWRAP_") }
        #expect(said.isEmpty, "slidegate said nothing on stderr: \(said)", sourceLocation: sourceLocation)
        return (status, report, child.standardError)
    }

    /// The report's line for `subject` with `verdict` that contains `text`.
    func line(_ report: String, _ verdict: String, _ subject: String, _ text: String) -> Bool {
        report.split(separator: "\n").contains { (line: Substring) -> Bool in
            let start = line.drop { $0 == " " }
            guard start.hasPrefix(verdict + " ") else { return false }
            let rest = start.dropFirst(verdict.count).drop { $0 == " " }
            return rest.hasPrefix(subject + " ") && rest.firstRange(of: text) != nil
        }
    }

    @Test func aWorkingSetUpIsReadyToLockAndSaysWhereEachSettingCameFrom() throws {
        let pam = try PamStack()
        mkdir(scratch.path + "/slidegate", 0o700)
        _ = write("fps=20\ntext=glide to open\n", to: "slidegate/config")
        let theme = String(#filePath.dropLast("Tests/SlidegateEndToEndTests/CheckTests.swift".count)) + "resources/themes/classic"
        let image = String(#filePath.dropLast("Tests/SlidegateEndToEndTests/CheckTests.swift".count)) + "resources/screenshot.png"
        var environment = pam.environment
        environment["XDG_CONFIG_HOME"] = scratch.path
        environment["LANG"] = "C.UTF-8"
        environment["LANGUAGE"] = "de"
        let (status, report, _) = try check(["--auth", "pam", "--theme", theme, "--image", image, "--fps", "30"], environment: environment)
        #expect(status == 0, "\(report)")
        #expect(report.hasSuffix("\nready to lock\n"), "\(report)")
        let config = scratch.path + "/slidegate/config"
        for (name, value, source) in [
            ("fps", "30", "command line"), ("text", "glide to open", config + ":2"), ("auth", "pam", "command line"),
            ("timeout", "(none)", "default"), ("pam-service", "slidegate", "default"),
        ] {
            #expect(
                report.split(separator: "\n").contains { $0.split(separator: " ").joined(separator: " ") == "\(name) \(value) \(source)" },
                "\(name) = \(value) from \(source): \(report)")
        }
        #expect(line(report, "ok", "configuration", config + ": 2 settings read"), "\(report)")
        #expect(line(report, "ok", "display", screen.name + ": 1280x720, 1 monitor"), "\(report)")
        #expect(line(report, "ok", "extensions", "RandR, XInput 2, XKB, Composite, Present, Shape"), "\(report)")
        #expect(!report.contains("blank screen"), "nothing blanks without --blank-after: \(report)")
        #expect(line(report, "ok", "slidegate-ui", "protocol"), "\(report)")
        #expect(line(report, "ok", "slidegate-auth", "protocol"), "\(report)")
        #expect(line(report, "ok", "pam", pam.directory + "/slidegate: a dry run reached its first prompt"), "\(report)")
        #expect(line(report, "ok", "theme", theme + ": track and thumb images"), "\(report)")
        #expect(line(report, "ok", "image", image + ": "), "\(report)")
        #expect(line(report, "ok", "label font", "every character of the label has a font"), "\(report)")
        #expect(line(report, "ok", "translation", "de: "), "\(report)")
        #expect(report.firstRange(of: "problem") == nil, "\(report)")
    }

    @Test func aBrokenSetUpNamesEachProblemAndIsExit2() throws {
        let pam = try PamStack()
        let config = write("timeout=30\nbogus=1\nfps=abc\nabove\n", to: "config")
        let image = write("\u{89}PNG\r\n\u{1A}\nnot a picture at all", to: "broken.png")
        var environment = pam.environment
        environment["LANG"] = "xx_YY.UTF-8"
        let arguments = [
            "--config", config, "--auth", "pam", "--pam-service", "deny", "--theme", scratch.path + "/no-theme", "--image", image,
            "--text", "slide \u{10FFFD}",
        ]
        let (status, report, _) = try check(arguments, environment: environment)
        #expect(status == 2, "\(report)")
        #expect(report.hasSuffix("\nnot ready to lock: 5 problems\n"), "\(report)")
        #expect(line(report, "problem", "configuration", config + ":2: unknown option \"bogus\""), "\(report)")
        #expect(line(report, "problem", "configuration", config + ":3: fps: expected a whole number"), "\(report)")
        #expect(line(report, "note", "configuration", config + ":4: above is for windowed mode, not used here"), "\(report)")
        #expect(line(report, "problem", "pam", pam.directory + "/deny refuses before it asks anything"), "\(report)")
        #expect(line(report, "problem", "theme", scratch.path + "/no-theme"), "\(report)")
        #expect(line(report, "problem", "image", image + ": "), "\(report)")
        #expect(line(report, "note", "label font", "no installed font has “\u{10FFFD}” (U+10FFFD): the lock screen would show a box in its place"), "\(report)")
        #expect(line(report, "note", "translation", "the locale of \"xx_YY.UTF-8\" is not installed"), "\(report)")
        #expect(report.split(separator: "\n").contains { $0.hasPrefix("  timeout ") && $0.hasSuffix(config + ":1") }, "\(report)")
    }

    /// A stack that prints a message and then grants without asking (pam_echo, pam_permit)
    /// passed as "ready to lock", and the lock then opened by slide alone. The dry run now
    /// follows a stack past its messages; one that says something and then refuses could
    /// never open the lock either.
    @Test func aStackThatGrantsOrRefusesAfterAMessageIsAProblem() throws {
        let pam = try PamStack()
        for (name, verdict, module) in [("greets", "grants without asking anything", "pam_permit.so"), ("sorry", "refuses before it asks anything", "pam_deny.so")] {
            let f = fopen(pam.directory + "/" + name, "w")!
            fputs("auth optional pam_echo.so Welcome back\nauth required \(module)\naccount required pam_permit.so\n", f)
            fclose(f)
            let (status, report, _) = try check(["--auth", "pam", "--pam-service", name], environment: pam.environment)
            #expect(status == 2, "\(report)")
            #expect(line(report, "problem", "pam", pam.directory + "/" + name + " " + verdict), "\(report)")
        }
    }

    /// pam_faillock counts a dry run whose stack refuses before it asks: --check says so
    /// before it runs one.
    @Test func aStackThatCountsFailuresIsSaidBeforeTheDryRun() throws {
        let pam = try PamStack()
        let f = fopen(pam.directory + "/counted", "w")!
        fputs("# a stack of the distribution's kind\nauth include slidegate\nauth required pam_faillock.so authfail\n", f)
        fclose(f)
        let (_, report, _) = try check(["--auth", "pam", "--pam-service", "counted"], environment: pam.environment)
        #expect(line(report, "note", "pam", pam.directory + "/counted uses pam_faillock: the dry run below counts there as a failed attempt when the stack refuses before it asks"), "\(report)")
        let (_, plain, _) = try check(["--auth", "pam"], environment: pam.environment)
        #expect(!plain.contains("pam_faillock"), "\(plain)")
    }

    @Test func aMissingServiceFileFallsBackToOtherOrIsImpossible() throws {
        let pam = try PamStack()
        var (status, report, _) = try check(["--auth", "pam", "--pam-service", "absent"], environment: pam.environment)
        #expect(status == 2)
        #expect(line(report, "problem", "pam", pam.directory + "/absent does not exist, nor " + pam.directory + "/other"), "\(report)")
        link(pam.directory + "/slidegate", pam.directory + "/other")
        defer { unlink(pam.directory + "/other") }
        (status, report, _) = try check(["--auth", "pam", "--pam-service", "absent"], environment: pam.environment)
        #expect(status == 0, "\(report)")
        #expect(line(report, "note", "pam", "absent does not exist: PAM reads " + pam.directory + "/other instead"), "\(report)")
        #expect(line(report, "ok", "pam", pam.directory + "/other: a dry run reached its first prompt"), "\(report)")
    }

    @Test func aReadersServiceIsRunToItsFirstMessage() throws {
        let pam = try PamStack()
        let reader = pam.directory + "/finger"
        let f = fopen(reader, "w")!
        // A reader: its message, then a wait for a finger that does not come.
        fputs("auth optional pam_echo.so Place your finger on the reader\nauth required pam_exec.so quiet /bin/sleep 10\nauth required pam_deny.so\n", f)
        fclose(f)
        var (status, report, _) = try check(["--auth", "pam,fingerprint", "--fingerprint-service", "finger"], environment: pam.environment)
        #expect(status == 0, "\(report)")
        #expect(line(report, "ok", "fingerprint", reader + ": a dry run reached its first message, “Place your finger on the reader”"), "\(report)")
        #expect(line(report, "ok", "pam", pam.directory + "/slidegate: a dry run reached its first prompt"), "\(report)")
        (status, report, _) = try check(["--auth", "pam,fingerprint", "--fingerprint-service", "deny"], environment: pam.environment)
        #expect(status == 2, "\(report)")
        #expect(line(report, "problem", "fingerprint", pam.directory + "/deny refuses before it asks anything: a fingerprint could never open the lock"), "\(report)")
    }

    @Test func windowedModeIsCheckedToo() throws {
        let (status, report, _) = try check(["--geometry", "600x80+100+100", "--above"])
        #expect(status == 0, "\(report)")
        #expect(report.hasPrefix("slidegate --check: windowed mode\n") && report.hasSuffix("\nready to run the gate\n"), "\(report)")
        #expect(report.split(separator: "\n").contains { $0.split(separator: " ").joined(separator: " ") == "above on command line" }, "\(report)")
        #expect(!report.split(separator: "\n").contains { $0.hasPrefix("  slider ") }, "no lock-mode settings: \(report)")
        let (small, tooSmall, _) = try check(["--geometry", "600x20+100+100"])
        #expect(small == 2, "\(tooSmall)")
        #expect(line(tooSmall, "problem", "options", "--geometry: expected a slider at least 24 pixels tall"), "\(tooSmall)")
        #expect(tooSmall.hasSuffix("\nnot ready to run the gate: 1 problem\n"), "\(tooSmall)")
    }

    @Test func anImageTheGuardWouldRefuseIsNamedAsItWouldBe() throws {
        let missing = scratch.path + "/none.jpg"
        let (status, report, _) = try check(["--image", missing])
        #expect(status == 2, "\(report)")
        #expect(line(report, "problem", "image", "--image: \(missing): no such file"), "\(report)")
        #expect(report.hasSuffix("\nnot ready to lock: 1 problem\n"), "decoded by no one after: \(report)")
    }

    @Test func thePinFileIsCheckedBothWays() throws {
        let pinFile = scratch.path + "/pin"
        var (status, report, _) = try check(["--auth", "pin", "--pin-file", pinFile])
        #expect(status == 2)
        #expect(line(report, "problem", "pin", "PIN file \(pinFile): does not exist; set a PIN with slidegate --set-pin"), "\(report)")
        let input = write("2580\n2580\n", to: "input")
        let set = try Child(slidegatePath, ["--set-pin", "--pin-file", pinFile], stdin: input)
        #expect(set.wait(timeout: 10) == 0, "\(set.standardError)")
        (status, report, _) = try check(["--auth", "pin", "--pin-file", pinFile])
        #expect(status == 0, "\(report)")
        #expect(line(report, "ok", "pin", "\(pinFile): a PIN of 4 digits"), "\(report)")
    }

    @Test func noDisplayIsAProblem() throws {
        let output = scratch.path + "/report"
        let child = try Child(slidegatePath, ["--check", "--no-config"], environment: ["DISPLAY": unset], stdout: output)
        #expect(child.wait(timeout: 30) == 2)
        let report = contents(of: output)
        #expect(line(report, "problem", "display", "cannot open a display: DISPLAY is not set"), "\(report)")
        #expect(report.hasSuffix("\nnot ready to lock: 1 problem\n"), "\(report)")
    }

    @Test func aMissingExtensionSaysWhatItCosts() throws {
        // Present and Shape cannot be turned off in Xvfb; RandR and Composite can.
        let bare = try VirtualScreen(arguments: ["-extension", "RANDR", "-extension", "Composite"])
        let output = scratch.path + "/bare"
        let child = try bare.slidegate(["--check"], stdout: output)
        #expect(child.wait(timeout: 30) == 0)
        let report = contents(of: output)
        #expect(line(report, "note", "extensions", "no RandR: the screen is covered as one monitor"), "\(report)")
        #expect(line(report, "note", "extensions", "no Composite: no overlay window to hold"), "\(report)")
        #expect(line(report, "ok", "extensions", "XInput 2, XKB, Present, Shape"), "\(report)")
    }

    /// `--blank-after` says what blanks the screen: Xvfb has no DPMS, so the screen saver
    /// alone, which is a note and not a problem.
    @Test func blankAfterSaysWhatBlanksTheScreen() throws {
        let (status, report, _) = try check(["--blank-after", "2.5"])
        #expect(status == 0, "\(report)")
        #expect(
            line(report, "note", "blank screen", "after 2.5 s without input: the screen saver alone; this server has no DPMS"),
            "\(report)")
    }

    /// `--status-command` is run once, by the drawing program, as the lock would: its line,
    /// or what went wrong as a note.
    @Test func theStatusCommandIsRunOnce() throws {
        let (status, report, _) = try check(["--status-command", "printf 'battery \\033[32m84%%\\033[0m\\n'"])
        #expect(status == 0, "\(report)")
        #expect(line(report, "ok", "status line", "\"battery 84%\""), "\(report)")
        let (failing, failed, _) = try check(["--status-command", "exit 3"])
        #expect(failing == 0, "\(failed)")
        #expect(line(failed, "note", "status line", "exit 3: exited with status 3; the lock would show no line from it"), "\(failed)")
    }

    /// `--show-user` says whose name and which picture the lock would show.
    @Test func theUserAndTheirPictureAreNamed() throws {
        let (_, without, _) = try check(["--show-user"], environment: ["HOME": scratch.path])
        #expect(line(without, "note", "user", ": no picture (AccountsService's icon or ~/.face): the initial in a circle"), "\(without)")
        try writePNG(scratch.path + "/.face", width: 8, height: 8) { _, _ in (255, 0, 0) }
        let (status, report, _) = try check(["--show-user"], environment: ["HOME": scratch.path])
        #expect(status == 0, "\(report)")
        #expect(line(report, "ok", "user", ", picture \(scratch.path)/.face"), "\(report)")
    }

    /// `--image desktop` is no file to check: the report says what the lock would show.
    @Test func theDesktopIsNamedNotRead() throws {
        let (status, report, _) = try check(["--image", "desktop", "--blur", "20", "--dim", "0.3"])
        #expect(status == 0, "\(report)")
        #expect(line(report, "ok", "image", "desktop: the screen as the lock finds it, blurred by 20, dimmed by 0.3, kept nowhere"), "\(report)")
        let (refused, said, _) = try check(["--image", "desktop"])
        #expect(refused == 2 && said.contains("--blur"), "\(said)")
    }

    /// The glances on the buses: what the lock would show now, and a missing bus, battery,
    /// player or logind as a note, never a problem.
    @Test func theBusesGlancesAreNotesWhenMissing() throws {
        let glances = ["--show-battery", "--show-media", "--power-actions", "suspend,reboot"]
        let nowhere = "unix:path=\(scratch.path)/no-bus"
        let (status, report, _) = try check(
            glances, environment: ["DBUS_SYSTEM_BUS_ADDRESS": nowhere, "DBUS_SESSION_BUS_ADDRESS": nowhere])
        #expect(status == 0, "\(report)")
        #expect(line(report, "note", "battery", "cannot connect to the system bus"), "\(report)")
        #expect(line(report, "note", "power actions", "cannot connect to the system bus"), "\(report)")
        #expect(line(report, "note", "media", "cannot connect to the session bus"), "\(report)")
        let bus = try PrivateBus()
        let logind = try Child(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "logind", "--parameters", #"{"CanReboot": "no"}"#],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(eventually(within: 10) { bus.owns("org.freedesktop.login1") })
        let (_, found, _) = try check(glances, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(line(found, "note", "battery", "UPower reports no battery (or is not running)"), "\(found)")
        #expect(line(found, "note", "power actions", "logind does not offer reboot"), "\(found)")
        #expect(line(found, "note", "media", "no MPRIS player on the session bus now"), "\(found)")
        logind.signal(SIGTERM)
    }

    @Test func helpersThatAreMissingOrMuteAreProblems() throws {
        let program = scratch.path + "/slidegate"
        #expect(copyFile(slidegatePath, program))
        // A program that says nothing and exits, where the drawing program should be.
        #expect(copyFile("/bin/true", scratch.path + "/slidegate-ui"))
        let (status, report, _) = try check(["--auth", "pam"], program: program)
        #expect(status == 2, "\(report)")
        #expect(line(report, "problem", "slidegate-ui", scratch.path + "/slidegate-ui: gave no handshake"), "\(report)")
        #expect(line(report, "problem", "slidegate-auth", scratch.path + "/slidegate-auth: "), "\(report)")
        #expect(line(report, "problem", "slidegate-ui", "did not report on the theme, picture and fonts"), "\(report)")
    }
}
