import CX11
import Glibc
import Testing

/// The configuration file (`--config`, the standard place, `--no-config`), end to end.
@Suite(.serialized) struct ConfigTests {
    let screen: VirtualScreen
    let client: Client
    let scratch: Scratch

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        scratch = try Scratch()
    }

    func write(_ text: String, to name: String) -> String {
        let path = scratch.path + "/" + name
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
        return path
    }

    @Test func aConfigFileSetsTheColourAndTheFrameRate() throws {
        let config = write("# slower, bluer\nbackground = #204060\nfps=20\n", to: "config")
        let gate = try screen.slidegate(["--slider", "600x80+100+100", "--config", config])
        #expect(eventually { client.pixel(5, 5) == (0x20, 0x40, 0x60) }, "the file's background: \(gate.standardError)")
        #expect(eventually { client.thumbShown(at: 0, threshold: 90) })
        let frames = client.frames(x: 100, y: 100, width: 600, height: 80, over: 2)
        #expect(frames > 5 && frames <= 25, "20 frames a second in the sweep, not 60: \(frames) frames in 2 s")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func theCommandLineOverridesTheStandardFileAndNoConfigSkipsIt() throws {
        mkdir(scratch.path + "/slidegate", 0o700)
        _ = write("background=#204060\n", to: "slidegate/config")
        let home = ["XDG_CONFIG_HOME": scratch.path]
        let gate = try screen.slidegate(["--slider", "600x80+100+100", "--background", "#102030"], environment: home)
        #expect(eventually { client.pixel(5, 5) == (0x10, 0x20, 0x30) }, "the command line wins")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
        let standard = try screen.slidegate(["--slider", "600x80+100+100"], environment: home)
        #expect(eventually { client.pixel(5, 5) == (0x20, 0x40, 0x60) }, "the standard file is read")
        standard.signal(SIGTERM)
        #expect(standard.wait() == 143)
        let skipped = try screen.slidegate(["--slider", "600x80+100+100", "--no-config"], environment: home)
        #expect(eventually { client.pixel(5, 5) == (0x15, 0x17, 0x1c) }, "--no-config: the built-in background")
        skipped.signal(SIGTERM)
        #expect(skipped.wait() == 143)
    }

    @Test func aBadLineIsExit2NamingTheFileAndLineWithNothingShown() throws {
        let config = write("text=fine\n\nfps=0\n", to: "bad")
        let gate = try screen.slidegate(["--config", config])
        #expect(gate.wait() == 2)
        #expect(gate.standardError == "slidegate: \(config):3: fps: expected a whole number from 1 to 240, got \"0\"\n")
        let missing = try screen.slidegate(["--config", scratch.path + "/none"])
        #expect(missing.wait() == 2)
        #expect(missing.standardError == "slidegate: --config: \(scratch.path)/none: cannot be read (No such file or directory)\n")
        #expect(client.mappedTopLevels().isEmpty && client.canGrabKeyboard(), "nothing was shown")
    }

    @Test func aSharedFileWithLockOptionsDoesNotBreakAWindowedGate() throws {
        let config = write("message=back at 3\nslider=600x80+100+100\nforeground=#ffff00\n", to: "shared")
        let gate = try screen.slidegate(["--geometry", "600x80+100+100", "--config", config])
        #expect(eventually { client.thumbShown(at: 0, threshold: 70) }, "\(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }
}

/// `--countdown` and `--reduce-motion`, end to end in lock mode (the UI gets both, and the
/// guard's deadline, over the protocol).
@Suite(.serialized) struct CountdownEndToEndTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    /// The label's part of the track, right of the resting thumb.
    func labelPixels() -> [Int] { client.brightness(x: 180, y: 110, width: 500, height: 60, step: 2) }

    @Test func theSecondsCountDownBesideAStillLabelUntilTheTimeout() throws {
        let gate = try lock(["--timeout", "4", "--countdown", "--reduce-motion"])
        var samples: [[Int]] = []
        for _ in 0..<4 {
            samples.append(labelPixels())
            sleep(seconds: 0.2)
        }
        #expect(samples.contains { $0.contains { $0 > 200 } }, "the label is at full brightness")
        #expect(zip(samples, samples.dropFirst()).contains { $0 == $1 }, "no shimmer: the label holds still within a second")
        let first = samples[0]
        sleep(seconds: 1.2)
        #expect(labelPixels() != first, "a second later another number shows")
        #expect(gate.wait(timeout: 6) == 4)
    }
}

