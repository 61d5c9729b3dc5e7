import CX11
import CXTest
import Glibc
import Testing

/// Lock mode on Xorg with the dummy driver: real RandR monitors, plugged in, unplugged and
/// made primary. DUMMY0 is a 1920x1080 monitor at 0,0; DUMMY1 is added as 1280x720.
@Suite(.serialized) struct MonitorTests {
    let screen: VirtualScreen
    let client: Client
    static let background = (16, 32, 48)

    init() throws {
        screen = try VirtualScreen(.dummy)
        client = try Client(screen)
    }

    func xrandr(_ arguments: String...) throws {
        let child = try Child("/usr/bin/xrandr", arguments, environment: ["DISPLAY": screen.name])
        #expect(child.wait(timeout: 10) == 0, "xrandr \(arguments.joined(separator: " ")): \(child.standardError)")
    }

    func plugSecondMonitor() throws {
        try xrandr("--addmode", "DUMMY1", "1280x720")
        try xrandr("--output", "DUMMY1", "--mode", "1280x720", "--right-of", "DUMMY0")
    }

    func isBackground(_ points: [(Int, Int)]) -> Bool {
        points.allSatisfy { client.pixel($0.0, $0.1) == Self.background }
    }

    /// The cover: the mapped top-level window, and its size.
    func coverSize() -> (Int, Int)? {
        guard let cover = client.mappedTopLevels().last else { return nil }
        let g = client.geometry(cover)
        return (g.width, g.height)
    }

    func lock() throws -> Child {
        let gate = try screen.slidegate("--background", "#102030", "--foreground", "#ffffff")
        #expect(eventually { !client.canGrabKeyboard() && coverSize() != nil }, "locked: \(gate.standardError)")
        return gate
    }

    @Test func bothMonitorsCoveredAndTheSliderCentredOnThePrimary() throws {
        try plugSecondMonitor()
        try xrandr("--output", "DUMMY1", "--primary")
        let gate = try lock()
        #expect(eventually { coverSize()! == (3200, 1080) })
        #expect(isBackground([(5, 5), (1900, 1070), (1925, 5), (3195, 715), (2500, 1000)]), "every monitor covered")
        // On the 1280x720 primary: a 378x54 slider at (1920 + 451, 535), padding 4.
        #expect(eventually { client.brightness(2371 + 4 + 8, 535 + 4 + 8) > 90 }, "the thumb rests on the primary")
        #expect(client.brightness(1920 / 2, 1080 * 78 / 100) < 60, "nothing on the other monitor")
        client.drag(from: (2371 + 4 + 23, 562), to: (3190, 562))
        #expect(gate.wait() == 0)
    }

    @Test func theCoverFollowsHotplug() throws {
        let gate = try lock()
        #expect(coverSize()! == (1920, 1080))
        try plugSecondMonitor()
        #expect(eventually(within: 1) { coverSize()! == (3200, 1080) }, "the cover grew")
        #expect(eventually { isBackground([(2500, 300), (3195, 1075)]) }, "the new monitor is covered")
        try xrandr("--output", "DUMMY1", "--off")
        #expect(eventually(within: 1) { coverSize()! == (1920, 1080) }, "the cover shrank")
        try xrandr("--output", "DUMMY0", "--mode", "1280x720")
        #expect(eventually(within: 1) { coverSize()! == (1280, 720) }, "the cover follows a resolution change")
        // The slider is laid out again on the 1280x720 monitor: 378x54 at (451, 535).
        #expect(eventually { client.brightness(451 + 4 + 8, 535 + 4 + 8) > 90 }, "the slider moved with the layout")
        client.drag(from: (451 + 4 + 23, 562), to: (1270, 562))
        #expect(gate.wait() == 0)
    }

    /// The monitors RandR reports now.
    func monitors() -> [(x: Int, y: Int, width: Int, height: Int)] {
        var count: Int32 = 0
        guard let list = XRRGetMonitors(client.display, client.root, 1, &count) else { return [] }
        defer { XRRFreeMonitors(list) }
        return (0..<Int(count)).map { (Int(list[$0].x), Int(list[$0].y), Int(list[$0].width), Int(list[$0].height)) }
    }

