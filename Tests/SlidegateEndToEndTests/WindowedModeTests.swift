import CX11
import Glibc
import Testing

/// The real binary in windowed mode on its own Xvfb, driven with XTest, with the slider all
/// these tests share (`Client.thumbShown`) on a black background.
@Suite(.serialized) struct WindowedModeTests {
    let screen: VirtualScreen
    let client: Client
    static let geometry = ["--geometry", "600x80+100+100", "--background", "#000000", "--foreground", "#ffffff"]

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    func start(_ extra: String...) throws -> Child {
        let child = try screen.slidegate(Self.geometry + extra)
        #expect(
            eventually { thumbShown(at: 0) },
            "the slider appears with the thumb at the start; slidegate said: \(child.standardError)")
        return child
    }

    func thumbShown(at value: Double) -> Bool {
        client.thumbShown(at: value, threshold: 70)
    }

    @Test func halfDragSpringsBackAndKeepsRunning() throws {
        let gate = try start()
        client.drag(from: (140, 140), to: (400, 140), release: false)
        #expect(eventually { thumbShown(at: 0.5) }, "the thumb follows the pointer")
        #expect(!thumbShown(at: 0))
        client.button(false)
        #expect(eventually(within: 1) { thumbShown(at: 0) && !thumbShown(at: 0.5) }, "the thumb springs back")
        barrier(client, thumbShown)
        #expect(gate.isRunning)
    }

    /// A pointer at 1000 Hz wakes the window once a frame, not once a motion event: the
    /// newest motion of a frame interval goes to the gate, and above 400 events a second the
    /// button's grab turns to motion hints, as the guard's does. The newest motion still
    /// counts; a pause of a few frames or the release ends the hints, and a slow pointer
    /// after either is followed from its events again.
    @Test func aFastPointerWakesTheWindowOnceAFrame() throws {
        let gate = try start()
        client.move(140, 140)
        client.button(true)
        let before = try #require(contextSwitches(of: gate.pid))
        client.backAndForth(rate: 1000, y: 140)
        let woke = try #require(contextSwitches(of: gate.pid)) - before
        // A frame costs its wake and, for a motion hint, the wait for the pointer query's
        // reply when the server has not answered yet: 75 to 95 for this second of motion.
        // Waking for each event would be a thousand.
        #expect(woke < 250, "1000 motion events at 1000 Hz: the window's process switched \(woke) times")
        sleep(seconds: 0.1)
        client.backAndForth(rate: 250, y: 140)
        client.move(400, 140)
        #expect(eventually(within: 1) { thumbShown(at: 0.5) && !thumbShown(at: 0) }, "the newest motion counts")
        client.button(false)
        #expect(eventually(within: 1) { thumbShown(at: 0) && !thumbShown(at: 0.5) }, "released, it springs back")
        client.drag(from: (140, 140), to: (400, 140), release: false)
        #expect(eventually(within: 1) { thumbShown(at: 0.5) && !thumbShown(at: 0) }, "after the release, a slow drag is followed")
        client.button(false)
        #expect(gate.isRunning)
    }

    @Test func fullDragOvershootingTheWindowExits0() throws {
        let gate = try start()
        client.drag(from: (140, 140), to: (1100, 400))
        #expect(gate.wait() == 0)
    }

    @Test func tapAtTheEndKeepsRunning() throws {
        let gate = try start()
        client.move(660, 140)
        client.button(true)
        client.button(false)
        barrier(client, thumbShown)
        #expect(gate.isRunning)
        #expect(thumbShown(at: 0))
    }

    @Test func synthesizedPointerEventsAreIgnored() throws {
        let gate = try start()
        let window = try #require(client.mappedTopLevels().last)
        for mask in [0, ButtonPressMask | ButtonReleaseMask | PointerMotionMask] {
            client.sendButton(to: window, mask: mask, press: true, x: 40, y: 40)
            client.sendMotion(to: window, mask: mask, x: 900, y: 40)
            client.sendButton(to: window, mask: mask, press: false, x: 900, y: 40)
        }
        barrier(client, thumbShown)
        #expect(gate.isRunning)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
    }

    @Test func dragStartedOnTheTrackKeepsRunning() throws {
        let gate = try start()
        client.drag(from: (300, 140), to: (1100, 140))
        barrier(client, thumbShown)
        #expect(gate.isRunning)
        #expect(thumbShown(at: 0))
    }

    @Test func keysNeverMoveTheThumb() throws {
        let gate = try start()
        client.move(140, 140)
        for keysym in [0xff53, 0xff0d, 0x20, 0xff57] { client.key(Int32(keysym)) }
        barrier(client, thumbShown)
        #expect(gate.isRunning)
        #expect(thumbShown(at: 0))
    }

    @Test func unlockCommandSuccessRunsItAndExits0() throws {
        let marker = "/tmp/slidegate-e2e-\(getpid())-ok"
        unlink(marker)
        defer { unlink(marker) }
        let gate = try start("--unlock-command", "echo unlocked > \(marker)")
        client.drag(from: (140, 140), to: (900, 140))
        #expect(gate.wait() == 0)
        #expect(access(marker, F_OK) == 0, "the command ran")
    }

    @Test func unlockCommandFailureKeepsTheGateClosedAndAllowsAnotherTry() throws {
        let marker = "/tmp/slidegate-e2e-\(getpid())-allow"
        unlink(marker)
        defer { unlink(marker) }
        let gate = try start("--unlock-command", "test -e \(marker)")
        client.drag(from: (140, 140), to: (900, 140))
        #expect(eventually(within: 2) { thumbShown(at: 0) && !thumbShown(at: 1) }, "the thumb springs back after the failure")
        barrier(client, thumbShown)
        #expect(gate.isRunning)
        close(open(marker, O_CREAT | O_WRONLY, 0o644))
        client.drag(from: (140, 140), to: (900, 140))
        #expect(gate.wait() == 0)
    }

    @Test func timeoutExits4AfterAboutASecond() throws {
        let started = now()
        let gate = try screen.slidegate(Self.geometry + ["--timeout", "1"])
        #expect(gate.wait(timeout: 4) == 4)
        let elapsed = now() - started
        #expect(elapsed >= 0.95 && elapsed < 2.5, "took \(elapsed) s")
    }

    @Test func sigtermExits143() throws {
        let gate = try start()
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
        #expect(client.mappedTopLevels().isEmpty, "the window is gone")
    }

    @Test func windowCloseExits5() throws {
        let gate = try start()
        let window = try #require(client.mappedTopLevels().last)
        client.requestClose(window)
        #expect(gate.wait() == 5)
    }

    @Test func windowHasTheRequestedGeometryClassAndTitle() throws {
        let gate = try start("--text", "スライドで解除")
        let window = try #require(client.mappedTopLevels().last)
        let g = client.geometry(window)
        #expect(g.x == 100 && g.y == 100 && g.width == 600 && g.height == 80)
        #expect(client.windowClass(window)?.name == "slidegate")
        #expect(client.windowClass(window)?.className == "Slidegate")
        #expect(client.utf8Property(window, "_NET_WM_NAME") == "スライドで解除")
        #expect(gate.isRunning)
    }

    @Test func rightToLeftTheThumbStartsAtTheRightAndSlidesLeft() throws {
        // Arabic with --direction auto (the default): the thumb rests at the right end.
        let gate = try screen.slidegate(Self.geometry + ["--text", "اسحب لفتح القفل"])
        #expect(eventually { client.thumbShown(at: 1, threshold: 70) && !client.thumbShown(at: 0, threshold: 70) }, "\(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        client.drag(from: (660, 140), to: (1200, 140))
        barrierRightToLeft()
        #expect(gate.isRunning, "a left-to-right drag, from either end, does nothing")
        // The thumb's left part: under the pointer at rest and at the end of its spring back.
        client.drag(from: (640, 140), to: (0, 140))
        #expect(gate.wait() == 0)
        let forced = try screen.slidegate(Self.geometry + ["--direction", "rtl"])
        #expect(eventually { client.thumbShown(at: 1, threshold: 70) }, "--direction rtl with an English label")
        client.drag(from: (640, 140), to: (0, 140))
        #expect(forced.wait() == 0)
    }

    /// The right-to-left barrier: half a drag leftwards that the thumb follows, then its spring back.
    func barrierRightToLeft() {
        client.drag(from: (660, 140), to: (400, 140), release: false)
        #expect(eventually { client.thumbShown(at: 0.5, threshold: 70) }, "the thumb follows a real drag")
        client.button(false)
        #expect(eventually { client.thumbShown(at: 1, threshold: 70) && !client.thumbShown(at: 0.5, threshold: 70) })
    }

    @Test func theDefaultSizeFollowsXftDpiAndScale() throws {
        let resources = "/tmp/slidegate-xrdb-\(getpid())"
        let f = fopen(resources, "w")!
        fputs("Xft.dpi: 192\n", f)
        fclose(f)
        defer { unlink(resources) }
        #expect(try screen.run("/usr/bin/xrdb", "-merge", resources) == 0)
        let doubled = try screen.slidegate(["--geometry", "+10+10"])
        #expect(eventually { client.mappedTopLevels().last.map { client.geometry($0).width == 960 } ?? false }, "Xft.dpi 192: twice 480x72")
        #expect(client.mappedTopLevels().last.map { client.geometry($0).height } == 144)
        doubled.signal(SIGTERM)
        #expect(doubled.wait() == 143)
        let given = try screen.slidegate(["--geometry", "+10+10", "--scale", "1.5"])
        #expect(eventually { client.mappedTopLevels().last.map { client.geometry($0).width == 720 } ?? false }, "--scale wins")
        given.signal(SIGTERM)
        #expect(given.wait() == 143)
        // Default < X resources < configuration file < command line.
        let config = "/tmp/slidegate-scale-config-\(getpid())"
        let c = fopen(config, "w")!
        fputs("scale=1.5\n", c)
        fclose(c)
        defer { unlink(config) }
        let filed = try screen.slidegate(["--config", config, "--geometry", "+10+10"])
        #expect(eventually { client.mappedTopLevels().last.map { client.geometry($0).width == 720 } ?? false }, "the file beats Xft.dpi")
        filed.signal(SIGTERM)
        #expect(filed.wait() == 143)
        let both = try screen.slidegate(["--config", config, "--geometry", "+10+10", "--scale", "1"])
        #expect(eventually { client.mappedTopLevels().last.map { client.geometry($0).width == 480 } ?? false }, "the command line beats the file")
        both.signal(SIGTERM)
        #expect(both.wait() == 143)
        // The minimum height scales with Xft.dpi too: 48 pixels at 192 dpi, in both modes.
        for arguments in [["--geometry", "200x40+10+10"], ["--slider", "200x40+10+10"]] {
            let small = try screen.slidegate(arguments)
            #expect(small.wait() == 2)
            #expect(small.standardError.hasPrefix("slidegate: \(arguments[0]): expected a slider at least 48 pixels tall"), "\(small.standardError)")
        }
        #expect(client.canGrabKeyboard(), "nothing was locked")
    }

    @Test func theWindowIsADialogAskedToStayAboveWithoutDecorations() throws {
        let plain = try start()
        let window = try #require(client.mappedTopLevels().last)
        #expect(client.longsProperty(window, "_NET_WM_WINDOW_TYPE") == [client.atom("_NET_WM_WINDOW_TYPE_DIALOG")])
        #expect(client.longsProperty(window, "_NET_WM_STATE").isEmpty && client.longsProperty(window, "_MOTIF_WM_HINTS").isEmpty)
        plain.signal(SIGTERM)
        #expect(plain.wait() == 143)
        let kiosk = try start("--above", "--undecorated")
        let asked = try #require(client.mappedTopLevels().last)
        #expect(client.longsProperty(asked, "_NET_WM_STATE") == [client.atom("_NET_WM_STATE_ABOVE")])
        #expect(client.longsProperty(asked, "_MOTIF_WM_HINTS") == [2, 0, 0, 0, 0], "decorations: none")
        #expect(kiosk.isRunning)
    }

    @Test func aResizedWindowIsLaidOutAgain() throws {
        let gate = try start()
        let window = try #require(client.mappedTopLevels().last)
        XResizeWindow(client.display, window, 800, 100)
        XSync(client.display, 0)
        // 800x100: padding 7, an 86 px thumb at x 107, its far end at x 100 + 800 - 7 - 86.
        #expect(eventually { client.brightness(107 + 8, 185) > 70 }, "the thumb reaches below the old window: as tall as the new one")
        client.drag(from: (150, 150), to: (150 + 640, 150))
        sleep(seconds: 0.3)
        #expect(gate.isRunning, "640 px is short of the wider track's 700 px travel")
        // The thumb springs back for 0.35 s (Slide.springDuration), later on a busy machine:
        // the next press is on it once it is home again.
        #expect(eventually { client.brightness(107 + 8, 185) > 70 }, "the thumb springs back to the start")
        client.drag(from: (150, 150), to: (1200, 150))
        #expect(gate.wait() == 0, "a full drag across the wider track completes")
    }

    @Test func negativeOffsetsCountFromTheRightAndBottom() throws {
        let gate = try screen.slidegate("--geometry", "300x60-0-10")
        #expect(eventually { client.mappedTopLevels().count == 1 })
        let window = try #require(client.mappedTopLevels().last)
        let g = client.geometry(window)
        #expect(g.x == 980 && g.y == 650 && g.width == 300 && g.height == 60)
        #expect(gate.isRunning)
    }
}

