import SlidegateCore
import Testing

/// Parses `arguments` and returns the options, or records why it could not.
private func options(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Options {
    let invocation = try Options.parse(arguments)
    guard case .run(let options) = invocation else {
        Issue.record("expected options, got \(invocation)", sourceLocation: sourceLocation)
        throw UserError("", status: .usage)
    }
    return options
}

/// Checks that `arguments` are refused with exit 2 and exactly `line` on stderr.
private func expectUsageError(_ arguments: [String], _ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(throws: UserError("", status: .usage).withMessage(line), sourceLocation: sourceLocation) {
        _ = try Options.parse(arguments)
    }
}

extension UserError {
    fileprivate func withMessage(_ line: String) -> UserError {
        UserError(String(line.dropFirst("slidegate: ".count)), status: status)
    }
}

@Suite struct OptionsTests {
    @Test func defaultsAreALockWithTheStandardLabel() throws {
        let o = try options()
        #expect(o.text == "slide to unlock")
        #expect(o.mode == .lock(slider: nil))
        #expect(o.fps == 60)
        #expect(o.timeout == nil)
        #expect(o.unlockCommand == nil)
        #expect(o.background == Color(hex: "#15171c"))
        #expect(o.foreground == Color(hex: "#fff"))
    }

    @Test func everyOptionTakesItsValueSeparatelyOrAfterEquals() throws {
        let o = try options(
            "--text", "slide to cancel", "--unlock-command=touch /tmp/x", "--timeout", "2.5", "--geometry=600x80+100+100",
            "--background", "#102030", "--foreground=#abcdef80", "--fps", "144")
        #expect(o.text == "slide to cancel")
        #expect(o.unlockCommand == "touch /tmp/x")
        #expect(o.timeout == 2.5)
        #expect(
            o.mode
                == .windowed(
                    Geometry(width: 600, height: 80, x: .init(100, fromFarEdge: false), y: .init(100, fromFarEdge: false))))
        #expect(o.background == Color(red: 0x10 / 255, green: 0x20 / 255, blue: 0x30 / 255))
        #expect(o.foreground.alpha == 0x80 / 255.0)
        #expect(o.fps == 144)
    }

    @Test func everyValueIsAtMost4096Bytes() throws {
        let long = String(repeating: "x", count: 70_000)
        for name in ["text", "message", "clock-format", "date-format", "unlock-command", "theme"] {
            expectUsageError(["--\(name)", long], "slidegate: --\(name): expected at most 4096 bytes, got 70000")
        }
        expectUsageError(["--text", String(repeating: "ü", count: 2049)], "slidegate: --text: expected at most 4096 bytes, got 4098")
        #expect(try options("--text", String(repeating: "ü", count: 2048)).text.utf8.count == 4096)
        let config = [Options.Given(option: OptionSpec.named("message")!, value: long, origin: .file(path: "/c", line: 3))]
        #expect(throws: UserError("/c:3: message: expected at most 4096 bytes, got 70000", status: .usage)) {
            _ = try Options.parse([], config: config)
        }
    }

    @Test func textMayBeEmptyOrLookLikeAnOption() throws {
        #expect(try options("--text", "").text == "")
        #expect(try options("--text", "--fps").text == "--fps")
        #expect(try options("--text=a=b").text == "a=b")
    }

    @Test func laterOccurrenceWins() throws {
        #expect(try options("--fps", "30", "--fps", "90").fps == 90)
    }

    @Test func sliderGeometryIsForLockMode() throws {
        let o = try options("--slider", "400x60-10-20")
        #expect(o.mode == .lock(slider: Geometry(width: 400, height: 60, x: .init(-10, fromFarEdge: true), y: .init(-20, fromFarEdge: true))))
    }

    @Test func helpAndVersion() throws {
        #expect(try Options.parse(["--help"]) == .help)
        #expect(try Options.parse(["--fps", "10", "--version"]) == .version)
        #expect(Options.help.contains("--unlock-command CMD"))
        for status in ["0  the slide", "3  no display", "4  timed out", "5  the window was closed", "128+N"] {
            #expect(Options.help.contains(status))
        }
    }

    @Test func fpsMustBeAWholeNumberFrom1To240() throws {
        #expect(try options("--fps", "1").fps == 1)
        #expect(try options("--fps", "240").fps == 240)
        for bad in ["0", "241", "-5", "60.0", "abc", "", " 60", "+60", "0060"] {
            expectUsageError(["--fps", bad], "slidegate: --fps: expected a whole number from 1 to 240, got \"\(bad)\"")
        }
        expectUsageError(["--fps"], "slidegate: --fps: expected a whole number from 1 to 240, got nothing")
    }

    @Test func timeoutIsAPositiveDecimal() throws {
        #expect(try options("--timeout", "1").timeout == 1)
        #expect(try options("--timeout", "0.25").timeout == 0.25)
        #expect(try options("--timeout", ".5").timeout == 0.5)
        #expect(try options("--timeout", "30.").timeout == 30)
        for bad in ["0", "0.0", "-1", "1e3", "inf", "nan", "abc", "", ".", "1.2.3", "99999999999"] {
            expectUsageError(
                ["--timeout", bad],
                "slidegate: --timeout: expected a number of seconds greater than 0, such as 30 or 2.5, got \"\(bad)\"")
        }
    }

    @Test func coloursTakeThreeForms() throws {
        #expect(try options("--background", "#fff").background == Color(red: 1, green: 1, blue: 1))
        #expect(try options("--foreground", "#FF000080").foreground == Color(red: 1, green: 0, blue: 0, alpha: 128 / 255))
        for bad in ["fff", "#ff", "#ffff", "#fffff", "#gggggg", "red", "#1234567", ""] {
            expectUsageError(
                ["--foreground", bad], "slidegate: --foreground: expected a colour as #RGB, #RRGGBB or #RRGGBBAA, got \"\(bad)\"")
        }
    }

    @Test func lockModeRefusesATranslucentBackground() throws {
        expectUsageError(
            ["--background", "#00000080"],
            "slidegate: --background: lock mode needs an opaque colour so nothing behind the lock shows through, got \"#00000080\"")
        #expect(try options("--background", "#00000080", "--geometry", "300x60").background.alpha < 1)
    }

    @Test func geometriesAreCheckedForShapeAndSize() throws {
        for bad in ["abc", "600x", "x80", "600x80+10", "600x80+a+b", "600*80", "", "+-1+2", "600x80+1+2junk"] {
            expectUsageError(
                ["--geometry", bad], "slidegate: --geometry: expected an X geometry such as 600x80+100+100, got \"\(bad)\"")
        }
        for tooSmall in ["40x20", "100x80", "0x0", "20000x100"] {
            expectUsageError(
                ["--slider", tooSmall],
                "slidegate: --slider: expected a slider at least 24 pixels tall and at least twice as wide as tall, at most 16384 pixels either way, got \"\(tooSmall)\"")
        }
    }

    @Test func geometryAndSliderCannotBeCombined() {
        expectUsageError(
            ["--geometry", "600x80", "--slider", "600x80"],
            "slidegate: --slider: places the slider on the lock screen and cannot be combined with --geometry (windowed mode)")
    }

    @Test func unknownOptionsMissingValuesAndStrayArguments() {
        expectUsageError(["--colour", "#fff"], "slidegate: unknown option \"--colour\"; see slidegate --help")
        expectUsageError(["-h"], "slidegate: unexpected argument \"-h\"; see slidegate --help")
        expectUsageError(["now"], "slidegate: unexpected argument \"now\"; see slidegate --help")
        expectUsageError(["--text"], "slidegate: --text: expected the label text, got nothing")
        expectUsageError(["--unlock-command", " "], "slidegate: --unlock-command: expected a shell command, got \" \"")
        expectUsageError(["--geometry"], "slidegate: --geometry: expected an X geometry such as 600x80+100+100, got nothing")
        expectUsageError(["--help=yes"], "slidegate: --help: expected no value, got \"yes\"")
    }

    @Test func usageErrorsExitWith2() {
        #expect(ExitStatus.usage.code == 2)
        #expect(ExitStatus.completed.code == 0)
        #expect(ExitStatus.internalError.code == 1)
        #expect(ExitStatus.noDisplayOrLock.code == 3)
        #expect(ExitStatus.timedOut.code == 4)
        #expect(ExitStatus.windowClosed.code == 5)
        #expect(ExitStatus.signal(15).code == 143)
    }
}

