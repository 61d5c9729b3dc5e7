import CX11
import Glibc
import Testing

/// The glances and controls that read the buses, each with the real part it talks to on a
/// private bus that stands in for both the system and the session bus: python-dbusmock's
/// UPower and logind, a real MPRIS player (mpv with mpv-mpris, playing a tone this test
/// writes) and a hostile one.
///
/// On 1280x720 the default slider is 378x54 at (451, 535). With `--show-media` the panel
/// is 378x70 at (451, 446), its buttons 39 pixels square at x 221, 272 and 323 of it and y
/// 16; the clock's window is above it. The power row is 32 pixels tall, 19 from the bottom
/// right corner, each button 115 wide and 10 apart.
@Suite(.serialized) struct BusGlanceEndToEndTests {
    let screen: VirtualScreen
    let client: Client
    let bus: PrivateBus
    let scratch: Scratch

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        bus = try PrivateBus()
        scratch = try Scratch()
    }

    var busEnvironment: [String: String?] { ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "DBUS_SESSION_BUS_ADDRESS": bus.address] }

    func sliderDrawn() -> Bool { client.brightness(451 + 6 + 8, 535 + 6 + 8) > 90 }

    func lock(_ extra: [String]) throws -> Child {
        let gate = try screen.slidegate(
            ["--background", "#102030", "--foreground", "#ffffff", "--reduce-motion"] + extra, environment: busEnvironment)
        #expect(eventually { sliderDrawn() }, "locked: \(gate.standardError)")
        return gate
    }

    func unlock(_ gate: Child) {
        client.drag(from: (451 + 30, 562), to: (451 + 378 + 40, 562))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// A dbusmock template on the private bus, with `parameters` (JSON).
    func mock(_ template: String, parameters: String = "{}", owning name: String) throws -> Child {
        let mock = try Child(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", template, "--parameters", parameters],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(eventually(within: 10) { bus.owns(name) }, "\(template) is on the bus: \(mock.standardError)")
        return mock
    }

    func lit(x: Int, y: Int, width: Int, height: Int) -> Int {
        client.brightness(x: x, y: y, width: width, height: height, step: 1).filter { $0 > 150 }.count
    }

    // --show-battery: UPower's display device, in the status strip under the clock.

    /// The display device as UPower's SetupDisplayDevice sets it: type 2 is a battery,
    /// state 1 charging and 2 discharging.
    func setBattery(type: Int, state: Int, percent: Double, present: Bool) -> Bool {
        bus.call(
            "org.freedesktop.UPower", "/org/freedesktop/UPower", "org.freedesktop.DBus.Mock.SetupDisplayDevice", "uint32:\(type)",
            "uint32:\(state)", "double:\(percent)", "double:40", "double:80", "double:2.5", "int64:3600", "int64:0",
            "boolean:\(present)", "string:battery", "uint32:1")
    }

    /// Without --show-media the status strip is the 420x24 at (430, 484).
    func batteryStrip() -> [Int] { client.brightness(x: 430, y: 484, width: 420, height: 24, step: 1) }

    @Test func theBatteryShowsAndFollowsUPower() throws {
        let upower = try mock("upower", owning: "org.freedesktop.UPower")
        #expect(setBattery(type: 2, state: 2, percent: 62, present: true))
        let gate = try lock(["--show-battery"])
        #expect(eventually { batteryStrip().contains { $0 > 150 } }, "the level shows: \(gate.standardError)")
        sleep(seconds: 0.3)
        let discharging = batteryStrip()
        #expect(setBattery(type: 2, state: 1, percent: 9, present: true))
        #expect(eventually { batteryStrip() != discharging && batteryStrip().contains { $0 > 150 } }, "it follows UPower's signal")
        // A desktop: the display device is no battery.
        #expect(setBattery(type: 1, state: 0, percent: 0, present: false))
        #expect(eventually { !batteryStrip().contains { $0 > 150 } }, "nothing without a battery")
        #expect(gate.standardError.isEmpty, "\(gate.standardError)")
        unlock(gate)
        upower.signal(SIGTERM)
    }

    /// No UPower on the bus: the lock shows no level, says nothing, and opens as ever.
    @Test func withoutUPowerNothingShows() throws {
        let gate = try lock(["--show-battery"])
        sleep(seconds: 1)
        #expect(!batteryStrip().contains { $0 > 150 })
        #expect(gate.standardError.isEmpty, "\(gate.standardError)")
        unlock(gate)
    }

    // --power-actions: logind's Manager, with polkit's say left to logind.

    /// The arguments of each call of `method` logind's mock recorded, as dbus-send prints
    /// them (the line after the method's name), spaces left out.
    func logindCalls(_ method: String) -> [String] {
        let lines = (bus.ask("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock.GetCalls") ?? "")
            .split(separator: "\n").map(\.trimmingSpaces)
        return lines.indices.filter { lines[$0].hasPrefix(method + "array[") }.map { $0 + 1 < lines.count ? lines[$0 + 1] : "" }
    }

    @Test func aPowerButtonAsksLogindAndTheLockStays() throws {
        // logind offers suspend and poweroff, and not hibernate: its button is left out, and
        // the two shown fill the row from its right end.
        let logind = try mock("logind", parameters: #"{"CanHibernate": "na", "CanPowerOff": "challenge"}"#, owning: "org.freedesktop.login1")
        let gate = try lock(["--power-actions", "suspend,hibernate,poweroff"])
        let row = (x: 1280 - 19 - (3 * 115 + 20), y: 720 - 19 - 32)
        #expect(eventually { lit(x: row.x + 125, y: row.y, width: 240, height: 32) > 20 }, "two buttons: \(gate.standardError)")
        #expect(lit(x: row.x, y: row.y, width: 115, height: 32) == 0, "no third")
        // The first shown is suspend, in the middle of the row.
        client.move(row.x + 125 + 57, row.y + 16)
        client.button(true)
        client.button(false)
        #expect(eventually { logindCalls("Suspend").count == 1 }, "logind was asked once: \(logindCalls("Suspend"))")
        #expect(logindCalls("Suspend").first?.contains("booleantrue") == true, "interactive: polkit decides")
        #expect(logindCalls("PowerOff").isEmpty, "only the one pressed")
        // A press where the hibernate button would be asks nothing.
        client.move(row.x + 57, row.y + 16)
        client.button(true)
        client.button(false)
        sleep(seconds: 0.5)
        #expect(logindCalls("Hibernate").isEmpty)
        #expect(!client.canGrabKeyboard() && sliderDrawn(), "the lock stays up")
        unlock(gate)
        logind.signal(SIGTERM)
    }

    /// Right to left the row sits at the bottom left, its first action rightmost: the guard
    /// hit-tests where the UI paints.
    @Test func rightToLeftThePowerRowIsMirroredAndStillHits() throws {
        let logind = try mock("logind", owning: "org.freedesktop.login1")
        let gate = try screen.slidegate(
            ["--background", "#102030", "--foreground", "#ffffff", "--reduce-motion", "--power-actions", "suspend,reboot", "--direction", "rtl"],
            environment: busEnvironment)
        #expect(eventually { client.brightness(451 + 378 - 14, 535 + 14) > 90 }, "locked, the thumb at the right: \(gate.standardError)")
        let row = (x: 19, y: 720 - 19 - 32)
        #expect(eventually { lit(x: row.x, y: row.y, width: 240, height: 32) > 20 }, "the row shows at the left: \(gate.standardError)")
        #expect(lit(x: 1280 - 19 - 240, y: row.y, width: 240, height: 32) == 0, "nothing at the right")
        // Suspend, the first, is the right one of the two.
        client.move(row.x + 125 + 57, row.y + 16)
        client.button(true)
        client.button(false)
        #expect(eventually { logindCalls("Suspend").count == 1 }, "\(logindCalls("Suspend"))")
        #expect(logindCalls("Reboot").isEmpty)
        client.drag(from: (451 + 378 - 30, 562), to: (451 - 40, 562))
        #expect(gate.wait() == 0, "\(gate.standardError)")
        logind.signal(SIGTERM)
    }

    /// The focus ring's colour (the info accent, #4a90d9) in a rectangle.
    func ringed(x: Int, y: Int, width: Int, height: Int) -> Bool {
        (client.pixels(x: x, y: y, width: width, height: height) ?? []).contains { pixel in
            let (r, g, b) = (Int(pixel >> 16 & 0xff), Int(pixel >> 8 & 0xff), Int(pixel & 0xff))
            return abs(r - 0x4a) < 12 && abs(g - 0x90) < 12 && abs(b - 0xd9) < 12
        }
    }

    /// Tab and Shift+Tab move a ring through the controls in reading order (the power row,
    /// then the switch-user button); Return carries out the one ringed; Escape and a click
    /// end the focus without doing anything else.
    @Test func theKeyboardReachesEveryControl() throws {
        let logind = try mock("logind", owning: "org.freedesktop.login1")
        let marker = scratch.path + "/switched"
        let gate = try lock(["--power-actions", "suspend,reboot", "--switch-user-command", "touch \(marker)", "--blank-after", "60"])
        let row = (x: 1280 - 19 - (2 * 115 + 10), y: 720 - 19 - 32)
        let suspend = (x: row.x, y: row.y, width: 115, height: 32)
        let reboot = (x: row.x + 125, y: row.y, width: 115, height: 32)
        #expect(eventually { lit(x: row.x, y: row.y, width: 240, height: 32) > 20 }, "the row shows: \(gate.standardError)")
        #expect(!ringed(x: row.x, y: row.y, width: 240, height: 32))
        client.key(0xFF09)
        #expect(eventually { ringed(x: suspend.x, y: suspend.y, width: suspend.width, height: suspend.height) }, "the first Tab: suspend")
        #expect(!ringed(x: reboot.x, y: reboot.y, width: reboot.width, height: reboot.height))
        client.key(0xFF09)
        #expect(eventually { ringed(x: reboot.x, y: reboot.y, width: reboot.width, height: reboot.height) }, "then reboot")
        #expect(!ringed(x: suspend.x, y: suspend.y, width: suspend.width, height: suspend.height))
        client.key(0xFF09)
        #expect(eventually { !ringed(x: row.x, y: row.y, width: 240, height: 32) }, "then the switch-user button")
        client.key(0xFF0D)
        #expect(eventually { access(marker, F_OK) == 0 }, "Return pressed it")
        // Shift+Tab twice from there: back to suspend.
        client.keyDown(0xFFE1)
        client.key(0xFF09)
        client.key(0xFF09)
        client.keyUp(0xFFE1)
        #expect(eventually { ringed(x: suspend.x, y: suspend.y, width: suspend.width, height: suspend.height) }, "Shift+Tab went back")
        client.key(0x20)
        #expect(eventually { logindCalls("Suspend").count == 1 }, "Space pressed it")
        #expect(logindCalls("Reboot").isEmpty)
        client.key(0xFF1B)
        #expect(eventually { !ringed(x: row.x, y: row.y, width: 240, height: 32) }, "Escape ends the focus")
        sleep(seconds: 0.5)
        #expect(!client.screenSaverOn(), "and only that: the screen stays")
        client.key(0xFF09)
        #expect(eventually { ringed(x: suspend.x, y: suspend.y, width: suspend.width, height: suspend.height) })
        client.move(200, 200)
        client.button(true)
        client.button(false)
        #expect(eventually { !ringed(x: row.x, y: row.y, width: 240, height: 32) }, "a click elsewhere ends it")
        #expect(logindCalls("Suspend").count == 1 && !client.canGrabKeyboard())
        unlock(gate)
        logind.signal(SIGTERM)
    }

    // --show-media: mpv with mpv-mpris, and a hostile player.

    /// A 2-second 440 Hz tone, 16-bit mono at 8 kHz: what mpv plays, looped.
    func writeTone(_ path: String) throws {
        let rate = 8000
        let samples = (0..<(2 * rate)).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        var bytes: [UInt8] = []
        func add(_ text: String) { bytes += Array(text.utf8) }
        func u32(_ v: Int) { bytes += withUnsafeBytes(of: UInt32(v).littleEndian) { Array($0) } }
        func u16(_ v: Int) { bytes += withUnsafeBytes(of: UInt16(v).littleEndian) { Array($0) } }
        add("RIFF")
        u32(36 + samples.count * 2)
        add("WAVEfmt ")
        u32(16)
        u16(1)
        u16(1)
        u32(rate)
        u32(rate * 2)
        u16(2)
        u16(16)
        add("data")
        u32(samples.count * 2)
        for sample in samples { bytes += withUnsafeBytes(of: sample.littleEndian) { Array($0) } }
        guard let file = fopen(path, "w") else { throw Child.SpawnError(path: path, code: errno) }
        defer { fclose(file) }
        fwrite(bytes, 1, bytes.count, file)
    }

    func startMpv() throws -> Child {
        let tone = scratch.path + "/tone.wav"
        try writeTone(tone)
        let mpv = try Child(
            "/usr/bin/mpv",
            [
                "--no-config", "--script=/etc/mpv/scripts/mpris.so", "--no-video", "--ao=null", "--loop-file=inf",
                "--force-media-title=A test tone", tone,
            ], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": scratch.path])
        #expect(eventually(within: 10) { bus.owns("org.mpris.MediaPlayer2.mpv") }, "mpv is on the bus: \(mpv.standardError)")
        return mpv
    }

    var playbackStatus: String {
        bus.ask(
            "org.mpris.MediaPlayer2.mpv", "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
            "string:org.mpris.MediaPlayer2.Player", "string:PlaybackStatus") ?? ""
    }

    func titleShown() -> Bool { lit(x: 451 + 16, y: 446 + 10, width: 190, height: 50) > 20 }

    /// The play/pause button's disc is light; its glyph is the background's colour.
    func playPauseShown() -> Bool { client.brightness(451 + 272 + 3, 446 + 16 + 19) > 150 }

    @Test func thePlayerShowsAndItsButtonsAndKeysActOnIt() throws {
        let mpv = try startMpv()
        #expect(eventually { playbackStatus.contains("Playing") })
        let gate = try lock(["--show-media"])
        #expect(eventually { titleShown() && playPauseShown() }, "the panel shows: \(gate.standardError)")
        client.key(0x1008_FF31)  // XF86AudioPause
        #expect(eventually { playbackStatus.contains("Paused") }, "the pause key paused it: \(playbackStatus)")
        // The play/pause button.
        client.move(451 + 272 + 19, 446 + 16 + 19)
        client.button(true)
        client.button(false)
        #expect(eventually { playbackStatus.contains("Playing") }, "the button played it: \(playbackStatus)")
        #expect(!client.canGrabKeyboard() && sliderDrawn(), "the lock stays up")
        unlock(gate)
        // A --key-command that binds a media key takes it.
        let marker = scratch.path + "/bound"
        let bound = try lock(["--show-media", "--key-command", "XF86AudioPause=touch \(marker)"])
        #expect(eventually { titleShown() })
        client.key(0x1008_FF31)
        #expect(eventually { access(marker, F_OK) == 0 }, "the bound command ran: \(bound.standardError)")
        sleep(seconds: 0.5)
        #expect(playbackStatus.contains("Playing"), "and the player was left alone")
        unlock(bound)
        mpv.signal(SIGTERM)
    }

    /// A player leaving the bus takes its panel with it; one arriving while locked shows.
    @Test func playersComeAndGoWhileLocked() throws {
        let gate = try lock(["--show-media"])
        sleep(seconds: 1)
        #expect(!titleShown(), "no player: an empty panel")
        let mpv = try startMpv()
        #expect(eventually { titleShown() }, "a player that starts shows: \(gate.standardError)")
        mpv.signal(SIGTERM)
        #expect(mpv.wait() != nil)
        #expect(eventually { !titleShown() }, "and goes when it ends")
        unlock(gate)
    }

    /// A player that sends a 1 MB title, control characters, and hundreds of updates a second,
    /// and answers no control: the panel follows at --fps, the lock holds, its UI is never
    /// replaced, and it opens at once. (Invalid UTF-8 cannot be sent: the bus refuses a
    /// message with it, and the lock repairs any where it reads a string, BusValue.text.)
    @Test func aHostilePlayerCostsTheLockNothing() throws {
        let script = """
            import dbus, dbus.service, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SessionBus()
            name = dbus.service.BusName("org.mpris.MediaPlayer2.hostile", bus)
            PLAYER = "org.mpris.MediaPlayer2.Player"
            HUGE = "\\x1b[31m\\u00ff\\ufffd\\u202e" + "T" * (1 << 20)
            def metadata(title):
                return dbus.Dictionary({"xesam:title": title, "xesam:artist": dbus.Array(["A" * 4096] * 200, signature="s")}, signature="sv")
            class Player(dbus.service.Object):
                def __init__(self):
                    super().__init__(bus, "/org/mpris/MediaPlayer2")
                    self.n = 0
                @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
                def GetAll(self, interface):
                    return {"PlaybackStatus": "Playing", "Metadata": metadata(HUGE)}
                @dbus.service.signal("org.freedesktop.DBus.Properties", signature="sa{sv}as")
                def PropertiesChanged(self, interface, changed, invalidated):
                    pass
                def flood(self):
                    self.n += 1
                    for i in range(5):
                        title = HUGE if (self.n * 5 + i) % 100 == 0 else "update %d" % (self.n * 5 + i)
                        self.PropertiesChanged(PLAYER, {"Metadata": metadata(title), "PlaybackStatus": "Playing"}, [])
                    return True
            player = Player()
            GLib.timeout_add(10, player.flood)
            GLib.MainLoop().run()
            """
        let hostile = try Child("/usr/bin/python3", ["-c", script], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(eventually(within: 10) { bus.owns("org.mpris.MediaPlayer2.hostile") }, "\(hostile.standardError)")
        let gate = try lock(["--show-media", "--fps", "10"])
        #expect(eventually { titleShown() }, "its title shows: \(gate.standardError)")
        // Its title changes 500 times a second; the panel shows at most --fps of them.
        let frames = client.frames(x: 451 + 16, y: 446 + 10, width: 190, height: 50, over: 2)
        #expect(frames >= 4 && frames <= 24, "\(frames) frames in 2 s at --fps 10")
        sleep(seconds: 1)
        #expect(hostile.poll() == nil, "still flooding: \(hostile.standardError)")
        #expect(!client.canGrabKeyboard() && sliderDrawn(), "the lock holds")
        client.move(451 + 272 + 19, 446 + 16 + 19)
        client.button(true)
        client.button(false)
        let started = now()
        unlock(gate)
        #expect(now() - started < 3, "it opens at once")
        #expect(!gate.standardError.contains("drawing program"), "the UI was never replaced: \(gate.standardError)")
        hostile.signal(SIGTERM)
    }

    /// At rest with the player paused, the battery and the user shown, the lock wakes no
    /// process: everything follows signals.
    @Test func atRestWithTheGlancesTheLockWakesNothing() throws {
        let upower = try mock("upower", owning: "org.freedesktop.UPower")
        #expect(setBattery(type: 2, state: 2, percent: 62, present: true))
        let mpv = try startMpv()
        #expect(eventually { playbackStatus.contains("Playing") })
        #expect(
            bus.call("org.mpris.MediaPlayer2.mpv", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.Pause"), "paused")
        let gate = try lock(["--show-media", "--show-battery", "--show-user", "--no-clock"])
        #expect(eventually { titleShown() }, "\(gate.standardError)")
        sleep(seconds: 2)
        // A late signal of mpv's or the bus's own (seen on a loaded machine) is news the lock
        // must read; a timer of the lock's would wake it in both of two windows of 2 s.
        let woke = [wakeUps(ofTheLock: gate.pid, over: 2), wakeUps(ofTheLock: gate.pid, over: 2)]
        #expect(woke.min() == 0, "the lock woke \(woke) times in two windows at rest")
        unlock(gate)
        mpv.signal(SIGTERM)
        upower.signal(SIGTERM)
    }
}