    /// Every monitor's corners (2 px in) show the lock's background, the cover is the whole
    /// screen, and the same guard holds the lock (a guard that died would be replaced
    /// unseen: it must not die).
    func everyMonitorLocked(by gate: Child, guardian: pid_t) -> Bool {
        let root = client.geometry(client.root)
        let screenSize = (root.width, root.height)
        guard let size = coverSize(), size == screenSize, guardOf(gate.pid) == guardian else { return false }
        return monitors().allSatisfy { m in
            let right = max(m.x, m.x + m.width - 3)
            let bottom = max(m.y, m.y + m.height - 3)
            let corners = [(m.x + 2, m.y + 2), (right, m.y + 2), (m.x + 2, bottom), (right, bottom)]
            return isBackground(corners.filter { $0.0 >= 0 && $0.1 >= 0 && $0.0 < size.0 && $0.1 < size.1 })
        }
    }

    func sh(_ script: String) throws {
        let child = try Child("/bin/sh", ["-ec", script], environment: ["DISPLAY": screen.name])
        #expect(child.wait(timeout: 60) == 0, "\(script): \(child.standardError)")
    }

    /// CVE-2010-0414, CVE-2010-0422, CVE-2010-0285 (lockers that showed the desktop on a
    /// monitor added or changed while locked) and CVE-2021-34557 (one that crashed on a
    /// monitor set it did not expect): any client may add RandR monitors. 16 monitors; 100
    /// adds and removes of a 9x9 one in a few seconds; a 1x1 primary; two mirrored; a portrait
    /// (rotated) one on a grown screen. After each, every monitor shows the lock, the same
    /// guard holds it, and at the end the slide still opens it.
    @Test func monitorStormsLeaveEveryMonitorLocked() throws {
        let gate = try lock()
        let guardian = guardOf(gate.pid)
        #expect(guardian != gate.pid)
        try sh("for i in $(seq 0 14); do xrandr --setmonitor S$i 128/34x1080/286+$((i * 128))+0 none; done")
        #expect(monitors().count == 16)
        #expect(eventually { everyMonitorLocked(by: gate, guardian: guardian) }, "16 monitors: \(gate.standardError)")
        try sh("for i in $(seq 0 14); do xrandr --delmonitor S$i; done")
        let started = now()
        try sh("for i in $(seq 50); do xrandr --setmonitor T 9/2x9/2+$((i * 30))+$((i * 20)) none; xrandr --delmonitor T; done")
        #expect(now() - started < 10, "100 changes in \(now() - started) s")
        #expect(eventually { everyMonitorLocked(by: gate, guardian: guardian) }, "after 100 changes: \(gate.standardError)")
        try sh("xrandr --setmonitor '*P' 1/1x1/1+0+0 none")
        #expect(eventually { everyMonitorLocked(by: gate, guardian: guardian) }, "a 1x1 primary: \(gate.standardError)")
        try sh("xrandr --delmonitor P; xrandr --setmonitor M1 1920/508x1080/286+0+0 none; xrandr --setmonitor M2 1920/508x1080/286+0+0 none")
        #expect(eventually { everyMonitorLocked(by: gate, guardian: guardian) }, "mirrored: \(gate.standardError)")
        try sh("xrandr --delmonitor M1; xrandr --delmonitor M2; xrandr --fb 3000x1920; xrandr --setmonitor R 1080/286x1920/508+1920+0 none")
        #expect(eventually { coverSize().map { $0 == (3000, 1920) } ?? false }, "the cover grew")
        #expect(eventually { everyMonitorLocked(by: gate, guardian: guardian) }, "portrait: \(gate.standardError)")
        try sh("xrandr --delmonitor R; xrandr --fb 1920x1080")
        #expect(eventually { coverSize().map { $0 == (1920, 1080) } ?? false && client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 })
        #expect(!gate.standardError.contains("guard ended"), "\(gate.standardError)")
        client.drag(from: (676 + 40, 842), to: (1910, 842))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// The UI keeps the slider's first frame for the next lock once it shows it at rest, but
    /// not once the slider was laid out anew for another screen. (The UI is held back until
    /// the screen changed, so the change comes first however slow the machine.)
    @Test func aSliderLaidOutAnewIsNotKeptForTheNextLock() throws {
        func locked(change: () throws -> Void) throws -> Bool {
            let cache = freshCacheHome()
            let held = try HeldUI(in: cache)
            var environment = held.environment
            environment["XDG_CACHE_HOME"] = cache
            let gate = try screen.slidegate(["--background", "#102030", "--foreground", "#ffffff"], environment: environment)
            #expect(eventually { !client.canGrabKeyboard() && coverSize() != nil }, "locked: \(gate.standardError)")
            try change()
            held.release()
            // The first sweep ends 1 s after locking; the slider then rests.
            sleep(seconds: 2.5)
            gate.signal(SIGTERM)
            #expect(gate.wait() == 143)
            var info = stat()
            return stat(cache + "/slidegate", &info) == 0
        }
        #expect(try locked {}, "a lock left alone keeps its first frame")
        let changed = try locked {
            try xrandr("--output", "DUMMY0", "--mode", "1280x720")
            #expect(eventually(within: 1) { coverSize()! == (1280, 720) })
        }
        #expect(!changed, "nothing kept after the slider was laid out anew")
    }

    /// `--image`: four coloured quadrants filled onto each monitor at its own size, and under
    /// the slider's rounded corners; a monitor changed or plugged in gets the picture too.
    @Test func theImageCoversEachMonitorAndFollowsHotplug() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/quadrants.png"
        try writePNG(path, width: 400, height: 300) { x, y in Self.quadrant(x >= 200, y >= 150) }
        try plugSecondMonitor()
        let gate = try screen.slidegate("--background", "#102030", "--image", path, "--no-clock")
        #expect(eventually { !client.canGrabKeyboard() && coverIs(3200, 1080) }, "locked: \(gate.standardError)")
        #expect(eventually { showsQuadrants(x: 0, y: 0, width: 1920, height: 1080) }, "the picture fills DUMMY0")
        #expect(showsQuadrants(x: 1920, y: 0, width: 1280, height: 720), "and DUMMY1")
        // The slider (567x81 at 676,802) has rounded corners: the picture shows in them.
        #expect(eventually { client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 && client.pixel(676, 802) == (0, 0, 200) })
        try xrandr("--output", "DUMMY1", "--off")
        try xrandr("--output", "DUMMY0", "--mode", "1280x720")
        #expect(eventually { coverIs(1280, 720) && showsQuadrants(x: 0, y: 0, width: 1280, height: 720) }, "a new size")
        // The slider, 378x54 at (451, 535) now, is drawn over the picture again.
        #expect(eventually { client.brightness(451 + 4 + 8, 535 + 4 + 8) > 90 && client.pixel(451, 535) == (0, 0, 200) })
        try xrandr("--output", "DUMMY1", "--mode", "1280x720", "--right-of", "DUMMY0")
        #expect(eventually { coverIs(2560, 720) && showsQuadrants(x: 1280, y: 0, width: 1280, height: 720) }, "plugged in")
        #expect(showsQuadrants(x: 0, y: 0, width: 1280, height: 720))
        #expect(!gate.standardError.contains("--image"), "\(gate.standardError)")
        client.drag(from: (451 + 4 + 23, 562), to: (1270, 562))
        #expect(gate.wait() == 0)
    }