/// The lock screen's clock: on by default above the slider, repainted when the minute
/// changes and never between; `--no-clock` and `--clock-format ""` remove it.
@Suite(.serialized) struct ClockEndToEndTests {
    let screen: VirtualScreen
    let client: Client

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    /// The default slider on 1280x720 is 378x54 at (451, 535); the clock 420x119 above it,
    /// centred, at (430, 389).
    func clockShown() -> Bool {
        client.brightness(x: 430, y: 389, width: 420, height: 119, step: 3).contains { $0 > 200 }
    }

    @Test func theClockShowsAndWakesOnlyWhenTheMinuteChanges() throws {
        // A window of three seconds inside one minute.
        let seconds = time(nil) % 60
        if seconds > 50 { sleep(seconds: Double(62 - seconds)) }
        let gate = try screen.slidegate(["--background", "#102030", "--reduce-motion"])
        #expect(eventually { clockShown() }, "the clock is drawn: \(gate.standardError)")
        let ui = try #require(uiChild(of: gate.pid))
        sleep(seconds: 0.5)
        let before = try #require(contextSwitches(of: ui))
        sleep(seconds: 3)
        let woke = try #require(contextSwitches(of: ui)) - before
        #expect(woke <= 1, "nothing moves and the minute did not change: the UI woke \(woke) times")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    /// With seconds in the format, the wall-clock timer wakes the UI once a second, and the
    /// clock's pixels change each time.
    @Test func aClockWithSecondsChangesEverySecond() throws {
        let gate = try screen.slidegate(["--background", "#102030", "--reduce-motion", "--clock-format", "%T", "--date-format", ""])
        #expect(eventually { clockShown() }, "the clock is drawn: \(gate.standardError)")
        let ui = try #require(uiChild(of: gate.pid))
        let first = client.brightness(x: 430, y: 389, width: 420, height: 119, step: 2)
        let before = try #require(contextSwitches(of: ui))
        sleep(seconds: 3)
        let woke = try #require(contextSwitches(of: ui)) - before
        #expect(woke >= 2 && woke <= 8, "three seconds, about three wake-ups: \(woke)")
        #expect(client.brightness(x: 430, y: 389, width: 420, height: 119, step: 2) != first, "the seconds changed")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func noClockAndEmptyFormatsLeaveNone() throws {
        for extra in [["--no-clock"], ["--clock-format", "", "--date-format", ""]] {
            let gate = try screen.slidegate(["--background", "#102030"] + extra)
            #expect(eventually { client.brightness(451 + 6 + 8, 535 + 6 + 8) > 90 }, "the slider is drawn")
            #expect(!clockShown(), "\(extra): no clock")
            gate.signal(SIGTERM)
            #expect(gate.wait() == 143)
        }
        let dateOnly = try screen.slidegate(["--background", "#102030", "--clock-format", "", "--date-format", "%Y"])
        #expect(eventually { clockShown() }, "the date alone")
        dateOnly.signal(SIGTERM)
        #expect(dateOnly.wait() == 143)
    }
}

/// `--theme`: the shipped classic theme draws the lock, and a broken theme is exit 2 naming
/// the file before anything is locked.
@Suite(.serialized) struct ThemeEndToEndTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let scratch: Scratch
    static let classic = String(#filePath.dropLast("Tests/SlidegateEndToEndTests/ConfigTests.swift".count)) + "resources/themes/classic"

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        scratch = try Scratch()
    }