@Suite struct GeometryTests {
    let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)

    @Test func parsesTheXGrammar() {
        #expect(Geometry(parsing: "600x80+100+100") == Geometry(width: 600, height: 80, x: .init(100, fromFarEdge: false), y: .init(100, fromFarEdge: false)))
        #expect(Geometry(parsing: "=600X80") == Geometry(width: 600, height: 80))
        #expect(Geometry(parsing: "+5-0") == Geometry(x: .init(5, fromFarEdge: false), y: .init(0, fromFarEdge: true)))
        #expect(Geometry(parsing: "600") == nil)
        #expect(Geometry(parsing: "600x80-") == nil)
    }

    @Test func negativeOffsetsCountFromTheFarEdge() {
        #expect(Geometry(parsing: "600x80-0-0")!.resolve(in: screen, defaultSize: (1, 1)) == Rect(x: 1320, y: 1000, width: 600, height: 80))
        #expect(Geometry(parsing: "600x80-10+20")!.resolve(in: screen, defaultSize: (1, 1)) == Rect(x: 1310, y: 20, width: 600, height: 80))
    }

    @Test func missingSizeOrPositionUsesDefaultsAndCentres() {
        #expect(Geometry(parsing: "+10+10")!.resolve(in: screen, defaultSize: (400, 60)) == Rect(x: 10, y: 10, width: 400, height: 60))
        #expect(Geometry(parsing: "400x60")!.resolve(in: screen, defaultSize: (1, 1)) == Rect(x: 760, y: 510, width: 400, height: 60))
    }

    @Test func resolvesRelativeToAMonitor() {
        let monitor = Rect(x: 1920, y: 0, width: 1280, height: 720)
        #expect(Geometry(parsing: "400x60+10+10")!.resolve(in: monitor, defaultSize: (1, 1)) == Rect(x: 1930, y: 10, width: 400, height: 60))
        #expect(Geometry(parsing: "400x60-0-0")!.resolve(in: monitor, defaultSize: (1, 1)) == Rect(x: 2800, y: 660, width: 400, height: 60))
    }
}