    func coverIs(_ width: Int, _ height: Int) -> Bool {
        coverSize().map { $0 == (width, height) } ?? false
    }

    static func quadrant(_ right: Bool, _ bottom: Bool) -> (UInt8, UInt8, UInt8) {
        switch (right, bottom) {
        case (false, false): (200, 0, 0)
        case (true, false): (0, 200, 0)
        case (false, true): (0, 0, 200)
        case (true, true): (200, 200, 0)
        }
    }

    /// The middles of the monitor's quarters show the picture's four colours.
    func showsQuadrants(x: Int, y: Int, width: Int, height: Int) -> Bool {
        [(false, false), (true, false), (false, true), (true, true)].allSatisfy { (right, bottom) in
            let q = Self.quadrant(right, bottom)
            return client.pixel(x + (right ? 3 : 1) * width / 4, y + (bottom ? 3 : 1) * height / 4) == (Int(q.0), Int(q.1), Int(q.2))
        }
    }

    /// Attack: press the thumb, then make the slider move (its monitor turned off), and
    /// release after a 1-pixel move. The relayout cancels the drag: no unlock.
    @Test func aScreenChangeInTheMiddleOfADragCancelsIt() throws {
        try plugSecondMonitor()
        try xrandr("--output", "DUMMY1", "--primary")
        let gate = try lock()
        #expect(eventually { client.brightness(2371 + 4 + 8, 535 + 4 + 8) > 90 }, "the thumb rests on DUMMY1")
        client.move(2371 + 4 + 23, 562)
        client.button(true)
        client.move(2371 + 4 + 33, 562)
        try xrandr("--output", "DUMMY1", "--off")
        // On the 1920x1080 monitor: a 567x81 slider at (676, 802), padding 6, thumb 69 px.
        #expect(eventually { coverSize()! == (1920, 1080) && client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 }, "the slider moved")
        client.move(1919, 562)
        client.move(1918, 562)
        client.button(false)
        #expect(eventually { client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 }, "the thumb is back at the start")
        client.drag(from: (676 + 40, 842), to: (1000, 842), release: false)
        #expect(eventually { client.brightness(682 + 284 + 8, 802 + 6 + 8) > 90 }, "a new drag moves the thumb 284 px")
        client.button(false)
        #expect(eventually { client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 }, "and it springs back")
        #expect(gate.isRunning, "the cancelled drag did not unlock")
        client.drag(from: (676 + 40, 842), to: (1910, 842))
        #expect(gate.wait() == 0)
    }

