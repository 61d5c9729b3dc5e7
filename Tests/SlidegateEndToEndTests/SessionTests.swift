import CX11
import CXTest
import Glibc
import Testing

/// The lock in a login session: logind (python-dbusmock's, on a private system bus, one
/// session "c1") and xss-lock as `packaging/examples` runs it. logind's Lock and Unlock
/// signals are what `loginctl lock-session` and `unlock-session` make it send.
@Suite(.serialized) struct SessionTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let logind: MockLogind

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        logind = try MockLogind()
    }

    /// The environment of a process in session c1 with this test's logind.
    var inSession: [String: String?] { ["DBUS_SYSTEM_BUS_ADDRESS": logind.address, "XDG_SESSION_ID": "c1"] }

    @Test func lockSessionLocksOnceAndUnlockSessionEndsTheLock() throws {
        let xssLock = try Child(
            "/usr/bin/xss-lock", ["--session=c1", "--transfer-sleep-lock", "--", slidegatePath] + LockModeTests.arguments,
            environment: inSession.merging([
                "DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "XDG_CACHE_HOME": freshCacheHome(),
            ]) { $1 })
        sleep(seconds: 0.5)
        #expect(xssLock.isRunning && !covered(), "xss-lock waits: \(xssLock.standardError)")
        #expect(logind.lockSession())
        let signalled = now()
        #expect(eventually { covered() }, "xss-lock started slidegate: \(xssLock.standardError)")
        let covering = now() - signalled
        #expect(covering < 0.1, "the screen is covered within 100 ms of logind's Lock: \(Int(covering * 1000)) ms")
        #expect(eventually { !client.canGrabKeyboard() && thumbShown(at: 0) })
        #expect(eventually { logind.lockedHint == true }, "slidegate set the session's LockedHint")
        let lockers = children(of: xssLock.pid)
        #expect(lockers.count == 1)
        #expect(logind.lockSession())
        sleep(seconds: 0.5)
        #expect(children(of: xssLock.pid) == lockers, "a second Lock starts no second lock")
        #expect(logind.unlockSession())
        #expect(eventually { children(of: xssLock.pid).isEmpty }, "xss-lock ended slidegate on logind's Unlock")
        #expect(eventually { client.canGrabKeyboard() && !covered() }, "the desktop is back")
        #expect(eventually { logind.lockedHint == false }, "and LockedHint is false again")
        #expect(xssLock.isRunning)
    }

    /// Suspend as logind runs it: xss-lock holds a delay inhibitor, logind says
    /// PrepareForSleep(true), xss-lock starts the lock and hands it the inhibitor, which the
    /// lock lets go only once the screen is covered and grabbed; after PrepareForSleep(false)
    /// the lock is still there and opens with the password.
    @Test func suspendWaitsForTheLockAndTheLockOutlivesTheResume() throws {
        let pam = try PamStack()
        var environment = inSession.merging(pam.environment) { $1 }
        environment.merge(["DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "XDG_CACHE_HOME": freshCacheHome()]) { $1 }
        let xssLock = try Child(
            "/usr/bin/xss-lock",
            ["--session=c1", "--transfer-sleep-lock", "--", slidegatePath] + LockModeTests.arguments + ["--auth", "pam", "--pam-service", "slidegate"],
            environment: environment)
        #expect(eventually(within: 5) { logind.sleepInhibitors.count == 1 }, "xss-lock holds a delay inhibitor: \(xssLock.standardError)")
        #expect(logind.prepareForSleep(true))
        var releasedEarly = false
        let released = eventually(within: 5) {
            let gone = logind.sleepInhibitors.isEmpty
            // Read the inhibitor first: a lock seen up after it went may have come later.
            if gone && !(covered() && !client.canGrabKeyboard()) { releasedEarly = true }
            return gone
        }
        #expect(released, "the lock let the inhibitor go")
        #expect(!releasedEarly, "the machine could sleep only once the screen was covered and grabbed")
        #expect(logind.prepareForSleep(false))
        #expect(eventually(within: 5) { logind.sleepInhibitors.count == 1 }, "after the resume xss-lock holds a new inhibitor")
        #expect(covered() && !client.canGrabKeyboard(), "the lock outlives the resume")
        let lockers = children(of: xssLock.pid)
        #expect(lockers.count == 1)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() })
        client.type(AuthTests.password)
        #expect(eventually { children(of: xssLock.pid).isEmpty && client.canGrabKeyboard() }, "unlocked with the password")
    }

    /// The packaged systemd user unit's ExecStart, word for word, but for the built slidegate
    /// in /usr/bin/slidegate's place and xss-lock told the mock's session (a unit runs in a
    /// real one, which xss-lock finds by itself).
    @Test func thePackagedUnitsCommandLocksOnLogindsLockAndThePasswordOpens() throws {
        let unit = try #require(DesktopExample.read("slidegate-xss-lock.service"))
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        var words = line.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        #expect(words.first == "/usr/bin/xss-lock" && words.contains("/usr/bin/slidegate") && words.contains("pam"), "\(line)")
        words = words.map { $0 == "/usr/bin/slidegate" ? slidegatePath : $0 }
        words.insert("--session=c1", at: 1)
        let pam = try PamStack()
        var environment = inSession.merging(pam.environment) { $1 }
        environment.merge(DesktopExample.environment(on: screen)) { $1 }
        let xssLock = try Child(words[0], Array(words.dropFirst()), environment: environment)
        #expect(eventually(within: 5) { logind.sleepInhibitors.count == 1 }, "xss-lock runs: \(xssLock.standardError)")
        #expect(logind.lockSession())
        #expect(eventually { covered() && thumbShown(at: 0) && !client.canGrabKeyboard() }, "locked: \(xssLock.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "the slide asks for the password")
        client.type(AuthTests.password)
        #expect(eventually { children(of: xssLock.pid).isEmpty && client.canGrabKeyboard() }, "unlocked with the password")
        #expect(xssLock.isRunning)
    }

    @Test func theLockedHintFollowsTheLock() throws {
        #expect(logind.lockedHint == false)
        let gate = try lock([], environment: inSession)
        #expect(eventually { logind.lockedHint == true }, "\(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
        #expect(eventually { logind.lockedHint == false })
    }

    /// The hint waits for the slider to show, not for the UI: with none that can start it
    /// comes with the guard's plain slider.
    @Test func theLockedHintComesWithThePlainSliderWhenNoUICanStart() throws {
        let install = try InstallWithoutUI()
        defer { install.remove() }
        let gate = try Child(
            install.slidegate, LockModeTests.arguments,
            environment: inSession.merging(["DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "XDG_CACHE_HOME": "/dev/null"]) { $1 })
        #expect(eventually { covered() && !client.canGrabKeyboard() })
        #expect(logind.lockedHint == false, "nothing shows the slider yet")
        #expect(eventually(within: 3) { thumbShown(at: 0) && logind.lockedHint == true }, "\(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
        #expect(eventually { logind.lockedHint == false })
    }

    @Test func withoutLogindNothingIsSaidAndNothingFails() throws {
        let gate = try lock([], environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/bus", "XDG_SESSION_ID": "c1"])
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
        let said = gate.standardError.split(separator: "\n").filter { !$0.contains("oom_score_adj") }
        #expect(said.isEmpty, "\(said)")
    }
}

/// Notifications while locked: dunst, the common notification daemon of i3 and openbox
/// desktops, on a session bus of the test's own, pops a magenta window up at the screen's
/// top right for each `notify-send`.
@Suite(.serialized) struct NotificationTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let bus: PrivateBus
    let dunst: Child
    let config: String

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        bus = try PrivateBus()
        config = "/tmp/slidegate-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).dunstrc"
        let f = fopen(config, "w")!
        fputs(
            """
            [global]
                width = 300
                height = 60
                origin = top-right
                offset = 10x10
                frame_width = 0
                font = DejaVu Sans 10
            [urgency_low]
                background = "#ff00ff"
                foreground = "#ffffff"
                timeout = 20
            [urgency_normal]
                background = "#ff00ff"
                foreground = "#ffffff"
                timeout = 20
            [urgency_critical]
                background = "#ff00ff"
                foreground = "#ffffff"
                timeout = 20

            """, f)
        fclose(f)
        dunst = try Child(
            "/usr/bin/dunst", ["-config", config],
            environment: ["DISPLAY": screen.name, "DBUS_SESSION_BUS_ADDRESS": bus.address, "WAYLAND_DISPLAY": unset])
    }

    /// A notification, sent as a person's programs send them.
    func notify(_ text: String) {
        _ = try? Child("/usr/bin/notify-send", [text], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]).wait()
    }

    /// Whether a notification's magenta shows in its place (the screen's top right).
    func notificationShows() -> Bool {
        [(1280 - 40, 20), (1280 - 160, 30), (1280 - 290, 60)].contains { client.pixel($0.0, $0.1) == (255, 0, 255) }
    }

    @Test func noNotificationIsEverSeenOverTheLock() throws {
        defer { unlink(config) }
        notify("before the lock")
        #expect(eventually(within: 5) { notificationShows() }, "dunst shows notifications: \(dunst.standardError)")
        // Gone before the lock, so that each one after maps dunst's window anew, on top.
        _ = try? Child("/usr/bin/dunstctl", ["close-all"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]).wait()
        #expect(eventually { !notificationShows() })
        let gate = try lock()
        var senders: [Child] = []
        var sent = 0
        var seen = 0
        var samples = 0
        let start = now()
        while now() - start < 2 {
            if sent < 10 && now() - start >= Double(sent) * 0.2 {
                if let sender = try? Child("/usr/bin/notify-send", ["while locked \(sent)"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]) {
                    senders.append(sender)
                }
                sent += 1
            }
            samples += 1
            if notificationShows() { seen += 1 }
        }
        #expect(senders.allSatisfy { $0.wait() == 0 }, "dunst took all ten")
        #expect(seen == 0, "frames with a notification over the lock: \(seen) of \(samples)")
        #expect(gate.isRunning && covered())
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(eventually { notificationShows() }, "after the unlock, dunst's notifications show as usual")
    }
}

/// The window manager's keys while locked: i3 with a configuration of the test's own, an
/// xterm showing a secret line, and i3's keys that open, close and move windows.
@Suite(.serialized) struct WindowManagerTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let i3: Child
    let config: String
    /// In the titles of the windows this test opens, so that only its own are counted.
    let tag = "slidegate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        config = "/tmp/\(tag).i3"
        let f = fopen(config, "w")!
        fputs(
            """
            # i3 config file (v4)
            set $mod Mod4
            font pango:DejaVu Sans 8
            bindsym $mod+Return exec xterm -title \(tag)-opened -e sleep 600
            bindsym $mod+Shift+q kill
            bindsym $mod+1 workspace 1
            bindsym $mod+2 workspace 2

            """ + (DesktopExample.read("i3.config") ?? ""), f)
        fclose(f)
        i3 = try Child("/usr/bin/i3", ["-c", config], environment: DesktopExample.environment(on: screen))
    }

    /// Whether a process of this test's with `title` in its command line runs.
    func running(_ title: String) -> Bool {
        (try? Child("/usr/bin/pgrep", ["-f", "\(tag)-\(title)"]).wait()) == 0
    }

    /// packaging/examples/i3.config's $mod+Shift+x, as a person installs it.
    @Test func thePackagedBindingLocks() throws {
        defer { unlink(config) }
        #expect(eventually(within: 10) { windowManagerRuns() }, "i3 runs: \(i3.standardError)")
        #expect(pressUntilLocked { chord(0xffeb, 0xffe1, 0x78) }, "$mod+Shift+x locked")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.canGrabKeyboard() && !covered() }, "and a slide opens it")
    }

    @Test func iThreesKeysDoNothingWhileLockedAndFocusComesBack() throws {
        defer { unlink(config) }
        #expect(eventually(within: 10) { windowManagerRuns() }, "i3 runs: \(i3.standardError)")
        let superKey: Int32 = 0xffeb
        let secret = try Child("/usr/bin/xterm", ["-title", "\(tag)-secret", "-e", "sh", "-c", "echo the secret line; sleep 600"],
            environment: ["DISPLAY": screen.name])
        #expect(eventually(within: 10) { focusedTitle() == "\(tag)-secret" }, "i3 manages the terminal: \(i3.standardError)")
        chord(superKey, 0xff0d)
        #expect(eventually(within: 10) { running("opened") }, "i3's $mod+Return opens a terminal")
        _ = try? Child("/usr/bin/pkill", ["-f", "\(tag)-opened"]).wait()
        #expect(eventually(within: 5) { !running("opened") && focusedTitle() == "\(tag)-secret" })
        let gate = try lock()
        chord(superKey, 0xff0d)
        chord(superKey, 0xffe1, 0x71)
        chord(superKey, 0x32)
        sleep(seconds: 1)
        #expect(!running("opened"), "$mod+Return opened nothing")
        #expect(secret.isRunning, "$mod+Shift+q closed nothing")
        #expect(gate.isRunning && covered())
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(eventually { focusedTitle() == "\(tag)-secret" }, "focus is back on the terminal: \(focusedTitle() ?? "none")")
        let workspace = try Child("/usr/bin/i3-msg", ["-t", "get_workspaces"], environment: ["DISPLAY": screen.name], stdout: config + ".ws")
        _ = workspace.wait()
        #expect(contents(of: config + ".ws").contains(#""name":"1","visible":true,"focused":true"#), "still on workspace 1: \(contents(of: config + ".ws"))")
        unlink(config + ".ws")
    }
}

