import CX11
import Glibc
import Testing

/// The real binary in lock mode on its own Xvfb. `--slider 600x80+100+100` puts the slider
/// where the windowed tests have it (Xvfb's one monitor starts at 0,0).
@Suite(.serialized) struct LockModeTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    static let arguments = ["--slider", "600x80+100+100", "--background", "#102030", "--foreground", "#ffffff"]

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    @Test func aRightToLeftLockOpensWithALeftwardSlide() throws {
        let gate = try screen.slidegate(Self.arguments + ["--text", "החלק כדי לפתוח"])
        #expect(eventually { covered() && thumbShown(at: 1) && !thumbShown(at: 0) }, "the thumb rests at the right end")
        client.drag(from: (640, 140), to: (1200, 140))
        client.drag(from: (140, 140), to: (1200, 140))
        #expect(eventually { thumbShown(at: 1) })
        #expect(gate.isRunning && !client.canGrabKeyboard(), "rightward drags do nothing")
        client.drag(from: (640, 140), to: (0, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// A lock says nothing a person need not act on: the kernel refusing the guard's OOM
    /// protection (a user without CAP_SYS_RESOURCE) is said only with --verbose.
    @Test(arguments: [false, true])
    func theOomNoteIsSaidOnlyWhenVerbose(verbose: Bool) throws {
        let gate = try lock(verbose ? ["--verbose"] : [])
        let protected = contents(of: "/proc/\(gate.pid)/oom_score_adj") == "-1000\n"
        client.drag(from: (140, 140), to: (1200, 140))
        #expect(gate.wait() == 0)
        #expect(
            gate.standardError.contains("cannot set oom_score_adj") == (verbose && !protected),
            "verbose \(verbose), protected \(protected): \(gate.standardError)")
        if !verbose { #expect(gate.standardError.isEmpty, "a plain lock and slide say nothing: \(gate.standardError)") }
    }

    @Test func coversTheScreenGrabsInputAndAFullDragUnlocks() throws {
        let gate = try lock()
        let cover = try #require(client.mappedTopLevels().last)
        #expect(client.cardinalProperty(cover, "_NET_WM_BYPASS_COMPOSITOR") == 1)
        #expect(client.windowClass(cover)?.className == "Slidegate")
        #expect(!client.canGrabKeyboard(), "another client cannot grab the keyboard")
        #expect(!client.canGrabPointer(), "another client cannot grab the pointer")
        client.drag(from: (140, 140), to: (400, 140))
        #expect(eventually(within: 1) { thumbShown(at: 0) && !thumbShown(at: 0.5) }, "a half drag springs back")
        #expect(gate.isRunning)
        client.drag(from: (140, 140), to: (1200, 600))
        #expect(gate.wait() == 0)
        #expect(client.canGrabKeyboard(), "the keyboard grab is released")
        #expect(client.canGrabPointer(), "the pointer grab is released")
        #expect(client.mappedTopLevels().isEmpty, "the cover is gone")
    }

    @Test func theGuardRunsTheUnlockCommandAndStaysLockedWhenItFails() throws {
        let marker = "/tmp/slidegate-e2e-\(getpid())-lock-allow"
        let output = "/tmp/slidegate-e2e-\(getpid())-lock-out"
        unlink(marker)
        defer {
            unlink(marker)
            unlink(output)
        }
        let gate = try screen.slidegate(
            Self.arguments + ["--unlock-command", "echo checked; test -e \(marker)"], stdout: output)
        #expect(eventually { covered() && thumbShown(at: 0) }, "locked; slidegate said: \(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually(within: 2) { thumbShown(at: 0) && !thumbShown(at: 1) }, "the thumb springs back after the failure")
        barrier(client, { thumbShown(at: $0) })
        #expect(gate.isRunning)
        #expect(!client.canGrabKeyboard(), "still locked")
        close(open(marker, O_CREAT | O_WRONLY, 0o644))
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
        #expect(client.canGrabKeyboard())
        #expect(contents(of: output) == "checked\nchecked\n", "the command's output goes to slidegate's stdout")
    }

    /// Xvfb's modes carry no timings: its screen counts as 60 Hz, so `--fps 240` shimmers at
    /// 60 frames a second. Over 2 s (one sweep and one pause) the slider shows about 60
    /// frames, and the UI, which hands each sweep to the X server with Present, wakes only a
    /// few times (the guard's pings, a sweep's start), not once a frame. The 2 s begin after
    /// the second sweep: the first, under way from the moment the thumb rests, is painted
    /// frame by frame, and at the second the UI makes the sweep's frames and waits on the
    /// socket while the server takes them (6–10 wake-ups, more on a loaded machine).
    @Test func aScreenWithoutTimingsCountsAs60HzAndASweepIsHandedOver() throws {
        let gate = try lock(["--fps", "240"])
        let ui = try #require(uiChild(of: gate.pid))
        sleep(seconds: 3.1)
        let before = try #require(contextSwitches(of: ui))
        let frames = client.frames(x: 100, y: 100, width: 600, height: 80, over: 2)
        let woke = try #require(contextSwitches(of: ui)) - before
        #expect(frames > 20 && frames <= 75, "\(frames) frames in 2 s")
        #expect(woke < 20, "the UI woke \(woke) times in 2 s")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    /// Pressing the thumb mid-sweep takes back the frames still queued with the server: from
    /// then on the label holds still while the thumb is held.
    @Test func inputMidSweepStopsTheQueuedFrames() throws {
        let gate = try lock()
        sleep(seconds: 1.1)
        #expect(eventually(within: 3) { client.frames(x: 100, y: 100, width: 600, height: 80, over: 0.1) > 2 }, "a sweep runs")
        client.move(140, 140)
        client.button(true)
        client.move(400, 140)
        // The thumb at the pointer: the UI has taken the press and the move, and with them
        // taken back the sweep's queued frames.
        #expect(eventually { thumbShown(at: 0.5) && !thumbShown(at: 0) }, "the thumb follows")
        // Watched right of the held thumb (which ends at x 434): a queued frame would paint
        // the label's whole rectangle, which reaches past x 500. The thumb's own last
        // step may land a frame after it first shows at the middle (seen under load: the
        // thumb 22 pixels short of the pointer, then at it), and is not the sweep.
        #expect(client.frames(x: 440, y: 100, width: 254, height: 80, over: 1) == 0, "the label holds still while the thumb is held")
        client.button(false)
        #expect(eventually(within: 1) { thumbShown(at: 0) }, "released, it springs back")
        #expect(gate.isRunning)
    }

    /// A server without Present: the UI paints the sweep's frames itself, one a wake-up.
    @Test func withoutPresentTheUIPaintsEachFrame() throws {
        let plain = try VirtualScreen(arguments: ["-extension", "Present"])
        let other = try Client(plain)
        let gate = try plain.slidegate(Self.arguments)
        #expect(eventually { other.brightness(140, 140) > 90 }, "locked: \(gate.standardError)")
        let ui = try #require(uiChild(of: gate.pid))
        let before = try #require(contextSwitches(of: ui))
        let frames = other.frames(x: 100, y: 100, width: 600, height: 80, over: 2)
        let woke = try #require(contextSwitches(of: ui)) - before
        #expect(frames > 20 && frames <= 75, "\(frames) frames in 2 s")
        #expect(woke > 30, "the UI woke \(woke) times in 2 s")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    /// A fast pointer, at 250 and at 1000 Hz (where the guard turns to motion hints), then a
    /// pause and a slow one: the thumb goes where the pointer went last, and a release ends
    /// the hints. (How often the guard and the UI wake meanwhile — once a frame, not once a
    /// motion — is a figure of the benchmark, with its budget: docs/PERFORMANCE.md.)
    @Test func aFastPointerIsFollowedToItsLastPlace() throws {
        let gate = try lock()
        client.move(140, 140)
        client.button(true)
        client.backAndForth(rate: 250, y: 140)
        client.backAndForth(rate: 1000, y: 140)
        // A pause of a few frames, the button still held, turns the hints off: a slow
        // pointer after it is taken from its events again.
        sleep(seconds: 0.1)
        client.backAndForth(rate: 250, y: 140)
        // One more move, past everywhere the stream went: the newest motion is not lost.
        client.move(400, 140)
        #expect(eventually(within: 1) { thumbShown(at: 0.5) && !thumbShown(at: 0) })
        client.button(false)
        #expect(eventually(within: 1) { thumbShown(at: 0) }, "released, it springs back")
        // The release turned the hints off: a slow drag right after is followed.
        client.drag(from: (140, 140), to: (400, 140), release: false)
        #expect(eventually(within: 1) { thumbShown(at: 0.5) && !thumbShown(at: 0) })
        client.button(false)
        #expect(gate.isRunning)
    }

    /// A held thumb is the guard's to draw, from the parts the UI lent it: the UI sleeps
    /// through the drag, a stopped UI does not stop the thumb, and what the guard drew is
    /// pixel for pixel what the UI paints at the same place once it has the slider back.
    @Test func theGuardDrawsADragAsTheUIWould() throws {
        let gate = try lock()
        let ui = try #require(uiChild(of: gate.pid))
        client.drag(from: (140, 140), to: (300, 140), release: false)
        #expect(eventually { thumbShown(at: 160 / 520) && !thumbShown(at: 0) })
        // The UI has answered the guard's `lend` and finished starting up (on a busy
        // machine it may still be at both when the thumb first moves): 0.2 s asleep.
        var last = try #require(contextSwitches(of: ui))
        #expect(
            eventually(within: 5) {
                sleep(seconds: 0.2)
                let now = contextSwitches(of: ui)
                defer { last = now ?? last }
                return now == last
            }, "the UI never slept for 0.2 s with the thumb held")
        let before = try #require(contextSwitches(of: ui))
        for i in 0..<100 {
            client.move(300 + i % 20, 140)
            sleep(seconds: 0.004)
        }
        client.move(300, 140)
        let woke = try #require(contextSwitches(of: ui)) - before
        #expect(woke < 10, "the UI woke \(woke) times in a drag of 100 motion events")
        // The guard's frame at 300: what the slider shows once it holds still for 50 ms.
        var drawn: [UInt32]?
        #expect(
            eventually {
                let shown = client.pixels(x: 100, y: 100, width: 600, height: 80)
                sleep(seconds: 0.05)
                drawn = client.pixels(x: 100, y: 100, width: 600, height: 80)
                return shown == drawn && thumbShown(at: 160 / 520)
            })
        kill(ui, SIGSTOP)
        client.move(400, 140)
        #expect(eventually { thumbShown(at: 260 / 520) && !thumbShown(at: 160 / 520) }, "the guard draws the drag")
        kill(ui, SIGCONT)
        // A key ends the loan; the UI paints the rest of the drag, back at the same place.
        client.key(0x20)
        client.move(200, 140)
        #expect(eventually { thumbShown(at: 60 / 520) && !thumbShown(at: 260 / 520) })
        client.move(300, 140)
        #expect(eventually { drawn != nil && client.pixels(x: 100, y: 100, width: 600, height: 80) == drawn }, "the UI's frame is the guard's")
        client.button(false)
        #expect(eventually { thumbShown(at: 0) }, "released, it springs back")
        #expect(gate.isRunning)
    }

    @Test func keysDoNotUnlock() throws {
        let gate = try lock()
        for keysym in [0xff0d, 0xff1b, 0x20, 0xff53] { client.key(Int32(keysym)) }
        barrier(client, { thumbShown(at: $0) })
        #expect(gate.isRunning)
        #expect(covered())
    }

    /// Whether a mapped top-level window covers the whole screen.
    func coverMapped() -> Bool {
        client.mappedTopLevels().contains { let g = client.geometry($0); return g.width >= 1280 && g.height >= 720 }
    }

    @Test func heldKeyboardGrabMeansExit3AndNoCover() throws {
        #expect(XGrabKeyboard(client.display, client.root, 0, GrabModeAsync, GrabModeAsync, 0) == GrabSuccess)
        XSync(client.display, 0)
        let gate = try screen.slidegate(Self.arguments)
        var everCovered = false
        var noticeShown = false
        var ui: pid_t?
        while gate.isRunning {
            everCovered = everCovered || coverMapped()
            noticeShown = noticeShown || lockingNoticeShown()
            ui = ui ?? uiChild(of: gate.pid)
            sleep(seconds: 0.02)
        }
        #expect(gate.wait() == 3)
        #expect(!everCovered, "nothing that looks locked was shown")
        #expect(noticeShown, "a small locking… notice showed while waiting for the grab")
        #expect(client.mappedTopLevels().isEmpty, "nothing is left mapped")
        #expect(gate.standardError.contains("slidegate: cannot lock: the keyboard grab failed (AlreadyGrabbed) for 1.0 s"))
        #expect(gate.standardError.split(separator: "\n").count == 1, "one line, nothing from the drawing program: \(gate.standardError)")
        // With no frame kept the drawing program starts beside the lock; the guard that gives
        // up ends and reaps it.
        let started = try #require(ui, "the drawing program started while the guard waited for the grab")
        #expect(access("/proc/\(started)", F_OK) != 0, "the drawing program was reaped with the guard")
        XUngrabKeyboard(client.display, 0)
        XSync(client.display, 0)
    }

    @Test func keyboardGrabHeldBrieflyThenReleasedStillLocks() throws {
        #expect(XGrabKeyboard(client.display, client.root, 0, GrabModeAsync, GrabModeAsync, 0) == GrabSuccess)
        XSync(client.display, 0)
        let gate = try screen.slidegate(Self.arguments)
        sleep(seconds: 0.3)
        #expect(!coverMapped())
        XUngrabKeyboard(client.display, 0)
        XSync(client.display, 0)
        #expect(eventually { covered() && thumbShown(at: 0) }, "locked once the grab was free")
        #expect(!client.canGrabKeyboard())
        #expect(gate.isRunning)
    }

    @Test func sigtermReleasesTheGrabsAndExits143() throws {
        let gate = try lock()
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
        #expect(!gate.standardError.contains("drawing program"), "the UI was not replaced on the way out: \(gate.standardError)")
        #expect(client.canGrabKeyboard())
        #expect(client.canGrabPointer())
        #expect(client.mappedTopLevels().isEmpty)
    }

    @Test func waylandSessionsAreRefused() throws {
        let gate = try screen.slidegate(Self.arguments, environment: ["WAYLAND_DISPLAY": "wayland-0"])
        #expect(gate.wait() == 3)
        #expect(gate.standardError.contains("Wayland"))
        #expect(client.mappedTopLevels().isEmpty)
    }
}