    @Test func theClassicThemeDrawsTheLockAndASlideOpensIt() throws {
        let gate = try lock(["--theme", Self.classic])
        // The silver thumb's gloss, near its top, is much brighter than the built-in thumb.
        #expect(eventually { client.brightness(106 + 34, 106 + 8) > 200 }, "the theme's thumb: \(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }

    /// A copy of the classic theme with `change` done to it.
    func brokenTheme(_ name: String, _ change: String) throws -> String {
        let directory = scratch.path + "/" + name
        #expect(try Child("/bin/cp", ["-r", Self.classic, directory]).wait() == 0)
        #expect(try Child("/bin/sh", ["-c", change], environment: ["T": directory]).wait() == 0)
        return directory
    }

    @Test func aBrokenThemeIsExit2NamingTheFileWithNothingLocked() throws {
        let cases: [(String, String, String)] = [
            ("missing", #"rm "$T/thumb.png""#, "/missing/thumb.png: is missing (a theme needs track.png and thumb.png)"),
            ("notpng", #"echo hello > "$T/track.png""#, "/notpng/track.png: is not a readable PNG image"),
            ("caps", #"echo track-caps=20,0,20,0 > "$T/theme.conf""#, "/caps/theme.conf: track-caps 20,0,20,0 leave no middle in"),
            ("conf", #"echo shine=1 > "$T/theme.conf""#, #"/conf/theme.conf:1: unknown setting "shine""#),
        ]
        for (name, change, problem) in cases {
            let directory = try brokenTheme(name, change)
            for mode in [LockModeTests.arguments, WindowedModeTests.geometry] {
                let gate = try screen.slidegate(mode + ["--theme", directory])
                #expect(gate.wait() == 2, "\(name)")
                #expect(gate.standardError.contains(problem) && gate.standardError.split(separator: "\n").count == 1, "\(gate.standardError)")
            }
        }
        #expect(client.mappedTopLevels().isEmpty && client.canGrabKeyboard(), "nothing was shown or locked")
    }
}

/// `--image` on Xvfb: a file that is not a picture is exit 2 naming it, with nothing
/// locked; one that passes the guard's check but does not decode leaves the lock up with
/// the plain background.
@Suite(.serialized) struct ImageEndToEndTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let scratch: Scratch

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        scratch = try Scratch()
    }

    @Test func aFileThatIsNoPictureIsExit2WithNothingLocked() throws {
        try writeFile(scratch.path + "/notes.png", Array("hello\n".utf8))
        let cases = [
            (scratch.path + "/missing.jpg", "slidegate: --image: \(scratch.path)/missing.jpg: no such file"),
            (scratch.path + "/notes.png", "slidegate: --image: \(scratch.path)/notes.png: is not a PNG or JPEG image"),
            (scratch.path, "slidegate: --image: \(scratch.path): is not a readable PNG or JPEG image"),
        ]
        for (path, problem) in cases {
            let gate = try screen.slidegate(LockModeTests.arguments + ["--image", path])
            #expect(gate.wait() == 2)
            #expect(gate.standardError == problem + "\n", "\(gate.standardError)")
        }
        let windowed = try screen.slidegate(WindowedModeTests.geometry + ["--image", scratch.path + "/notes.png"])
        #expect(windowed.wait() == 2)
        #expect(windowed.standardError.contains("--image"), "\(windowed.standardError)")
        #expect(client.mappedTopLevels().isEmpty && client.canGrabKeyboard(), "nothing was shown or locked")
    }

    @Test func aPictureThatDoesNotDecodeLeavesThePlainLock() throws {
        let path = scratch.path + "/truncated.png"
        try writePNG(path, width: 64, height: 64) { _, _ in (255, 255, 255) }
        try writeFile(path, Array(try readBytes(path).prefix(60)))
        let gate = try lock(["--image", path])
        #expect(eventually { gate.standardError.contains("--image: \(path): ") }, "\(gate.standardError)")
        #expect(gate.standardError.ranges(of: "--image").count == 1, "said once: \(gate.standardError)")
        #expect(covered(), "the plain background")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }

    @Test func theImageIsDrawnUnderEveryWindowOfTheLock() throws {
        let path = scratch.path + "/tiles.png"
        // 10x10 tiles alternating two colours: `--image-mode tile` repeats them from 0,0.
        try writePNG(path, width: 20, height: 20) { x, y in (x < 10) == (y < 10) ? (250, 120, 0) : (0, 90, 160) }
        let gate = try screen.slidegate(LockModeTests.arguments + ["--image", path, "--image-mode", "tile", "--message", "back soon"])
        #expect(eventually { !client.canGrabKeyboard() && thumbShown(at: 0) }, "\(gate.standardError)")
        #expect(eventually { client.pixel(5, 5) == (250, 120, 0) && client.pixel(1275, 715) == (250, 120, 0) })
        #expect(client.pixel(15, 5) == (0, 90, 160) && client.pixel(655, 365) == (0, 90, 160))
        // The slider's rounded corner, and the message line's edge, show the tiles too.
        #expect(client.pixel(100, 100) == (250, 120, 0) && client.pixel(101, 111) == (0, 90, 160))
        let line = (y: 100 - 20 - 48, height: 48)
        #expect(client.pixel(105, line.y + 2) == (0, 90, 160) && client.pixel(115, line.y + 2) == (250, 120, 0), "the message line")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }
}

/// The bytes of a file.
func readBytes(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw FileError(path: path, code: errno) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { break }
        bytes += buffer[..<n]
    }
    return bytes
}
