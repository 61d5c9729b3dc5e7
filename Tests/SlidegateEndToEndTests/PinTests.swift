import CX11
import Glibc
import Testing

/// `--auth pin`: the PIN file, `--set-pin`, and the wheels driven as a person would — drags,
/// flicks, the scroll wheel, digit keys — with the slide or Enter to confirm.
///
/// The slider is 600x80 at (100, 500) on the 1280x720 screen, so the wheels' row (2.4 × 80
/// tall, 32 above it) is (100, 276, 600, 192): four wheels 96 wide, 15 apart, centred —
/// their centres at x 233, 344, 455, 566 and y 372, 55.5 pixels of drag per digit. The
/// tests read what the wheels show by comparing each wheel's face with the faces it showed
/// for digits set by key, so a test turns the wheels from what it sees, as a person does.
@Suite(.serialized) struct PinTests {
    let screen: VirtualScreen
    let client: Client
    let scratch: Scratch
    var directory: String { scratch.path }
    static let pin = "2580"
    static let slider = ["--slider", "600x80+100+500", "--background", "#102030", "--foreground", "#ffffff"]
    static let centres = [233, 344, 455, 566]
    static let centreY = 372
    static let pitch = 192 * 0.46 * Double.pi / 5

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        scratch = try Scratch()
    }

    var pinFile: String { directory + "/config/slidegate/pin" }

    /// `slidegate --set-pin` with `lines` on standard input; its exit status and stderr.
    func setPin(_ lines: String, file: String? = nil) throws -> (status: Int32?, error: String) {
        let input = directory + "/input"
        let f = fopen(input, "w")!
        fputs(lines, f)
        fclose(f)
        defer { unlink(input) }
        let child = try Child(slidegatePath, ["--set-pin", "--pin-file", file ?? pinFile], stdin: input)
        return (child.wait(timeout: 10), child.standardError)
    }

    func lockWithPin(_ extra: [String] = [], environment: [String: String?] = [:], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> Child
    {
        #expect(try setPin("\(Self.pin)\n\(Self.pin)\n").status == 0, sourceLocation: sourceLocation)
        let gate = try screen.slidegate(Self.slider + ["--auth", "pin", "--pin-file", pinFile] + extra, environment: environment)
        #expect(
            eventually(within: 5) { thumbShown(at: 0) && wheelsStill() }, "locked, the wheels drawn and still: \(gate.standardError)",
            sourceLocation: sourceLocation)
        return gate
    }

    func thumbShown(at value: Double) -> Bool { client.brightness(106 + Int(value * 520) + 8, 514) > 90 }

    /// The front digit's face on wheel `i`: 48x48 pixels round the row's centre line.
    func face(_ i: Int) -> [Int] {
        client.brightness(x: Self.centres[i] - 24, y: Self.centreY - 24, width: 48, height: 48, step: 3)
    }

    func faces() -> [[Int]] { (0..<4).map(face) }

    /// Nothing on the wheels changes over 0.4 s (the end of a coast moves less than a
    /// pixel in 0.15 s).
    func wheelsStill() -> Bool {
        let before = faces()
        sleep(seconds: 0.4)
        return faces() == before && !before[0].isEmpty
    }

    func waitUntilStill(within seconds: Double = 6, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(eventually(within: seconds) { wheelsStill() }, "the wheels come to rest", sourceLocation: sourceLocation)
    }

    static func keysym(_ digit: Int) -> Int32 { 0x30 + Int32(digit) }

    /// What wheel 0 looks like showing each digit, set by key (focus back on wheel 0 after each).
    func learnFaces() -> [[Int]] {
        (0...9).map { d in
            client.key(Self.keysym(d))
            client.key(0xff51)
            // Still twice over: a face caught mid-turn would be a wrong reference.
            waitUntilStill()
            waitUntilStill()
            return face(0)
        }
    }

    /// The digits the wheels rest on: read once every face is exactly one of the learnt ones
    /// and holds still (a UI slowed down by other tests may show a wheel mid-turn for a
    /// while; such a face matches no digit exactly).
    func settled(_ references: [[Int]], within seconds: Double = 8, sourceLocation: SourceLocation = #_sourceLocation)
        -> [(digit: Int, distance: Int)]
    {
        var shown: [(digit: Int, distance: Int)] = []
        let rested = eventually(within: seconds) {
            shown = read(references)
            return shown.allSatisfy { $0.distance == 0 } && wheelsStill() && read(references).map(\.digit) == shown.map(\.digit)
        }
        #expect(rested, "every wheel comes to rest on a digit: \(shown)", sourceLocation: sourceLocation)
        return shown
    }

    /// The digit each wheel shows, and how far its face is from that digit's (0: exactly).
    func read(_ references: [[Int]]) -> [(digit: Int, distance: Int)] {
        faces().map { face in
            references.enumerated().map { (d, ref) in (d, zip(face, ref).reduce(0) { $0 + abs($1.0 - $1.1) }) }
                .min { $0.1 < $1.1 }!
        }
    }

    func slide() { client.drag(from: (140, 540), to: (1000, 540)) }

    @Test func theOnScreenKeyboardIsNotShownWithTheWheels() throws {
        let gate = try lockWithPin(["--keyboard", "on"])
        // A tap on a wheel, and one where a keyboard would be (below the slider, or at the
        // screen's bottom): the wheels are the touch path, nothing else shows.
        client.move(Self.centres[0], Self.centreY)
        client.button(true)
        client.button(false)
        client.move(400, 650)
        client.button(true)
        client.button(false)
        sleep(seconds: 0.5)
        #expect(client.brightness(x: 0, y: 590, width: 1280, height: 130, step: 4).allSatisfy { $0 < 40 }, "nothing below the slider")
        #expect(gate.isRunning)
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func setPinWritesA0600FileInA0700DirectoryThatUnlocks() throws {
        let result = try setPin("2580\n2580\n")
        #expect(result.status == 0, "\(result.error)")
        var info = stat()
        #expect(stat(pinFile, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(stat(directory + "/config/slidegate", &info) == 0 && info.st_mode & 0o7777 == 0o700)
        let line = contents(of: pinFile)
        #expect(line.hasPrefix("4 $y$") && line.hasSuffix("\n") && !line.contains("2580"), "\(line)")
        let gate = try lockWithPin()
        for d in [2, 5, 8, 0] { client.key(Self.keysym(d)) }
        client.key(0xff0d)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(client.canGrabKeyboard())
    }

    @Test func aPinFileMadeWithMkpasswdAsTheReadmeShowsUnlocks() throws {
        let output = directory + "/hash"
        let made = try Child("/usr/bin/mkpasswd", ["-m", "yescrypt", "2580"], stdout: output)
        #expect(made.wait() == 0, "mkpasswd (Debian package whois, which ./dev installs): \(made.standardError)")
        let hash = contents(of: output).split(separator: "\n").first.map(String.init) ?? ""
        #expect(hash.hasPrefix("$y$"))
        mkdir(directory + "/config", 0o700)
        mkdir(directory + "/config/slidegate", 0o700)
        let f = fopen(pinFile, "w")!
        fputs("4 \(hash)\n", f)
        fclose(f)
        chmod(pinFile, 0o600)
        let gate = try screen.slidegate(Self.slider + ["--auth", "pin", "--pin-file", pinFile])
        #expect(eventually(within: 5) { thumbShown(at: 0) && wheelsStill() }, "\(gate.standardError)")
        for d in [2, 5, 8, 0] { client.key(Self.keysym(d)) }
        client.key(0xff0d)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func setPinRefusesAMismatchOrANonDigitAndWritesNothing() throws {
        for (input, message) in [
            ("2580\n2581\n", "the two PINs differ"), ("25a0\n25a0\n", "expected a PIN of 4 to 12 digits"),
            ("123\n123\n", "expected a PIN of 4 to 12 digits"), ("1234567890123\n1234567890123\n", "expected a PIN of 4 to 12 digits"),
            ("2580\n", "expected the PIN twice"),
        ] {
            let result = try setPin(input)
            #expect(result.status == 2, "\(input.debugDescription)")
            #expect(result.error.contains("--set-pin: \(message)"), "\(result.error)")
            #expect(access(pinFile, F_OK) != 0, "nothing written for \(input.debugDescription)")
        }
    }

    /// Writes `text` as a PIN file of its own with `mode`, and locks with it.
    func lockWith(_ text: String, mode: mode_t = 0o600, owner: uid_t? = nil) throws -> Child {
        let path = directory + "/pin-\(UInt32.random(in: 0...UInt32.max))"
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
        chmod(path, mode)
        if let owner { chown(path, owner, getgid()) }
        return try screen.slidegate(Self.slider + ["--auth", "pin", "--pin-file", path])
    }

    /// CVE-2016-6866 (slock): crypt(3) gave NULL for a hash it could not read, slock used it
    /// and crashed, and the screen unlocked. A hash of a known kind that crypt cannot read
    /// passes the file's check; a PIN is then refused and the lock holds.
    @Test func aHashCryptCannotReadRefusesEveryPinAndTheLockHolds() throws {
        let gate = try lockWith("4 $y$j9T$*not*a*salt*$*not*a*hash*\n")
        #expect(eventually(within: 5) { thumbShown(at: 0) && wheelsStill() }, "locked: \(gate.standardError)")
        for d in [2, 5, 8, 0] { client.key(Self.keysym(d)) }
        client.key(0xff0d)
        #expect(eventually { client.bannerIcon().map { $0.r > 180 && $0.g < 120 } ?? false }, "the PIN is refused")
        #expect(eventually { thumbShown(at: 0) && !thumbShown(at: 1) }, "the thumb springs back")
        #expect(gate.isRunning && !client.canGrabKeyboard() && client.pixel(5, 5) == (16, 32, 48), "still locked: \(gate.standardError)")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func badPinFilesAreExit2NamingTheFileBeforeAnythingIsLocked() throws {
        let good = "4 $y$j9T$ZVoxMqnsKWgDsKdawhxb.1$wLuHexuMa.q.lKz7ZN0AX6/WbvOK80NZUY5CgbTu1Z1\n"
        var cases: [(Child, String)] = [
            (try screen.slidegate(Self.slider + ["--auth", "pin", "--pin-file", directory + "/missing"]), "/missing: does not exist"),
            (try lockWith(good, mode: 0o644), "is readable or writable by group or others (mode 644)"),
            (try lockWith(good, mode: 0o620), "is readable or writable by group or others (mode 620)"),
            (try lockWith("four $y$j9T$abc\n"), "expected the number of digits, a space and a crypt(5) hash"),
            (try lockWith("3 $y$j9T$ZVoxMqnsKWgDsKdawhxb.1$wLuHexuMa.q.lKz7ZN0AX6\n"), "expected a PIN of 4 to 12 digits, got 3"),
            (try lockWith("4 abJnggxhB/yJU\n"), "holds a DES or MD5 hash"),
            (try lockWith("4 $1$abcdefgh$0123456789012345678901\n"), "holds a DES or MD5 hash"),
            (try lockWith("4 $5$rounds$abcdefghijklmnopqrstuvwxyz\n"), "expected a yescrypt ($y$), bcrypt ($2b$) or SHA-512 ($6$) hash"),
            (try lockWith(good + good), "has more than one line"),
            (try lockWith(""), "is empty"),
            (try screen.slidegate(Self.slider + ["--auth", "pin", "--pin-file", directory]), "is not a regular file"),
        ]
        if getuid() == 0 { cases.append((try lockWith(good, owner: 65534), "is owned by uid 65534, not by uid 0")) }
        for (gate, problem) in cases {
            #expect(gate.wait() == 2, "\(problem)")
            let error = gate.standardError
            #expect(error.hasPrefix("slidegate: PIN file \(directory)") && error.contains(problem), "\(error)")
            #expect(error.split(separator: "\n").count == 1, "one line: \(error)")
        }
        #expect(client.mappedTopLevels().isEmpty && client.canGrabKeyboard(), "nothing was ever locked")
    }

    @Test func theWheelsStartScrambledDragsAndAFlickTurnThemAndTheSlideUnlocks() throws {
        let gate = try lockWithPin()
        let references = learnFaces()
        #expect(Set(references).count == 10, "ten different faces")
        // Wheels 1 to 3 still show the random digits they started at.
        var shown = settled(references)
        // Wheels 1 to 3 by slow drags: n digits of pointer travel up for n digits on.
        let target = Self.pin.map { Int(String($0))! }
        for i in 1...3 {
            // The short way round: up to five digits on (the pointer up) or back (down), so
            // the drag stays on the screen.
            var steps = (target[i] - shown[i].digit + 10) % 10
            if steps > 5 { steps -= 10 }
            guard steps != 0 else { continue }
            let x = Self.centres[i]
            let distance = Int((Double(steps) * Self.pitch).rounded())
            client.drag(from: (x, Self.centreY), to: (x, Self.centreY - distance), steps: 20, release: false)
            sleep(seconds: 0.25)
            client.button(false)
        }
        shown = settled(references)
        #expect(shown[1...3].map(\.digit) == target[1...3].map { $0 }, "drags turn a wheel by what the pointer travels: \(shown)")
        // Wheel 0 by a flick: it coasts on and lands exactly on a digit.
        let x = Self.centres[0]
        client.move(x, Self.centreY + 60)
        client.button(true)
        for i in 1...6 {
            sleep(seconds: 0.016)
            client.move(x, Self.centreY + 60 - 20 * i)
        }
        client.button(false)
        sleep(seconds: 0.3)
        #expect(!wheelsStill(), "a flick keeps the wheel turning after the release")
        shown = settled(references)
        // The scroll wheel, one digit per notch, from what it shows to the PIN's digit.
        client.move(x, Self.centreY)
        let notches = (target[0] - shown[0].digit + 10) % 10
        for _ in 0..<notches { client.scroll(down: true) }
        #expect(settled(references).map(\.digit) == target, "the wheels show the PIN")
        #expect(gate.isRunning, "setting the wheels alone does not unlock")
        slide()
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func aWrongPinKeepsTheLockSaysSoAndScramblesTheWheels() throws {
        let gate = try lockWithPin()
        let references = learnFaces()
        for _ in 0..<4 { client.key(Self.keysym(1)) }
        #expect(settled(references).map(\.digit) == [1, 1, 1, 1])
        slide()
        #expect(eventually { client.bannerIcon().map { $0.r > 180 && $0.g < 120 } ?? false }, "an error banner slides in")
        #expect(eventually { thumbShown(at: 0) && !thumbShown(at: 1) }, "the thumb springs back")
        let after = settled(references)
        #expect(after.map(\.digit) != [1, 1, 1, 1], "scrambled: \(after)")
        #expect(gate.isRunning && !client.canGrabKeyboard(), "still locked")
        for d in [2, 5, 8, 0] { client.key(Self.keysym(d)) }
        client.key(0xff0d)
        #expect(gate.wait() == 0, "the right PIN then works: \(gate.standardError)")
        #expect(gate.standardError.contains("slidegate: 1 failed attempt since "), "\(gate.standardError)")
    }

    @Test func theFifthFailureBlocksTheWheelsAndTheSliderWithACountdown() throws {
        let gate = try lockWithPin()
        for attempt in 1...5 {
            for _ in 0..<4 { client.key(Self.keysym(1)) }
            client.key(0xff0d)
            // The refusal blocks input for a second (a minute after the fifth).
            if attempt < 5 { sleep(seconds: 1.3) }
        }
        #expect(
            eventually(within: 8) { client.bannerIcon().map { $0.r > 180 && $0.g > 120 && $0.b < 100 } ?? false },
            "the countdown banner (a warning) shows after the error")
        sleep(seconds: 1.5)
        for d in [2, 5, 8, 0] { client.key(Self.keysym(d)) }
        client.key(0xff0d)
        slide()
        sleep(seconds: 1)
        #expect(gate.isRunning, "neither keys nor the slide do anything during the minute")
        #expect(thumbShown(at: 0) && !thumbShown(at: 1), "the thumb did not move")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func killingTheHelperKeepsTheLockAndAnotherChecksThePin() throws {
        let gate = try lockWithPin()
        let helper = try #require(AuthTests.helperPid(of: gate.pid))
        kill(helper, SIGKILL)
        sleep(seconds: 0.3)
        #expect(gate.isRunning && !client.canGrabKeyboard() && !client.canGrabPointer(), "still locked")
        #expect(gate.standardError.contains("the authentication helper ended"), "\(gate.standardError)")
        for d in [2, 5, 8, 0] { client.key(Self.keysym(d)) }
        client.key(0xff0d)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func withPinAndPamThePasswordWorksByKeyboard() throws {
        let pam = try PamStack()
        #expect(try setPin("\(Self.pin)\n\(Self.pin)\n").status == 0)
        let gate = try screen.slidegate(
            Self.slider + ["--auth", "pin,pam", "--pin-file", pinFile], environment: pam.environment)
        #expect(eventually(within: 5) { thumbShown(at: 0) })
        // Digits type the password: they do not set the wheels.
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func windowedModeHoldsTheWheelsAboveTheTrack() throws {
        #expect(try setPin("\(Self.pin)\n\(Self.pin)\n").status == 0)
        // 600x272: a track of 80 below wheels of 160.
        let gate = try screen.slidegate([
            "--geometry", "600x272+100+100", "--background", "#102030", "--auth", "pin", "--pin-file", pinFile,
        ])
        #expect(eventually(within: 5) { client.brightness(100 + 6 + 8, 100 + 192 + 14) > 90 }, "the thumb at the window's bottom")
        #expect(eventually { client.brightness(x: 100, y: 100, width: 600, height: 160, step: 4).contains { $0 > 150 } }, "digits above it")
        client.move(400, 200)
        for d in [2, 5, 8, 0] { client.key(Self.keysym(d)) }
        client.key(0xff0d)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }
}

/// A directory of the test's own in /tmp, removed with everything in it.
final class Scratch {
    let path: String

    init() throws {
        var template = Array("/tmp/slidegate-pin.XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw Child.SpawnError(path: "mkdtemp", code: errno) }
        path = String(cString: dir)
    }

    deinit {
        _ = try? Child("/bin/rm", ["-rf", path]).wait()
    }
}