/// A floating window manager's keys and menu while locked: openbox with Debian's default
/// configuration (Alt+Tab to the next window, Alt+F4 to close, a right click on the
/// desktop for its root menu) and two terminals.
@Suite(.serialized) struct FloatingWindowManagerTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let openbox: Child
    let config: String
    let tag = "slidegate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        config = "/tmp/\(tag).rc.xml"
        let packaged = try #require(DesktopExample.read("openbox-rc.xml"))
        let defaults = contents(of: "/etc/xdg/openbox/rc.xml")
        let f = fopen(config, "w")!
        fputs(defaults.replacingFirst("<keyboard>", with: "<keyboard>\n" + packaged), f)
        fclose(f)
        openbox = try Child("/usr/bin/openbox", ["--config-file", config], environment: DesktopExample.environment(on: screen))
    }

    /// packaging/examples/openbox-rc.xml's Super+L, in Debian's default configuration.
    @Test func thePackagedBindingLocks() throws {
        defer { unlink(config) }
        #expect(eventually(within: 10) { windowManagerRuns() }, "openbox runs: \(openbox.standardError)")
        #expect(
            pressUntilLocked { chord(0xffeb, 0x6c) }, "Super+L locked")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.canGrabKeyboard() && !covered() }, "and a slide opens it")
    }

    func terminal(_ name: String) throws -> Child {
        try Child("/usr/bin/xterm", ["-title", "\(tag)-\(name)", "-geometry", "40x10+\(name == "a" ? 600 : 900)+300", "-e", "sleep", "600"],
            environment: ["DISPLAY": screen.name])
    }

    func rightClick(_ x: Int, _ y: Int) {
        client.move(x, y)
        XTestFakeButtonEvent(client.display, 3, 1, 0)
        XTestFakeButtonEvent(client.display, 3, 0, 0)
        XSync(client.display, 0)
    }

    @Test func openboxsKeysAndMenuDoNothingWhileLocked() throws {
        defer { unlink(config) }
        #expect(eventually(within: 10) { windowManagerRuns() }, "openbox runs: \(openbox.standardError)")
        let b = try terminal("b")
        #expect(eventually(within: 10) { focusedTitle() == "\(tag)-b" }, "openbox manages the terminals: \(openbox.standardError)")
        let a = try terminal("a")
        #expect(eventually(within: 10) { focusedTitle() == "\(tag)-a" })
        let desktop = Set(client.mappedTopLevels())
        rightClick(100, 650)
        #expect(eventually { Set(client.mappedTopLevels()) != desktop }, "a right click on the desktop opens openbox's menu")
        client.key(0xff1b)
        #expect(eventually { Set(client.mappedTopLevels()) == desktop })
        let gate = try lock()
        let locked = Set(client.mappedTopLevels())
        rightClick(100, 650)
        chord(0xffe9, 0xff09)
        chord(0xffe9, 0xffc1)
        sleep(seconds: 1)
        #expect(Set(client.mappedTopLevels()) == locked, "no menu, no window switcher")
        #expect(a.isRunning && b.isRunning, "Alt+F4 closed nothing")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(eventually { Set(client.mappedTopLevels()) == desktop }, "the desktop as it was")
        #expect(eventually { focusedTitle() == "\(tag)-a" }, "the focus too: \(focusedTitle() ?? "none")")
    }
}