    /// Attack: two equal monitors, the thumb held on the primary's slider, the primary turned
    /// off: the slider moves to the other monitor at the same size, so nothing about its
    /// layout changed but where it is. The pointer, pushed to the screen's new edge, is near
    /// the new slider's end; a 1-pixel move and a release must not unlock.
    @Test func aScreenChangeThatKeepsTheSlidersSizeStillCancelsADrag() throws {
        try xrandr("--addmode", "DUMMY1", "1920x1080")
        try xrandr("--output", "DUMMY1", "--mode", "1920x1080", "--right-of", "DUMMY0", "--primary")
        let gate = try lock()
        // On either 1920x1080 monitor: a 567x81 slider at (676, 802) of it, padding 6.
        #expect(eventually { client.brightness(1920 + 676 + 6 + 8, 802 + 6 + 8) > 90 }, "the thumb rests on DUMMY1")
        client.move(1920 + 676 + 40, 842)
        client.button(true)
        client.move(1920 + 676 + 50, 842)
        try xrandr("--output", "DUMMY1", "--off")
        #expect(eventually { coverSize()! == (1920, 1080) && client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 }, "the slider moved")
        client.move(1919, 842)
        client.move(1918, 842)
        client.button(false)
        // A positive barrier: a new half drag that the thumb follows, then its spring back.
        client.drag(from: (676 + 40, 842), to: (1000, 842), release: false)
        #expect(eventually { client.brightness(682 + 284 + 8, 802 + 6 + 8) > 90 }, "a new drag moves the thumb 284 px")
        client.button(false)
        #expect(eventually { client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 }, "and it springs back")
        #expect(gate.isRunning, "the drag held across the screen change did not unlock")
        client.drag(from: (676 + 40, 842), to: (1910, 842))
        #expect(gate.wait() == 0)
    }

