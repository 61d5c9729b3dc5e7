import CX11
import Glibc
import Testing

/// What the lock screen shows besides the slider and the clock, each with the real part it
/// talks to: `--status-command` with real shell commands, well-behaved and hostile, and
/// `--show-user` with a real passwd entry and picture file.
@Suite(.serialized) struct GlanceEndToEndTests {
    let screen: VirtualScreen
    let client: Client
    let scratch: Scratch

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        scratch = try Scratch()
    }

    /// On 1280x720 the default slider is 378x54 at (451, 535); the status line's strip is
    /// the 420x24 under the clock, just above the slider, at (430, 484).
    func statusShown() -> Bool {
        client.brightness(x: 430, y: 484, width: 420, height: 24, step: 2).contains { $0 > 150 }
    }

    func sliderDrawn() -> Bool { client.brightness(451 + 6 + 8, 535 + 6 + 8) > 90 }

    func lock(_ extra: [String], environment: [String: String?] = [:]) throws -> Child {
        let gate = try screen.slidegate(
            ["--background", "#102030", "--foreground", "#ffffff", "--reduce-motion"] + extra, environment: environment)
        #expect(eventually { sliderDrawn() }, "locked: \(gate.standardError)")
        return gate
    }

    /// Slides the default slider to its end.
    func unlock(_ gate: Child) {
        client.drag(from: (451 + 30, 562), to: (451 + 378 + 40, 562))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    func occurrences(_ text: String, in output: String) -> Int {
        output.split(separator: "\n").filter { $0.contains(text) }.count
    }

    @Test func theFirstLineShowsAndFollowsTheCommand() throws {
        let file = scratch.path + "/status"
        try write("battery 84%\nmore lines\n", to: file)
        let gate = try lock(["--status-command", "cat \(file)", "--status-interval", "5"])
        #expect(eventually { statusShown() }, "the first line shows: \(gate.standardError)")
        try write("", to: file)
        #expect(eventually(within: 7) { !statusShown() }, "the next run printed nothing")
        try write("back\n", to: file)
        #expect(eventually(within: 7) { statusShown() }, "and the one after a line again")
        #expect(gate.standardError.isEmpty, "\(gate.standardError)")
        unlock(gate)
    }

    @Test func withoutTheClockTheLineShowsAlone() throws {
        let gate = try lock(["--no-clock", "--status-command", "echo alone"])
        #expect(eventually { statusShown() }, "\(gate.standardError)")
        #expect(
            !client.brightness(x: 430, y: 389, width: 420, height: 90, step: 3).contains { $0 > 150 }, "no clock above it")
        unlock(gate)
        let silent = try lock(["--no-clock", "--status-command", "true"])
        sleep(seconds: 1)
        #expect(!statusShown(), "a command that prints nothing leaves the strip empty: no date in it")
        unlock(silent)
    }

    /// A command that floods or fails shows nothing, is said once however often it runs,
    /// and the lock still opens at once; the flood is stopped with what it started.
    @Test(arguments: [
        ("yes 'a 1 MB title, again and again'", "--status-command wrote more than 64 KiB and was stopped"),
        ("printf '\\377\\376 bad'; exit 3", "--status-command exited with status 3"),
    ])
    func aCommandThatFloodsOrFailsCostsTheLockNothing(command: String, said: String) throws {
        let gate = try lock(["--status-command", command, "--status-interval", "5"])
        #expect(eventually { gate.standardError.contains(said) }, "\(gate.standardError)")
        #expect(!statusShown())
        #expect(eventually { !runningProcesses().contains { $0.hasPrefix("yes a 1 MB title") } }, "the flood was stopped")
        sleep(seconds: 5.5)
        #expect(occurrences(said, in: gate.standardError) == 1, "said once: \(gate.standardError)")
        unlock(gate)
    }

    /// A run that hangs is killed after 5 s with what it started, and the line the last
    /// good run printed stays.
    @Test func aHangingRunIsKilledAndTheLastLineStays() throws {
        let marker = scratch.path + "/ran"
        let gate = try lock([
            "--status-command", "if [ -e \(marker) ]; then sleep 31.25 & sleep 31.5; else touch \(marker); echo kept; fi",
            "--status-interval", "5",
        ])
        #expect(eventually { statusShown() }, "\(gate.standardError)")
        #expect(eventually(within: 8) { runningProcesses().contains { $0.hasPrefix("sleep 31.5") } }, "the second run hangs")
        #expect(
            eventually(within: 7) { gate.standardError.contains("--status-command ran longer than 5 s and was killed") },
            "\(gate.standardError)")
        #expect(eventually { !runningProcesses().contains { $0.hasPrefix("sleep 31.") } }, "killed with what it started")
        #expect(statusShown(), "the last line stays")
        unlock(gate)
    }

    // `--show-user`: the passwd entry's name and `~/.face` in a circle above the clock.

    /// On 1280x720 the clock's window is 420x222 at (430, 286) with the user on top: the
    /// circle's centre at (640, 325), the name in the strip from y 360 to 389.
    func nameShown() -> Bool {
        client.brightness(x: 430, y: 362, width: 420, height: 26, step: 2).contains { $0 > 150 }
    }

    @Test func thePictureInACircleAndTheNameUnderIt() throws {
        try writePNG(scratch.path + "/.face", width: 96, height: 64) { x, _ in x < 48 ? (255, 0, 0) : (0, 0, 255) }
        let gate = try lock(["--show-user"], environment: ["HOME": scratch.path])
        #expect(eventually { nameShown() }, "\(gate.standardError)")
        // A 96x64 picture scaled to cover the 70-pixel circle, centred: red left of its middle,
        // blue right of it, out to the circle's edge.
        #expect(client.pixel(640 - 30, 325) == (255, 0, 0) && client.pixel(640 + 30, 325) == (0, 0, 255), "left red, right blue")
        #expect(client.pixel(640 - 5, 325 - 33) == (255, 0, 0), "up to the circle's top")
        #expect(client.pixel(640 - 34, 325 - 34) == (16, 32, 48), "outside the circle: the background")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func withoutAPictureTheInitialOnADisc() throws {
        let gate = try lock(["--show-user"], environment: ["HOME": scratch.path])
        #expect(eventually { nameShown() }, "\(gate.standardError)")
        let disc = client.pixel(640 - 25, 325 - 15)
        #expect(disc != (16, 32, 48) && disc.0 < 100, "a faint disc: \(disc)")
        #expect(client.brightness(x: 620, y: 305, width: 40, height: 40, step: 2).contains { $0 > 150 }, "the initial on it")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    /// The windows around the slider keep no image at rest: another client clears them all
    /// (to the background, with an Expose each), and each is drawn again as it was.
    @Test func clearedByAnotherClientTheUserTheLineAndTheMessageAreDrawnAgain() throws {
        let gate = try lock(
            ["--no-clock", "--show-user", "--status-command", "echo here", "--message", "back soon"], environment: ["HOME": scratch.path])
        #expect(eventually { nameShown() && statusShown() }, "\(gate.standardError)")
        // Above the slider (the user and the line) and below it (the message).
        let around = { [client] in [client.pixels(x: 0, y: 0, width: 1280, height: 535), client.pixels(x: 0, y: 590, width: 1280, height: 130)] }
        let shown = around()
        let cover = try #require(client.mappedTopLevels().last)
        for window in client.children(of: cover) { XClearArea(client.display, window, 0, 0, 0, 0, 1) }
        XSync(client.display, 0)
        #expect(eventually { around() == shown }, "drawn again as they were")
        #expect(gate.standardError.isEmpty, "\(gate.standardError)")
        unlock(gate)
    }

    func write(_ text: String, to path: String) throws {
        guard let file = fopen(path + ".new", "w") else { throw Child.SpawnError(path: path, code: errno) }
        fputs(text, file)
        fclose(file)
        rename(path + ".new", path)
    }

    /// The command lines of every process, arguments joined by spaces.
    func runningProcesses() -> [String] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var lines: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Int(name) != nil else { continue }
            guard let file = fopen("/proc/\(name)/cmdline", "r") else { continue }
            var bytes: [UInt8] = []
            var byte = fgetc(file)
            while byte != EOF {
                bytes.append(byte == 0 ? UInt8(ascii: " ") : UInt8(truncatingIfNeeded: byte))
                byte = fgetc(file)
            }
            fclose(file)
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        return lines
    }
}
