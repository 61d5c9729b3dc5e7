import CX11
import Glibc
import Testing

/// Lock mode under a real compositing manager, picom with its xrender backend, and the
/// attacks on the Composite overlay window: the lock must be what the screen shows while a
/// compositor runs, restarts or hangs, and while another client paints the overlay window.
@Suite(.serialized) struct CompositorTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    /// A white window of the desktop at (0, 0), 400x300.
    let desktopWindow: Window

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        desktopWindow = XCreateSimpleWindow(client.display, client.root, 0, 0, 400, 300, 0, 0, 0xffffff)
        XMapRaised(client.display, desktopWindow)
        XSync(client.display, 0)
    }

    /// Starts picom and waits until it manages the screen and shows the desktop window.
    func startPicom() throws -> Child {
        let picom = try Child(
            "/usr/bin/picom", ["--backend", "xrender", "--config", "/dev/null", "--no-fading-openclose"],
            environment: ["DISPLAY": screen.name])
        #expect(eventually(within: 5) { compositorRuns() && desktopShows() }, "picom composites: \(picom.standardError)")
        return picom
    }

    func compositorRuns() -> Bool {
        XGetSelectionOwner(client.display, XInternAtom(client.display, "_NET_WM_CM_S0", 0)) != 0
    }

    func desktopShows() -> Bool {
        client.pixel(200, 150) == (255, 255, 255)
    }

    func stop(_ picom: Child) {
        picom.signal(SIGCONT)
        picom.signal(SIGTERM)
        if picom.wait(timeout: 3) == nil {
            picom.signal(SIGKILL)
            _ = picom.wait()
        }
    }

    func unlock(_ gate: Child, sourceLocation: SourceLocation = #_sourceLocation) {
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)", sourceLocation: sourceLocation)
    }

    /// `--image desktop`: the screen as it was, blurred, under the lock — the white desktop
    /// window soft-edged on the root's black (picom paints it grey) — both as the server paints the screen and as
    /// picom does (into the overlay window, which is what is copied then).
    @Test func theDesktopIsBlurredUnderTheLockWithOrWithoutACompositor() throws {
        for composited in [false, true] {
            let picom = composited ? try startPicom() : nil
            defer { picom.map(stop) }
            // picom paints the root grey where there is no wallpaper: then it has painted.
            #expect(eventually { client.brightness(900, 600) == (composited ? 128 : 0) })
            let gate = try screen.slidegate(LockModeTests.arguments + ["--image", "desktop", "--blur", "10", "--dim", "0.2"])
            #expect(eventually { thumbShown(at: 0) }, "locked: \(gate.standardError)")
            // White inside and the root far outside, dimmed by a fifth; a ramp across the window's
            // edge at x 400.
            // (Under picom the guard has the cover painted again once the compositor has
            // painted it: the picture is copied anew after each of those, so wait for both.)
            let outside = composited ? 102 : 0
            #expect(
                eventually(within: 4) {
                    client.brightness(50, 250) > 190 && client.brightness(50, 250) < 215
                        && abs(client.brightness(900, 600) - outside) < 12
                },
                "composited \(composited): \(client.brightness(50, 250)), \(client.brightness(900, 600))")
            let ramp = (370...430).map { client.brightness($0, 250) }
            #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 >= $1 }, "a soft edge: \(ramp)")
            #expect(ramp.first! > 180 && ramp.last! < outside + 25 && ramp[30] > outside + 25 && ramp[30] < 180, "composited \(composited): \(ramp)")
            unlock(gate)
            #expect(eventually { desktopShows() }, "the desktop is seen again")
        }
    }

    @Test func theLockShowsAnimatesAndLeavesNothingBehind() throws {
        let picom = try startPicom()
        defer { stop(picom) }
        let gate = try lock()
        #expect(!desktopShows(), "the desktop window is covered")
        #expect(eventually(within: 3) { client.frames(x: 100, y: 100, width: 600, height: 80, over: 0.2) > 2 }, "the shimmer's frames reach the screen")
        unlock(gate)
        #expect(eventually { desktopShows() && client.pixel(640, 360) != (16, 32, 48) }, "the desktop is seen again")
        #expect(client.mappedTopLevels() == [desktopWindow], "nothing of the lock is left")
    }

    @Test func picomRestartedDuringTheLockChangesNothing() throws {
        let first = try startPicom()
        let gate = try lock()
        stop(first)
        #expect(!compositorRuns())
        // The server takes back picom's redirection when it sees picom's connection close, and
        // the lock is painted again within a frame or two after (later on a busy machine):
        // the desktop never shows meanwhile.
        #expect(!desktopShows(), "the desktop stays hidden with picom gone")
        #expect(eventually(within: 1) { covered() && thumbShown(at: 0) && !desktopShows() }, "still the lock with picom gone")
        let second = try Child(
            "/usr/bin/picom", ["--backend", "xrender", "--config", "/dev/null", "--no-fading-openclose"],
            environment: ["DISPLAY": screen.name])
        defer { stop(second) }
        #expect(eventually(within: 5) { compositorRuns() }, "picom is back")
        for _ in 0..<20 {
            #expect(covered() && !desktopShows(), "the lock, whatever picom paints")
            sleep(seconds: 0.025)
        }
        unlock(gate)
        #expect(eventually { desktopShows() }, "the desktop is seen again")
    }

    /// A compositor that hangs before the lock (SIGSTOP) would go on showing the desktop if
    /// the lock needed it to paint: the cover inside the overlay window is shown by the server.
    @Test func aHungCompositorStillShowsTheLock() throws {
        let picom = try startPicom()
        defer { stop(picom) }
        picom.signal(SIGSTOP)
        let gate = try lock()
        #expect(!desktopShows() && covered(), "the lock is what the screen shows")
        #expect(!client.canGrabKeyboard())
        unlock(gate)
        picom.signal(SIGCONT)
        #expect(eventually { desktopShows() }, "the desktop is seen again once picom runs")
    }

    /// Another client takes the overlay window (above every window) and paints it white, and
    /// puts a white window of its own inside it: the lock stays what the screen shows.
    @Test(arguments: [false, true])
    func aPainterOnTheOverlayWindowCannotCoverTheLock(withCompositor: Bool) throws {
        let picom = withCompositor ? try startPicom() : nil
        defer { picom.map(stop) }
        let gate = try lock()
        // A compositor paints the screen once when the lock's obscurer maps, over the
        // slider too, which the guard has painted again within a second.
        sleep(seconds: 1.1)
        let overlay = XCompositeGetOverlayWindow(client.display, client.root)
        defer { XCompositeReleaseOverlayWindow(client.display, overlay) }
        let gc = XCreateGC(client.display, overlay, 0, nil)
        defer { XFreeGC(client.display, gc) }
        XSetForeground(client.display, gc, 0xffffff)
        for _ in 0..<20 {
            XFillRectangle(client.display, overlay, gc, 0, 0, 1280, 720)
            XSync(client.display, 0)
            #expect(covered() && thumbShown(at: 0), "painting the overlay window does not show over the lock")
            sleep(seconds: 0.01)
        }
        let intruder = XCreateSimpleWindow(client.display, overlay, 0, 0, 1280, 720, 0, 0, 0xffffff)
        XMapRaised(client.display, intruder)
        XSync(client.display, 0)
        #expect(eventually(within: 1) { covered() && thumbShown(at: 0) }, "the cover is raised above a window put in the overlay")
        XDestroyWindow(client.display, intruder)
        unlock(gate)
    }
}