    /// XKB's Ungrab action (Ctrl+Alt+KP_Divide, with `grab:break_actions`) and a keyboard grab
    /// of this client's in one batch: the server breaks the guard's grabs and gives the
    /// keyboard to this client before the guard can hear of it. Whether the grab was had.
    func breakGrabsAndTakeTheKeyboard() -> Bool {
        let keys = [0xffe3, 0xffe9, 0xffaf].map { UInt32(XKeysymToKeycode(client.display, KeySym($0))) }
        for code in keys { XTestFakeKeyEvent(client.display, code, 1, 0) }
        for code in keys.reversed() { XTestFakeKeyEvent(client.display, code, 0, 0) }
        let taken = XGrabKeyboard(client.display, client.root, 0, GrabModeAsync, GrabModeAsync, 0) == GrabSuccess
        XSync(client.display, 0)
        return taken
    }

    /// The server breaks the grabs (XKB's Ungrab action) and another client takes the
    /// keyboard at once: the guard says so loudly, retries, and has it back once it is free.
    @Test func aBrokenGrabIsReportedAndTakenBack() throws {
        try screen.run("/usr/bin/setxkbmap", "-option", "grab:break_actions")
        let gate = try lock()
        let taken = breakGrabsAndTakeTheKeyboard()
        #expect(taken, "the grab was broken, and this client took the keyboard before the guard could")
        #expect(eventually { gate.standardError.contains("slidegate: critical: the keyboard grab is lost; retrying") })
        XUngrabKeyboard(client.display, 0)
        XSync(client.display, 0)
        #expect(eventually { !client.canGrabKeyboard() && !client.canGrabPointer() }, "the guard has both grabs again")
        #expect(gate.isRunning)
        client.drag(from: (676 + 40, 842), to: (1910, 842))
        #expect(gate.wait() == 0)
    }

    /// A grab broken in the middle of a fast drag, while the guard takes motion as hints: the
    /// grab it takes back starts the hints afresh, and the held thumb goes on following the
    /// pointer without a button change.
    @Test func aGrabBrokenMidFastDragStillFollowsThePointer() throws {
        try screen.run("/usr/bin/setxkbmap", "-option", "grab:break_actions")
        let gate = try lock()
        client.move(676 + 40, 842)
        client.button(true)
        client.fastMove(y: 842, from: 676 + 40, to: 676 + 40 + 100)
        #expect(eventually { client.brightness(682 + 100 + 8, 802 + 6 + 8) > 90 }, "the thumb follows the fast drag")
        let taken = breakGrabsAndTakeTheKeyboard()
        #expect(taken, "the grab was broken, and this client took the keyboard before the guard could")
        #expect(eventually { gate.standardError.contains("the keyboard grab is lost") }, "\(gate.standardError)")
        XUngrabKeyboard(client.display, 0)
        XSync(client.display, 0)
        #expect(eventually { !client.canGrabKeyboard() && !client.canGrabPointer() }, "the guard has both grabs again")
        client.move(676 + 40 + 200, 842)
        #expect(eventually { client.brightness(682 + 200 + 8, 802 + 6 + 8) > 90 }, "the thumb follows after the grab came back")
        client.button(false)
        #expect(eventually { client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 }, "released, it springs back")
        #expect(gate.isRunning)
    }

    /// The dummy monitor refreshes at 60 Hz: `--fps 240` shows no more than 60 frames a
    /// second. Over 2 s (one sweep and one pause of the shimmer) the slider shows about 60
    /// frames, not 240.
    @Test func noMoreFramesThanTheMonitorShows() throws {
        let gate = try screen.slidegate("--background", "#102030", "--fps", "240")
        #expect(eventually { !client.canGrabKeyboard() && coverSize() != nil })
        #expect(eventually { client.brightness(676 + 6 + 8, 802 + 6 + 8) > 90 }, "the slider is drawn")
        let frames = client.frames(x: 700, y: 810, width: 500, height: 50, over: 2)
        #expect(frames > 20 && frames <= 75, "\(frames) frames in 2 s")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }
}