@Suite struct ForkOptionTests {
    @Test func forkIsALockModeFlag() throws {
        guard case .run(let o) = try Options.parse(["--fork"]) else {
            Issue.record("expected options")
            return
        }
        #expect(o.fork)
        #expect(throws: UserError("--fork: locks the screen and cannot be combined with --geometry (windowed mode)", status: .usage)) {
            _ = try Options.parse(["--fork", "--geometry", "300x60"])
        }
        #expect(throws: UserError("--fork: expected no value, got \"1\"", status: .usage)) {
            _ = try Options.parse(["--fork=1"])
        }
    }
}

@Suite struct PinOptionsTests {
    @Test func authTakesAnyMethodsEachOnceInAnyOrder() throws {
        #expect(try options("--auth", "pin").auth == .pin)
        #expect(try options("--auth=pin,pam", "--pin-file", "/etc/kiosk/pin").pinFile == "/etc/kiosk/pin")
        #expect(try options("--auth", "pam,pin").auth == AuthMethods([.pin, .pam]))
        #expect(try options("--auth", "fingerprint,pam,key").auth.methods == [.pam, .fingerprint, .key])
        #expect(try options("--auth", "key").auth.passive == [.key])
        #expect(try options("--auth", "none").auth == .none)
        let expected =
            #"expected none, or a comma list of pam (the user's password), pin (the PIN wheels), fingerprint (a fingerprint) and key (a security key), each at most once"#
        for bad in ["pam,pam", "none,pam", "face", "pam,", ",pin", "PAM", ""] {
            expectUsageError(["--auth", bad], #"slidegate: --auth: "# + expected + #", got ""# + bad + #"""#)
        }
    }

    @Test func eachServiceBelongsToItsMethod() throws {
        let o = try options("--auth", "pam,fingerprint,key", "--fingerprint-service", "fp", "--key-service", "u2f")
        #expect(o.service(for: .fingerprint) == "fp" && o.service(for: .key) == "u2f" && o.service(for: .pam) == "slidegate")
        #expect(try options("--auth", "fingerprint").service(for: .fingerprint) == "slidegate-fingerprint")
        expectUsageError(["--auth", "pam", "--key-service", "u2f"], "slidegate: --key-service: the service is only used with key in --auth")
        expectUsageError(["--auth", "fingerprint", "--pam-service", "x"], "slidegate: --pam-service: the service is only used with pam in --auth")
        expectUsageError(
            ["--auth", "fingerprint", "--fingerprint-service", "a/b"],
            #"slidegate: --fingerprint-service: expected a PAM service name without "/", got "a/b""#)
    }

    @Test func graceIsLockModeAndNeedsAMethod() throws {
        #expect(try options("--auth", "pam", "--grace", "5").grace == 5)
        #expect(try options("--auth", "pam", "--grace", "0").grace == 0)
        #expect(try options("--auth", "pam", "--grace", "2.5").grace == 2.5)
        #expect(try options("--auth", "pam").grace == 0)
        expectUsageError(["--grace", "5"], "slidegate: --grace: with --auth none the slide alone always opens the lock; give --auth too")
        for bad in ["-1", "x", "1e3", "", "0.0.0", "."] {
            expectUsageError(
                ["--auth", "pam", "--grace", bad], #"slidegate: --grace: expected a number of seconds, 0 or more, such as 5 or 2.5, got ""# + bad + #"""#)
        }
        expectUsageError(
            ["--auth", "pam", "--grace", "5", "--geometry", "400x60"],
            "slidegate: --grace: belongs to the lock screen and cannot be combined with --geometry (windowed mode)")
    }

    @Test func blankAfterIsNeverOrOneSecondToADay() throws {
        #expect(try options().blankAfter == 0)
        #expect(try options("--blank-after", "0").blankAfter == 0)
        #expect(try options("--blank-after", "30").blankAfter == 30)
        #expect(try options("--blank-after", "1.5").blankAfter == 1.5)
        #expect(try options("--blank-after", "86400").blankAfter == 86400)
        for bad in ["0.5", "86401", "-1", "x", "", "1e3", "0.0"] {
            expectUsageError(
                ["--blank-after", bad],
                #"slidegate: --blank-after: expected 0 (never) or a number of seconds from 1 to 86400, such as 30, got ""# + bad + #"""#)
        }
        expectUsageError(
            ["--blank-after", "30", "--geometry", "400x60"],
            "slidegate: --blank-after: belongs to the lock screen and cannot be combined with --geometry (windowed mode)")
    }

    @Test func showUserIsALookOfTheLockScreen() throws {
        #expect(try options("--show-user").showUser)
        #expect(try !options().showUser)
        #expect(try options("--show-user").looks.map(\.name) == ["show-user"])
        expectUsageError(
            ["--show-user", "--geometry", "400x60"],
            "slidegate: --show-user: belongs to the lock screen and cannot be combined with --geometry (windowed mode)")
    }

    @Test func aStatusCommandRunsEvery5To3600Seconds() throws {
        let o = try options("--status-command", "acpi -b")
        #expect(o.statusCommand == "acpi -b" && o.statusInterval == 60)
        #expect(try options("--status-command", "date", "--status-interval", "5").statusInterval == 5)
        #expect(try options("--status-command", "date", "--status-interval", "3600").statusInterval == 3600)
        for bad in ["4.9", "3601", "0", "x"] {
            expectUsageError(
                ["--status-command", "date", "--status-interval", bad],
                #"slidegate: --status-interval: expected a number of seconds from 5 to 3600, such as 60, got ""# + bad + #"""#)
        }
        expectUsageError(["--status-command", " "], #"slidegate: --status-command: expected a shell command, got " ""#)
        expectUsageError(
            ["--status-interval", "30"], "slidegate: --status-interval: says how often --status-command runs, which is not given")
        expectUsageError(
            ["--status-command", "date", "--geometry", "400x60"],
            "slidegate: --status-command: belongs to the lock screen and cannot be combined with --geometry (windowed mode)")
        #expect(o.looks.map(\.name) == ["status-command"], "the UI runs it: the guard sends it")
    }

    /// `--blur` and `--dim` apply to `--image`; `--image desktop` must be blurred enough
    /// that the screen's text cannot be read on the lock.
    @Test func theDesktopIsBlurredAndDimmedAsAsked() throws {
        let o = try options("--image", "desktop", "--blur", "20", "--dim", "0.4")
        #expect(o.imageIsDesktop && o.blur == 20 && o.dim == 0.4)
        #expect(o.looks.map(\.name) == ["image", "blur", "dim"])
        #expect(try options("--image", "/tmp/a.png", "--blur", "0").blur == 0)
        #expect(try !options("--image", "/tmp/a.png").imageIsDesktop)
        for bad in [[], ["--blur", "7.9"], ["--blur", "0"]] {
            expectUsageError(
                ["--image", "desktop"] + bad,
                "slidegate: --blur: --image desktop needs --blur 8 or more, or the screen's text could be read on the lock")
        }
        for bad in ["-1", "200.5", "x", "nan", "inf"] {
            expectUsageError(
                ["--image", "/tmp/a.png", "--blur", bad], #"slidegate: --blur: expected a radius in pixels from 0 to 200, such as 20, got ""# + bad + #"""#)
        }
        for bad in ["0.95", "-0.1", "1"] {
            expectUsageError(
                ["--image", "/tmp/a.png", "--dim", bad], #"slidegate: --dim: expected a fraction from 0 to 0.9, such as 0.4, got ""# + bad + #"""#)
        }
        expectUsageError(["--blur", "20"], "slidegate: --blur: applies to --image, which is not given")
        expectUsageError(["--dim", "0.5"], "slidegate: --dim: applies to --image, which is not given")
    }

    @Test func failedAttemptsAreShownOnlyWhereSomethingCanFail() throws {
        #expect(try options("--auth", "pam", "--show-failed-attempts").gateSettings.showFailedAttempts)
        #expect(try !options("--auth", "pam").gateSettings.showFailedAttempts)
        #expect(try options("--auth", "pin", "--show-failed-attempts", "--geometry", "600x272").showFailedAttempts, "windowed mode too")
        expectUsageError(["--show-failed-attempts"], "slidegate: --show-failed-attempts: with --auth none nothing can fail; give --auth too")
    }

    @Test func keyCommandsTakeOnlyKeysThatTypeNothing() throws {
        let bound = try options(
            "--key-command", "XF86AudioRaiseVolume=pactl set-sink-volume @DEFAULT_SINK@ +5%", "--key-command", "F12=a=b",
            "--key-command", "Print=scrot").keyCommands
        #expect(bound.map(\.name) == ["XF86AudioRaiseVolume", "F12", "Print"])
        #expect(bound.map(\.keysym) == [0x1008_FF13, 0xffc9, 0xff61])
        #expect(bound.map(\.command) == ["pactl set-sink-volume @DEFAULT_SINK@ +5%", "a=b", "scrot"], "the command is all after the first =")
        let again = try options("--key-command", "F1=one", "--key-command", "F1=two").keyCommands
        #expect(again.map(\.command) == ["two"], "one command a key: the last wins")
        let expected = "KEYSYM=COMMAND with a key that types no text (F1-F35, an XF86 key such as XF86AudioRaiseVolume, Print, Pause, Scroll_Lock, Sys_Req, Break, Help or Menu) and a command"
        for bad in ["a=echo", "A=echo", "1=echo", "Return=echo", "KP_Enter=echo", "Escape=x", "BackSpace=x", "Tab=x", "space=x", "Left=x",
            "Shift_L=x", "F0=x", "F36=x", "F01=x", "XF86Switch_VT_1=x", "XF86AudioRaiseVolume", "XF86AudioRaiseVolume=", "F5= ", "=x",
            "xf86audioraisevolume=x"]
        {
            expectUsageError(["--key-command", bad], "slidegate: --key-command: expected \(expected), got \"\(bad)\"")
        }
        expectUsageError(
            ["--key-command", "F5=x", "--geometry", "400x60"],
            "slidegate: --key-command: belongs to the lock screen and cannot be combined with --geometry (windowed mode)")
    }

    @Test func keyCommandsComeFromTheConfigurationFileToo() throws {
        let given = try ConfigFile.parse("key-command=XF86AudioMute=amixer set Master toggle\nkey-command=F7=true\n", path: "/c")
        guard case .run(let parsed) = try Options.parse(["--key-command", "F7=false"], config: given) else {
            Issue.record("expected options")
            return
        }
        #expect(parsed.keyCommands.map(\.command) == ["amixer set Master toggle", "false"], "the command line's F7 wins")
        #expect(throws: UserError("/c:1: key-command: expected KEYSYM=COMMAND with a key that types no text (F1-F35, an XF86 key such as XF86AudioRaiseVolume, Print, Pause, Scroll_Lock, Sys_Req, Break, Help or Menu) and a command, got \"q=rm -rf ~\"", status: .usage)) {
            _ = try Options.parse([], config: try ConfigFile.parse("key-command=q=rm -rf ~\n", path: "/c"))
        }
    }

    @Test func switchUserIsLockModeAndNeedsACommand() throws {
        #expect(try options("--switch-user-command", "dm-tool switch-to-greeter").switchUserCommand == "dm-tool switch-to-greeter")
        expectUsageError(["--switch-user-command", " "], #"slidegate: --switch-user-command: expected a shell command, got " ""#)
        expectUsageError(
            ["--switch-user-command", "x", "--geometry", "400x60"],
            "slidegate: --switch-user-command: belongs to the lock screen and cannot be combined with --geometry (windowed mode)")
    }

    @Test func setPinIsItsOwnInvocationAndHonoursThePinFile() throws {
        #expect(try Options.parse(["--set-pin"]) == .setPin(pinFile: nil))
        #expect(try Options.parse(["--pin-file", "/tmp/p", "--set-pin"]) == .setPin(pinFile: "/tmp/p"))
    }

    @Test func aPinFileWithoutAPinIsRefused() {
        expectUsageError(
            ["--pin-file", "/tmp/p"], "slidegate: --pin-file: the PIN file is only read with pin in --auth, or with --set-pin")
        expectUsageError(["--auth", "pin", "--pin-file="], #"slidegate: --pin-file: expected a path to the PIN file, got """#)
    }

    @Test func aWindowWithWheelsKeepsATrackBelowThem() throws {
        #expect(try options("--auth", "pin", "--geometry", "480x245").auth == .pin, "the default size with wheels is fine")
        expectUsageError(
            ["--geometry", "480x245"],
            #"slidegate: --geometry: expected a slider at least 24 pixels tall and at least twice as wide as tall, at most 16384 pixels either way, got "480x245""#)
        expectUsageError(
            ["--auth", "pin", "--geometry", "600x70"],
            #"slidegate: --geometry: expected a window whose track (below the wheels, 1/3.4 of its height) is at least 24 pixels tall and at least twice as wide as tall, at most 16384 pixels either way, got "600x70""#)
    }
}

@Suite struct PinFileTests {
    static let hash = "$y$j9T$ZVoxMqnsKWgDsKdawhxb.1$wLuHexuMa.q.lKz7ZN0AX6/WbvOK80NZUY5CgbTu1Z1"

    @Test func oneLineOfLengthAndHash() throws {
        #expect(try PinFile(parsing: "4 \(Self.hash)\n") == PinFile(length: 4, hash: Self.hash))
        #expect(try PinFile(parsing: "12 \(Self.hash)") == PinFile(length: 12, hash: Self.hash), "the newline is optional")
        #expect(PinFile(length: 6, hash: Self.hash).line == "6 \(Self.hash)\n")
    }

    @Test(arguments: [
        ("", "is empty"), ("4  \(hash)", "expected the number of digits"), ("4\t\(hash)", "expected the number of digits"),
        ("+4 \(hash)", "expected the number of digits"), ("13 \(hash)", "got 13"), ("4 abJnggxhB/yJU", "DES or MD5"),
        ("4 $1$salt$hash", "DES or MD5"), ("4 $5$saltsaltsalt$hashhashhash", "yescrypt ($y$), bcrypt ($2b$) or SHA-512 ($6$)"),
        ("4 $y$short", "malformed"), ("4 \(hash)\n4 \(hash)\n", "more than one line"),
    ])
    func malformedFilesSayWhatIsWrong(_ text: String, _ problem: String) {
        #expect {
            _ = try PinFile(parsing: text)
        } throws: { error in
            (error as? UserError)?.message.contains(problem) == true
        }
    }

    @Test func theDefaultPlaceFollowsXDG() {
        #expect(PinFile.defaultPath(configHome: "/x/conf", home: "/home/ann") == "/x/conf/slidegate/pin")
        #expect(PinFile.defaultPath(configHome: "relative", home: "/home/ann") == "/home/ann/.config/slidegate/pin")
        #expect(PinFile.defaultPath(configHome: nil, home: "/home/ann") == "/home/ann/.config/slidegate/pin")
        #expect(PinFile.defaultPath(configHome: nil, home: nil) == nil)
    }
}

@Suite struct WindowManagerOptionsTests {
    @Test func aboveAndUndecoratedAreForWindows() throws {
        let o = try options("--geometry", "600x80", "--above", "--undecorated")
        #expect(o.above && o.undecorated)
        expectUsageError(
            ["--above"],
            "slidegate: --above: asks the window manager for something, and only windowed mode (--geometry) has a window it manages")
        expectUsageError(["--geometry", "600x80", "--undecorated=yes"], #"slidegate: --undecorated: expected no value, got "yes""#)
    }
}

@Suite struct ScaleOptionsTests {
    @Test func aFactorFromHalfToFour() throws {
        #expect(try options("--scale", "1.5").scale == 1.5)
        #expect(try options().scale == nil, "the X resources decide")
        for bad in ["0.4", "4.5", "2x", "-1", ""] {
            expectUsageError(["--scale", bad], #"slidegate: --scale: expected a size factor from 0.5 to 4, such as 1.5, got "\#(bad)""#)
        }
    }

    @Test func theMinimumSliderHeightScales() throws {
        #expect(try options("--slider", "600x40").mode == .lock(slider: Geometry(width: 600, height: 40)))
        expectUsageError(
            ["--scale", "2", "--slider", "600x40"],
            #"slidegate: --slider: expected a slider at least 48 pixels tall and at least twice as wide as tall, at most 16384 pixels either way, got "600x40""#)
    }
}
