import CX11
import CXScreenSaver
import Glibc
import Testing

/// Lock mode's promises under attack: focus, stacking, a dying UI, xss-lock's sleep lock,
/// --fork, a blank screen. Same slider placement as `LockModeTests`.
@Suite(.serialized) struct LockSafetyTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    /// The mapped top-level window on top of the stack.
    func topWindow() -> Window? { client.mappedTopLevels().last }

    @Test func lockedWithinAFewHundredMilliseconds() throws {
        let started = now()
        let gate = try screen.slidegate(LockModeTests.arguments)
        #expect(eventually(within: 2) { !client.canGrabKeyboard() && !client.canGrabPointer() && covered() })
        let elapsed = now() - started
        #expect(elapsed < 0.4, "covered and grabbed after \(elapsed) s")
        #expect(gate.isRunning)
    }

    @Test func aFocusedProbeWindowGetsNoKeysWhileLocked() throws {
        let probe = XCreateSimpleWindow(client.display, client.root, 10, 10, 100, 100, 0, 0, 0)
        XSelectInput(client.display, probe, KeyPressMask | KeyReleaseMask)
        XMapRaised(client.display, probe)
        XSync(client.display, 0)
        #expect(eventually { client.mappedTopLevels().contains(probe) })
        XSetInputFocus(client.display, probe, RevertToParent, 0)
        XSync(client.display, 0)
        let gate = try lock()
        for keysym in [0x61, 0xff0d, 0x20, 0xff1b] { client.key(Int32(keysym)) }
        barrier(client, { thumbShown(at: $0) })
        var event = XEvent()
        #expect(XCheckWindowEvent(client.display, probe, KeyPressMask | KeyReleaseMask, &event) == 0, "no key leaked")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
        XSetInputFocus(client.display, probe, RevertToParent, 0)
        client.key(0x61)
        #expect(eventually(within: 1) { XCheckWindowEvent(client.display, probe, KeyPressMask, &event) != 0 }, "the probe hears keys once unlocked")
    }

    /// CVE-2014-1949 (Shift+F10 opened a context menu over a lock), CVE-2019-3820 (a desktop's
    /// shortcuts worked under a lock): the keys desktops bind — Shift+F10, Menu, Super, Alt+F4,
    /// Ctrl+Alt+T — grabbed on the root by another client, as a desktop grabs them, reach it
    /// before the lock (so the test can fail) and not while locked.
    @Test func theKeysDesktopsBindReachNoOneWhileLocked() throws {
        let desktop = try Desktop(screen)
        desktop.pressAll(with: client)
        #expect(eventually { desktop.heard() > 0 }, "before the lock the desktop hears its keys")
        let gate = try lock()
        _ = desktop.heard()
        desktop.pressAll(with: client)
        barrier(client, { thumbShown(at: $0) })
        #expect(desktop.heard() == 0, "no bound key reached the desktop while locked")
        #expect(gate.isRunning && covered())
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    /// The same keys pressed over and over while the lock starts: from the first round after
    /// which the keyboard is the guard's (this client cannot grab it, and every key of the
    /// round is up, so no binding of the desktop holds it), no bound key reaches the desktop,
    /// not even before anything shows.
    @Test func theKeysDesktopsBindReachNoOneWhileLocking() throws {
        let desktop = try Desktop(screen)
        let gate = try screen.slidegate(LockModeTests.arguments)
        let started = now()
        var grabbedAfter: Int?
        var before = 0
        var leaked = 0
        while !(covered() && thumbShown(at: 0)) && now() - started < 5 {
            desktop.pressAll(with: client)
            if grabbedAfter == nil {
                before += desktop.heard()
                if !client.canGrabKeyboard() { grabbedAfter = before }
            } else {
                leaked += desktop.heard()
            }
        }
        #expect(covered() && thumbShown(at: 0), "locked: \(gate.standardError)")
        #expect(grabbedAfter != nil, "the guard took the keyboard while the keys were pressed")
        #expect(before > 0, "keys reached the desktop before the lock")
        #expect(leaked + desktop.heard() == 0, "no bound key reached the desktop once the guard had the keyboard")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func aWindowMappedAboveTheCoverIsCoveredAgainWithin100Milliseconds() throws {
        let gate = try lock()
        let cover = try #require(topWindow())
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        let intruder = XCreateWindow(
            client.display, client.root, 0, 0, 400, 300, 0, 24, UInt32(InputOutput), nil, UInt(CWOverrideRedirect), &attributes)
        XMapRaised(client.display, intruder)
        XSync(client.display, 0)
        #expect(eventually(within: 1) { topWindow() == cover }, "on top again after a window was mapped over it")
        XRaiseWindow(client.display, intruder)
        XSync(client.display, 0)
        #expect(eventually(within: 1) { topWindow() == cover }, "on top again after a window was raised over it")
        #expect(gate.isRunning)
    }

    @Test func killingTheUIKeepsTheLockAndANewOneDraws() throws {
        let gate = try lock()
        let ui = try #require(uiChild(of: gate.pid))
        let cover = try #require(topWindow())
        var rootReturn: Window = 0
        var parent: Window = 0
        var kids: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        XQueryTree(client.display, cover, &rootReturn, &parent, &kids, &count)
        let sliderWindow = try #require(count == 3 ? kids?[0] : nil, "the slider window, the banner strip and the clock")
        XFree(kids)
        kill(ui, SIGKILL)
        XClearWindow(client.display, sliderWindow)
        XSync(client.display, 0)
        let killed = now()
        #expect(!thumbShown(at: 0), "the slider window was cleared")
        #expect(eventually(within: 2) { thumbShown(at: 0) }, "a new UI draws the slider")
        #expect(now() - killed < 0.5, "the slider was back after \(now() - killed) s")
        #expect(covered())
        #expect(!client.canGrabKeyboard() && !client.canGrabPointer(), "still grabbed")
        #expect(uiChild(of: gate.pid) != ui)
        #expect(gate.standardError.contains("the slider's drawing program ended (signal 9); starting another"))
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }

    @Test func theSleepLockIsClosedOnlyOnceLocked() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        #expect(XGrabKeyboard(client.display, client.root, 0, GrabModeAsync, GrabModeAsync, 0) == GrabSuccess)
        XSync(client.display, 0)
        let gate = try screen.slidegate(
            LockModeTests.arguments, environment: ["XSS_SLEEP_LOCK_FD": "\(fds[1])"], keep: [fds[1]])
        close(fds[1])
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        var byte: UInt8 = 0
        // The guard's "locking..." box (120x28) shows that it fights for the grab.
        #expect(
            eventually { client.mappedTopLevels().contains { client.geometry($0).width == 120 && client.geometry($0).height == 28 } },
            "the guard tries to grab: \(gate.standardError)")
        #expect(read(fds[0], &byte, 1) == -1 && errno == EAGAIN, "still held while the grab is taken")
        XUngrabKeyboard(client.display, 0)
        XSync(client.display, 0)
        #expect(eventually { read(fds[0], &byte, 1) == 0 }, "closed once locked")
        #expect(!client.canGrabKeyboard() && !client.canGrabPointer())
        #expect(covered())
        close(fds[0])
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }

    /// xss-lock's sleep lock went as soon as the screen was covered and grabbed: with no
    /// frame kept, the machine could sleep before the slider was drawn, and wake to a blank
    /// cover. It goes once the first frame is on the screen.
    @Test func theSleepLockIsLetGoOnlyWithTheFirstFrameOnTheScreen() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let gate = try screen.slidegate(
            LockModeTests.arguments, environment: ["XSS_SLEEP_LOCK_FD": "\(fds[1])", "XDG_CACHE_HOME": freshCacheHome()], keep: [fds[1]])
        close(fds[1])
        defer { close(fds[0]) }
        var polled = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&polled, 1, 10_000) == 1, "let go: \(gate.standardError)")
        #expect(thumbShown(at: 0), "the slider was on the screen when the sleep lock went")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }

    /// xsecurelock #192: a mouse button held down on another client's window when a lock
    /// for sleep starts (its pointer grab fails). The lock gave up after 1 s with exit 3,
    /// xss-lock let the sleep lock go, and the machine slept unlocked. Now the cover goes up,
    /// the sleep lock is held and the grab is tried until the button is let go.
    @Test func aButtonHeldElsewhereDoesNotEndALockForSleep() throws {
        let other = try Client(screen)
        other.pressHeldOnAWindowOfItsOwn(by: client)
        #expect(!client.canGrabPointer(), "the press gave the other client the pointer")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let gate = try screen.slidegate(LockModeTests.arguments, environment: ["XSS_SLEEP_LOCK_FD": "\(fds[1])"], keep: [fds[1]])
        close(fds[1])
        defer { close(fds[0]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        var byte: UInt8 = 0
        #expect(eventually { gate.standardError.contains("the pointer grab failed (AlreadyGrabbed) for 1.0 s; another client holds it; covering the screen") })
        #expect(eventually(within: 1) { covered() }, "the cover is up while the grab is fought for")
        #expect(gate.isRunning, "no exit 3: \(gate.standardError)")
        #expect(read(fds[0], &byte, 1) == -1 && errno == EAGAIN, "the sleep lock is still held")
        client.button(false)
        #expect(eventually { read(fds[0], &byte, 1) == 0 }, "let go once grabbed")
        #expect(!client.canGrabKeyboard() && !client.canGrabPointer() && covered())
        #expect(eventually { thumbShown(at: 0) })
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func aLockStartedByHandStillGivesUpWhenAButtonIsHeldElsewhere() throws {
        let other = try Client(screen)
        other.pressHeldOnAWindowOfItsOwn(by: client)
        defer { client.button(false) }
        let gate = try screen.slidegate(LockModeTests.arguments)
        #expect(gate.wait() == 3)
        #expect(gate.standardError.contains("cannot lock: the pointer grab failed (AlreadyGrabbed) for 1.0 s"), "\(gate.standardError)")
    }

    @Test func forkReturnsOnlyOnceLocked() throws {
        let parent = try screen.slidegate(LockModeTests.arguments + ["--fork"])
        #expect(parent.wait() == 0)
        #expect(!client.canGrabKeyboard() && !client.canGrabPointer(), "grabbed when the parent returned")
        #expect(covered())
        #expect(eventually { thumbShown(at: 0) })
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.canGrabKeyboard() && client.mappedTopLevels().isEmpty }, "the forked guard unlocked")
    }

    @Test func aBlankScreenCostsNoWakeUps() throws {
        let gate = try lock()
        let ui = try #require(uiChild(of: gate.pid))
        XForceScreenSaver(client.display, ScreenSaverActive)
        XSync(client.display, 0)
        sleep(seconds: 0.3)
        try expectAsleepUntilTheScreenSaverEnds(ui)
        sleep(seconds: 0.2)
        #expect(client.frames(x: 100, y: 100, width: 600, height: 80, over: 2.1) > 10, "the shimmer animates again")
        #expect(gate.isRunning)
    }

    /// The UI asks whether the screen saver is on only once its first frame is drawn, and
    /// the guard once the UI is started: a lock taken while it is on sleeps all the same.
    @Test func aLockTakenOnABlankScreenSleepsOnceDrawn() throws {
        XForceScreenSaver(client.display, ScreenSaverActive)
        XSync(client.display, 0)
        let gate = try screen.slidegate(LockModeTests.arguments, environment: ["XDG_CACHE_HOME": freshCacheHome()])
        #expect(eventually { !client.canGrabKeyboard() && uiChild(of: gate.pid) != nil }, "locked: \(gate.standardError)")
        let ui = try #require(uiChild(of: gate.pid))
        sleep(seconds: 0.5)
        try expectAsleepUntilTheScreenSaverEnds(ui)
        #expect(eventually { covered() && thumbShown(at: 0) }, "the lock shows once the screen saver ends")
        #expect(client.frames(x: 100, y: 100, width: 600, height: 80, over: 2.1) > 10, "the shimmer animates")
        #expect(gate.isRunning)
    }

    /// Whether the X screen saver is on, as the server says.
    /// `--blank-after`: a lock left alone blanks the screen and then wakes no process; the
    /// first motion brings it back; Escape blanks it at once, once released.
    @Test func blankAfterBlanksAQuietLockAndEscapeBlanksAtOnce() throws {
        let gate = try lock(["--blank-after", "2"])
        #expect(!client.screenSaverOn())
        #expect(eventually(within: 4) { client.screenSaverOn() }, "blank 2 s after the last input")
        sleep(seconds: 0.3)
        let blank = wakeUps(ofTheLock: gate.pid, over: 1.5)
        #expect(blank == 0, "the lock woke \(blank) times while the screen was blank")
        client.move(700, 500)
        #expect(eventually { !client.screenSaverOn() }, "the first motion ends the blank screen")
        #expect(eventually { covered() && thumbShown(at: 0) }, "and shows the lock")
        client.keyDown(0xff1b)
        sleep(seconds: 0.3)
        #expect(!client.screenSaverOn(), "not while Escape is down: its release would end it")
        client.keyUp(0xff1b)
        #expect(eventually(within: 0.8) { client.screenSaverOn() }, "Escape blanks at once")
        client.move(710, 505)
        #expect(eventually { !client.screenSaverOn() })
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// Without `--blank-after`, Escape on the slider does nothing.
    @Test func withoutBlankAfterEscapeBlanksNothing() throws {
        let gate = try lock()
        client.key(0xff1b)
        sleep(seconds: 0.5)
        #expect(!client.screenSaverOn())
        #expect(gate.isRunning)
    }

    /// The UI wakes not once in 1.5 s of the screen saver's blank screen; then ends it.
    private func expectAsleepUntilTheScreenSaverEnds(_ ui: pid_t) throws {
        let before = try #require(contextSwitches(of: ui))
        sleep(seconds: 1.5)
        let blank = try #require(contextSwitches(of: ui)) - before
        #expect(blank == 0, "the UI woke \(blank) times while the screen was blank")
        XForceScreenSaver(client.display, ScreenSaverReset)
        XSync(client.display, 0)
    }

    @Test func xssLockLocksOnScreenSaverActivation() throws {
        let logind = try MockLogind()
        let xssLock = try Child(
            "/usr/bin/xss-lock", ["--session=c1", "--", slidegatePath] + LockModeTests.arguments,
            environment: [
                "DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "DBUS_SYSTEM_BUS_ADDRESS": logind.address, "XDG_CACHE_HOME": freshCacheHome(),
            ])
        sleep(seconds: 0.5)
        #expect(xssLock.isRunning, "xss-lock runs: \(xssLock.standardError)")
        #expect(!covered())
        try screen.run("/usr/bin/xset", "s", "activate")
        #expect(eventually { !client.canGrabKeyboard() && !client.canGrabPointer() }, "xss-lock started slidegate")
        client.move(5, 5)
        #expect(eventually { covered() && thumbShown(at: 0) }, "the lock shows once the screen saver ends")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.canGrabKeyboard() && client.mappedTopLevels().isEmpty }, "unlocked")
        #expect(xssLock.isRunning)
    }
}

/// A private D-Bus daemon standing in for the system bus (the session bus's configuration,
/// which lets any client own any name), on an address of its own; it goes with the object.
final class PrivateBus {
    let address: String
    private let daemon: Child

    /// `environment` is the daemon's, and so that of the services it starts.
    init(environment: [String: String?] = [:]) throws {
        let addressFile = "/tmp/slidegate-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).bus"
        daemon = try Child(
            "/usr/bin/dbus-daemon", ["--config-file=/usr/share/dbus-1/session.conf", "--nofork", "--print-address=1"],
            environment: environment, stdout: addressFile)
        var found = ""
        _ = eventually {
            guard let f = fopen(addressFile, "r") else { return false }
            defer { fclose(f) }
            var buffer = [CChar](repeating: 0, count: 512)
            guard fgets(&buffer, 512, f) != nil else { return false }
            found = String(terminated: buffer).filter { !$0.isNewline }
            return !found.isEmpty
        }
        unlink(addressFile)
        guard !found.isEmpty else { throw Child.SpawnError(path: "dbus-daemon (no address)", code: EIO) }
        address = found
    }

    /// Whether a client on the bus has the well-known `name`.
    func owns(_ name: String) -> Bool {
        ask("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:" + name)?.contains("true") == true
    }

    /// A method call on the bus, as `dbus-send --system --print-reply` makes it: whether it
    /// was answered (within 5 s) without an error.
    func call(_ destination: String, _ path: String, _ method: String, _ arguments: String...) -> Bool {
        (try? Child(
            "/usr/bin/dbus-send", ["--system", "--print-reply", "--dest=" + destination, path, method] + arguments,
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": address]).wait(timeout: 5)) == 0
    }

    /// A method call's reply as `dbus-send --print-reply=literal` prints it, or nil when
    /// there was none (an error, no answer within 5 s).
    func ask(_ destination: String, _ path: String, _ method: String, _ arguments: String...) -> String? {
        let answer = "/tmp/slidegate-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).reply"
        defer { unlink(answer) }
        let asked = try? Child(
            "/usr/bin/dbus-send", ["--system", "--print-reply=literal", "--dest=" + destination, path, method] + arguments,
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], stdout: answer)
        return asked?.wait(timeout: 5) == 0 ? contents(of: answer) : nil
    }
}

/// python-dbusmock's logind on a private bus, with one session, "c1": what xss-lock needs to
/// run outside a real login session.
final class MockLogind {
    private let bus: PrivateBus
    private let logind: Child
    var address: String { bus.address }

    init() throws {
        bus = try PrivateBus()
        logind = try Child(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "logind"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        let added = eventually(within: 10) { [bus] in
            bus.call(
                "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock.AddSession", "string:c1", "string:seat0",
                "uint32:0", "string:root", "boolean:true")
        }
        guard added else { throw Child.SpawnError(path: "python3 -m dbusmock (no logind session)", code: EIO) }
    }

    private static let session = "/org/freedesktop/login1/session/c1"

    /// The session's LockedHint as logind has it; nil when it cannot be read.
    var lockedHint: Bool? {
        bus.ask("org.freedesktop.login1", Self.session, "org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.login1.Session",
            "string:LockedHint").map { $0.contains("true") }
    }

    /// The delay inhibitors logind holds for sleep, by who took them.
    var sleepInhibitors: [String] {
        bus.ask("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager.ListInhibitors").map { reply in
            reply.split(separator: "\n").filter { $0.contains("sleep") && $0.contains("delay") }.map(String.init)
        } ?? []
    }

    /// logind's PrepareForSleep(`starting`): true before a suspend, false after it.
    func prepareForSleep(_ starting: Bool) -> Bool {
        let code = """
            import dbus
            bus = dbus.bus.BusConnection("\(address)")
            mock = bus.get_object("org.freedesktop.login1", "/org/freedesktop/login1")
            mock.EmitSignal("org.freedesktop.login1.Manager", "PrepareForSleep", "b", [\(starting ? "True" : "False")],
                            dbus_interface="org.freedesktop.DBus.Mock")
            """
        return (try? Child("/usr/bin/python3", ["-c", code]).wait(timeout: 5)) == 0
    }

    /// The session's Lock signal, as `loginctl lock-session` has logind send it.
    func lockSession() -> Bool { bus.call("org.freedesktop.login1", Self.session, "org.freedesktop.login1.Session.Lock") }

    /// The session's Unlock signal, as `loginctl unlock-session` has logind send it.
    func unlockSession() -> Bool { bus.call("org.freedesktop.login1", Self.session, "org.freedesktop.login1.Session.Unlock") }
}

extension Client {
    /// A 200x200 window of this client's at (600, 400) that takes button presses, and a
    /// button pressed on it through `injector` (XTest) and held: the server gives this client
    /// the pointer until the button is let go, as a menu's press does.
    func pressHeldOnAWindowOfItsOwn(by injector: Client) {
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.event_mask = ButtonPressMask | ButtonReleaseMask
        let window = XCreateWindow(
            display, root, 600, 400, 200, 200, 0, 24, UInt32(InputOutput), nil, UInt(CWOverrideRedirect | CWEventMask), &attributes)
        XMapRaised(display, window)
        XSync(display, 0)
        injector.move(700, 500)
        injector.button(true)
        var event = XEvent()
        _ = eventually { XCheckWindowEvent(display, window, ButtonPressMask, &event) != 0 }
    }
}

/// Another client that binds the keys desktops bind — Shift+F10, Menu, Super, Alt+F4,
/// Ctrl+Alt+T — on the root, as a desktop grabs them, and counts the presses it hears.
final class Desktop {
    let client: Client
    static let combos: [(modifiers: [Int32], key: Int32)] = [
        ([0xffe1], 0xffc7), ([], 0xff67), ([], 0xffeb), ([0xffe9], 0xffc1), ([0xffe3, 0xffe9], 0x74),
    ]

    init(_ screen: VirtualScreen) throws {
        client = try Client(screen)
        for combo in Self.combos {
            let code = Int32(XKeysymToKeycode(client.display, KeySym(combo.key)))
            XGrabKey(client.display, code, UInt32(AnyModifier), client.root, 1, GrabModeAsync, GrabModeAsync)
        }
        XSync(client.display, 0)
    }

    /// Each bound combination, pressed and let go by `person`.
    func pressAll(with person: Client) {
        for combo in Self.combos {
            combo.modifiers.forEach(person.keyDown)
            person.key(combo.key)
            combo.modifiers.reversed().forEach(person.keyUp)
        }
    }

    /// The key presses heard since the last call.
    func heard() -> Int {
        XSync(client.display, 0)
        var count = 0
        var event = XEvent()
        while XCheckTypedEvent(client.display, KeyPress, &event) != 0 { count += 1 }
        return count
    }
}