/// Failures that happen before any window: bad options and no display.
@Suite struct StartupFailureTests {
    @Test func badOptionsExit2WithOneLine() throws {
        let gate = try Child(slidegatePath, ["--fps", "0"], environment: ["DISPLAY": unset])
        #expect(gate.wait() == 2)
        #expect(gate.standardError == "slidegate: --fps: expected a whole number from 1 to 240, got \"0\"\n")
    }

    @Test func unsetDisplayExits3() throws {
        let gate = try Child(slidegatePath, ["--geometry", "300x60"], environment: ["DISPLAY": unset])
        #expect(gate.wait() == 3)
        #expect(gate.standardError == "slidegate: cannot open a display: DISPLAY is not set\n")
    }

    @Test func unreachableDisplayExits3NamingIt() throws {
        let gate = try Child(slidegatePath, ["--geometry", "300x60"], environment: ["DISPLAY": ":917"])
        #expect(gate.wait() == 3)
        #expect(gate.standardError == "slidegate: cannot open display \":917\"\n")
    }

    @Test func helpAndVersionExit0() throws {
        let help = try Child(slidegatePath, ["--help"], environment: ["DISPLAY": unset])
        #expect(help.wait() == 0)
        let version = try Child(slidegatePath, ["--version"], environment: ["DISPLAY": unset])
        #expect(version.wait() == 0)
    }
}