extension LockScreenChecks {
    /// The title of the window that has the keyboard focus.
    func focusedTitle() -> String? {
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(client.display, &focus, &revert)
        var name: UnsafeMutablePointer<CChar>?
        guard focus > 1, XFetchName(client.display, focus, &name) != 0, let name else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// Presses a window manager's lock binding until the lock is up (at most five times, a
    /// second apart): a window manager binds its keys some moment after it says it runs, and
    /// under load that moment comes late. A press that comes while a lock starts starts a
    /// second one, which cannot grab and exits 3; the first stays.
    func pressUntilLocked(_ press: () -> Void) -> Bool {
        for _ in 0..<5 {
            press()
            if eventually(within: 1, { covered() && thumbShown(at: 0) && !client.canGrabKeyboard() }) { return true }
        }
        return false
    }

    /// Presses `keys` in order and lets them go in the other (Super+Shift+x).
    func chord(_ keys: Int32...) {
        keys.forEach { client.keyDown($0) }
        keys.reversed().forEach { client.keyUp($0) }
    }

    /// Whether a window manager has taken the screen (it says so on the root window).
    func windowManagerRuns() -> Bool {
        !client.longsProperty(XDefaultRootWindow(client.display), "_NET_SUPPORTING_WM_CHECK").isEmpty
    }
}

/// The desktop files of packaging/examples, which the window-manager suites run as they
/// are, and the environment their bare `slidegate` runs in there: the built programs first
/// on PATH, and a configuration file with the look the checks know (LockModeTests.arguments).
enum DesktopExample {
    static let directory = String(#filePath.dropLast("Tests/SlidegateEndToEndTests/SessionTests.swift".count)) + "packaging/examples/"

    static func read(_ name: String) -> String? {
        let text = contents(of: directory + name)
        return text.isEmpty ? nil : text
    }

    /// A configuration home with slidegate/config, made once for the run.
    static let configHome: String = {
        let home = freshCacheHome()
        mkdir(home + "/slidegate", 0o700)
        let f = fopen(home + "/slidegate/config", "w")!
        fputs("slider=600x80+100+100\nbackground=#102030\nforeground=#ffffff\n", f)
        fclose(f)
        return home
    }()

    static func environment(on screen: VirtualScreen) -> [String: String?] {
        let built = String(slidegatePath.dropLast("/slidegate".count))
        return [
            "DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "XDG_CONFIG_HOME": configHome, "XDG_CACHE_HOME": freshCacheHome(),
            "PATH": built + ":" + (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"),
        ]
    }
}

extension String {
    /// The string with the first `target` replaced by `replacement` (itself when there is none).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}

/// The screen saver while locked. (DPMS cannot be tried here: neither Xvfb nor Xorg's dummy
/// driver has the extension.)
@Suite(.serialized) struct BlankingTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    /// The screen saver's settings as `xset q` reports them.
    func blankingSettings() throws -> String {
        let path = "/tmp/slidegate-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).xset"
        defer { unlink(path) }
        _ = try Child("/usr/bin/xset", ["q"], environment: ["DISPLAY": screen.name], stdout: path).wait()
        return contents(of: path).split(separator: "\n")
            .filter { $0.contains("timeout:") || $0.contains("prefer blanking:") }.joined(separator: "\n")
    }

    @Test func theScreenSaverWhileLockedCostsNothingAndKeepsTheUsersSettings() throws {
        try screen.run("/usr/bin/xset", "s", "300", "60")
        try screen.run("/usr/bin/xset", "s", "noblank")
        let settings = try blankingSettings()
        #expect(settings.contains("300") && settings.contains("no"), "\(settings)")
        let gate = try lock()
        try screen.run("/usr/bin/xset", "s", "activate")
        sleep(seconds: 0.5)
        let blank = wakeUps(ofTheLock: gate.pid, over: 1.5)
        #expect(blank == 0, "the lock woke \(blank) times while the screen was blank")
        client.move(700, 500)
        client.move(710, 505)
        #expect(eventually { covered() && thumbShown(at: 0) }, "the first motion brings the lock back with its slider")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(try blankingSettings() == settings, "the screen saver as the user had it")
    }
}

/// logind's Lock with two monitors (Xorg's dummy driver: 1920x1080 and 1280x720 side by
/// side), as a laptop with a screen plugged in has them.
@Suite(.serialized) struct TwoMonitorSessionTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let logind: MockLogind

    init() throws {
        screen = try VirtualScreen(.dummy)
        client = try Client(screen)
        logind = try MockLogind()
        #expect(try screen.run("/usr/bin/xrandr", "--addmode", "DUMMY1", "1280x720") == 0)
        #expect(try screen.run("/usr/bin/xrandr", "--output", "DUMMY1", "--mode", "1280x720", "--right-of", "DUMMY0") == 0)
    }

    /// Both monitors show the cover's colour (LockModeTests.arguments' #102030).
    func bothCovered() -> Bool {
        [(5, 5), (1900, 1070), (960, 300), (1925, 5), (3195, 715), (2500, 400)].allSatisfy { client.pixel($0.0, $0.1) == (16, 32, 48) }
    }

    @Test func lockSessionCoversBothMonitorsAtOnce() throws {
        let xssLock = try Child(
            "/usr/bin/xss-lock", ["--session=c1", "--transfer-sleep-lock", "--", slidegatePath] + LockModeTests.arguments,
            environment: [
                "DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "XDG_CACHE_HOME": freshCacheHome(), "DBUS_SYSTEM_BUS_ADDRESS": logind.address,
                "XDG_SESSION_ID": "c1",
            ])
        sleep(seconds: 0.5)
        #expect(xssLock.isRunning && !bothCovered(), "xss-lock waits: \(xssLock.standardError)")
        #expect(logind.lockSession())
        let signalled = now()
        #expect(eventually { bothCovered() }, "both monitors covered: \(xssLock.standardError)")
        let covering = now() - signalled
        #expect(covering < 0.1, "within 100 ms of logind's Lock: \(Int(covering * 1000)) ms")
        #expect(eventually { !client.canGrabKeyboard() && thumbShown(at: 0) })
        #expect(logind.unlockSession())
        #expect(eventually { children(of: xssLock.pid).isEmpty && client.canGrabKeyboard() })
    }
}
