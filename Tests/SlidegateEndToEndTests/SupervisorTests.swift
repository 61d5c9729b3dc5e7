import CX11
import Glibc
import Testing

/// A guard that dies is replaced and the screen is never shown: slidegate stays as the
/// supervisor, the lock runs in its child `slidegate-guard`. Each death is performed as an
/// attacker or a bug would: a signal (SIGILL is what a Swift trap raises), or another client's
/// XKillClient of the cover. Same slider placement as `LockModeTests`.
@Suite(.serialized) struct SupervisorTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: PamStack

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try PamStack()
    }

    enum Death: String, CaseIterable, CustomTestStringConvertible {
        case killed, trapped, connectionKilled

        var testDescription: String { rawValue }
    }

    /// Kills the guard of `gate` as `death` says.
    func kill(_ death: Death, guardOf gate: Child) {
        switch death {
        case .killed: _ = Glibc.kill(guardOf(gate.pid), SIGKILL)
        case .trapped: _ = Glibc.kill(guardOf(gate.pid), SIGILL)
        case .connectionKilled:
            if let cover = client.mappedTopLevels().last { XKillClient(client.display, cover) }
            XSync(client.display, 0)
        }
    }

    /// Whether a new guard holds the lock: the covers now up are none of `old` (a new guard
    /// frees the dead one's once its own are up), and the slider shows.
    func relocked(from old: Set<Window>) -> Bool {
        let covers = Set(client.mappedTopLevels())
        return !covers.isEmpty && covers.isDisjoint(with: old) && thumbShown(at: 0)
    }

    /// Another client's window under the lock, focused, watching for exposures, visibility
    /// changes and keys (on it and on the root window, where keys on the cover would reach).
    final class Spy {
        let client: Client
        let window: Window

        init(_ screen: VirtualScreen) throws {
            client = try Client(screen)
            let d = client.display
            window = XCreateSimpleWindow(d, client.root, 0, 0, 700, 500, 0, 0, 0x00ff00)
            XSelectInput(d, window, ExposureMask | VisibilityChangeMask | KeyPressMask | KeyReleaseMask)
            XSelectInput(d, client.root, KeyPressMask | KeyReleaseMask)
            XMapRaised(d, window)
            XSync(d, 0)
        }

        func focus() {
            XSetInputFocus(client.display, window, RevertToParent, 0)
            XSync(client.display, 0)
        }

        /// The names of the events that came since the last call.
        func events() -> [String] {
            XSync(client.display, 0)
            var seen: [String] = []
            var event = XEvent()
            while XPending(client.display) > 0 {
                XNextEvent(client.display, &event)
                switch event.type {
                case Expose: seen.append("Expose")
                case VisibilityNotify: seen.append("VisibilityNotify \(event.xvisibility.state)")
                case KeyPress: seen.append("KeyPress")
                case KeyRelease: seen.append("KeyRelease")
                default: break
                }
            }
            return seen
        }
    }

    /// The guard dies; keys are typed through the gap. Nothing under the lock is exposed or
    /// gets a key, a new guard has the lock within 100 ms (its cover up and grabbed: then it
    /// frees the dead one's), and the slide is needed again. Also with a window manager that
    /// binds a key on the root window (Super+Return), which makes a passive grab of every key
    /// fail whole.
    @Test(arguments: Death.allCases, [false, true])
    func aDeadGuardIsReplacedUnseen(death: Death, windowManagerBindsKeys: Bool) throws {
        let windowManager = try Client(screen)
        if windowManagerBindsKeys {
            let enter = Int32(XKeysymToKeycode(windowManager.display, KeySym(0xff0d)))
            XGrabKey(windowManager.display, enter, UInt32(Mod4Mask), windowManager.root, 1, GrabModeAsync, GrabModeAsync)
            XSync(windowManager.display, 0)
        }
        let spy = try Spy(screen)
        #expect(eventually { client.mappedTopLevels().contains(spy.window) })
        spy.focus()
        let gate = try lock()
        let first = guardOf(gate.pid)
        #expect(first != gate.pid, "the lock runs in a child: \(gate.standardError)")
        #expect(contents(of: "/proc/\(first)/comm") == "slidegate-guard\n")
        _ = spy.events()
        let before = Set(client.mappedTopLevels()).subtracting([spy.window])
        let killed = now()
        kill(death, guardOf: gate)
        var back: Double?
        for _ in 0..<80 {
            client.key(0x61)
            let topLevels = Set(client.mappedTopLevels()).subtracting([spy.window])
            if back == nil && !topLevels.isEmpty && topLevels.isDisjoint(with: before) { back = now() - killed }
            usleep(2_000)
        }
        let gap = try #require(back, "a new cover replaced the old one: \(gate.standardError)")
        #expect(gap < 0.1, "the lock was back after \(gap) s")
        #expect(spy.events().isEmpty, "nothing reached the window under the lock")
        #expect(gate.isRunning && !client.canGrabKeyboard() && !client.canGrabPointer() && covered())
        #expect(eventually { relocked(from: before) }, "the slider is back")
        #expect(guardOf(gate.pid) != first && guardOf(gate.pid) != gate.pid)
        #expect(gate.standardError.contains("slidegate: the lock's guard ended ("), "\(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "the slide opens it: \(gate.standardError)")
        #expect(client.mappedTopLevels() == [spy.window], "nothing of the lock is left")
    }

    /// A guard dead before its first frame shows (its UI never speaks: no frame for 2 s,
    /// until the plain slider), so before the supervisor has taken its passive grabs, is
    /// replaced as any other: keys typed through the gap reach no window under the lock.
    @Test func aGuardDeadBeforeItsFirstFrameLeavesNoGap() throws {
        // A UI that never speaks, and ends, as the real one does, once its guard is gone.
        let stand = try StandIn(
            replacing: "slidegate-ui", source: "int main(void) { (void)is; uint8_t b[4096]; while (read(3, b, sizeof b) > 0) {} return 0; }\n")
        let spy = try Spy(screen)
        #expect(eventually { client.mappedTopLevels().contains(spy.window) })
        spy.focus()
        let gate = try screen.slidegate(LockModeTests.arguments, program: stand.directory + "/slidegate")
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(gate.standardError)")
        _ = spy.events()
        let covers = Set(client.mappedTopLevels()).subtracting([spy.window])
        _ = Glibc.kill(guardOf(gate.pid), SIGKILL)
        for _ in 0..<60 {
            client.key(0x61)
            usleep(2_000)
        }
        #expect(spy.events().isEmpty, "nothing reached the window under the lock")
        #expect(eventually {
            let now = Set(client.mappedTopLevels()).subtracting([spy.window])
            return !now.isEmpty && now.isDisjoint(with: covers)
        }, "a new guard's cover replaced the dead one's: \(gate.standardError)")
        #expect(gate.isRunning && !client.canGrabKeyboard() && covered(), "\(gate.standardError)")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143, "\(gate.standardError)")
    }

    /// With a password and a grace, a guard that died took the grace with it: the slide
    /// opens the password stage, the password opens the lock.
    @Test func aRestartedLockAsksForEverythingAgain() throws {
        let gate = try lock(["--auth", "pam", "--pam-service", "slidegate", "--grace", "30"], environment: pam.environment)
        let covers = Set(client.mappedTopLevels())
        _ = Glibc.kill(guardOf(gate.pid), SIGKILL)
        #expect(eventually { relocked(from: covers) }, "\(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "the password stage opened: \(gate.standardError)")
        #expect(gate.isRunning)
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// Three deaths within 10 s bring the safe mode: no drawing program, the plain slider,
    /// which still opens the lock.
    @Test func threeDeathsBringTheSafeMode() throws {
        let gate = try lock()
        for _ in 0..<3 {
            let covers = Set(client.mappedTopLevels())
            _ = Glibc.kill(guardOf(gate.pid), SIGKILL)
            #expect(eventually { relocked(from: covers) }, "\(gate.standardError)")
        }
        #expect(gate.standardError.contains("locking again in the safe mode"), "\(gate.standardError)")
        #expect(uiChild(of: gate.pid) == nil, "no drawing program")
        #expect(!client.canGrabKeyboard() && covered())
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(client.mappedTopLevels().isEmpty)
    }

    /// The session's SIGTERM goes through the supervisor to the lock, which ends as it
    /// always did; the guard is gone with it.
    @Test func aSignalToSlidegateEndsTheLock() throws {
        let gate = try lock()
        let guarding = guardOf(gate.pid)
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143, "\(gate.standardError)")
        #expect(Glibc.kill(guarding, 0) != 0, "the guard ended")
        #expect(client.canGrabKeyboard() && client.mappedTopLevels().isEmpty)
    }
}