/// The translations (./dev build compiles them into .build/locale, where the build tree's
/// programs find them): the language of the environment picks the label, and an Arabic or
/// Hebrew one slides right to left by itself.
@Suite(.serialized) struct TranslationEndToEndTests {
    let screen: VirtualScreen
    let client: Client

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    @Test func theLanguagePicksTheLabel() throws {
        for (language, label) in [("de", "zum Entsperren schieben"), ("ja", "スライドでロック解除"), ("fr", "glisser pour déverrouiller")] {
            let gate = try screen.slidegate(WindowedModeTests.geometry, environment: ["LANG": "C.UTF-8", "LANGUAGE": language])
            #expect(eventually { client.mappedTopLevels().last.map { client.utf8Property($0, "_NET_WM_NAME") == label } ?? false }, "\(language)")
            gate.signal(SIGTERM)
            #expect(gate.wait() == 143)
        }
    }

    @Test func anArabicLockSlidesRightToLeft() throws {
        let gate = try screen.slidegate(LockModeTests.arguments, environment: ["LANG": "C.UTF-8", "LANGUAGE": "ar"])
        #expect(eventually { client.thumbShown(at: 1, threshold: 90) && !client.thumbShown(at: 0, threshold: 90) }, "the thumb rests at the right")
        client.drag(from: (640, 140), to: (0, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }
}
