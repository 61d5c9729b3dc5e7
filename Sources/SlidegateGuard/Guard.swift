import CX11
import Glibc
import SlidegateCore
import SlidegateXlib

/// Lock mode's guard process: it holds the grabs and the cover, decides with its own gate
/// whether the slide completed, runs the unlock command, and keeps a UI process drawing
/// the slider inside its window, restarting it if it dies. It links Xlib and nothing that
/// draws, so a crash in drawing code cannot unlock the screen.
public final class Guard {
    public struct Launch {
        /// Where the UI executable is.
        public var uiPath: String
        /// slidegate's own arguments, handed to the UI so it draws the same slider.
        public var arguments: [String]
        /// `--fork`: fork once locked; the parent exits 0.
        public var fork: Bool

        public init(uiPath: String, arguments: [String], fork: Bool) {
            self.uiPath = uiPath
            self.arguments = arguments
            self.fork = fork
        }
    }

    private let launch: Launch
    private let display: XDisplay
    private let signals: SignalWatch
    private let cover: LockCover
    private var gate: Gate
    private var ui: UIProcess?
    private var uiRestartAt: Double?
    private var restarts = RestartPolicy()
    private var command: ChildProcess?
    private var pendingMotion: (x: Double, y: Double, at: Double)?

    /// Locks, runs until the gate ends, unlocks; returns the exit status after saying why
    /// on stderr when it is an error.
    public static func run(_ options: Options, _ launch: Launch) -> ExitStatus {
        do {
            return try Guard(options, launch).loop()
        } catch {
            report(error.message)
            return error.status
        }
    }

    private init(_ options: Options, _ launch: Launch) throws(UserError) {
        self.launch = launch
        signals = SignalWatch()
        if let wayland = getenv("WAYLAND_DISPLAY"), wayland.pointee != 0 {
            throw UserError(
                "cannot lock: this is a Wayland session (WAYLAND_DISPLAY is set), where X11 grabs protect nothing; use the compositor's locker, or --geometry for a window",
                status: .noDisplayOrLock)
        }
        guard access(launch.uiPath, X_OK) == 0 else {
            throw UserError("cannot lock: the slider's drawing program \(launch.uiPath) is missing", status: .internalError)
        }
        let sleepLock = Self.sleepLockDescriptor()
        display = try XDisplay()
        if !OutOfMemoryProtection.set(-1000) {
            report("cannot set oom_score_adj to -1000 (needs root or CAP_SYS_RESOURCE): under memory pressure the kernel may kill the guard, which unlocks")
        }
        // Lock first; the UI (fonts, text, drawing) starts after, and after --fork's fork so
        // that it is the guard's child.
        cover = try LockCover(display: display, background: options.background, slider: Self.sliderGeometry(options))
        gate = Gate(settings: options.gateSettings, layout: Self.localLayout(cover.slider), start: monotonicNow())
        if let sleepLock { close(sleepLock) }
        if launch.fork { try forkOnceLocked() }
        startUI()
        shedStartupPages()
    }

    private static func sliderGeometry(_ options: Options) -> Geometry? {
        if case .lock(let slider) = options.mode { return slider }
        return nil
    }

    /// The slider's layout in its own coordinates, which is what both gates use.
    private static func localLayout(_ slider: Rect) -> SliderLayout {
        SliderLayout(bounds: Rect(x: 0, y: 0, width: slider.width, height: slider.height))
    }

    /// xss-lock's `XSS_SLEEP_LOCK_FD`: held open until the screen is locked, so the system
    /// does not suspend before; never inherited by a child.
    private static func sleepLockDescriptor() -> Int32? {
        guard let text = getenv("XSS_SLEEP_LOCK_FD").map({ String(cString: $0) }), let fd = Int32(text), fd > 2,
            fcntl(fd, F_GETFD) >= 0
        else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// `--fork`: the parent exits 0 once the screen is locked, leaving the child (which
    /// shares the X connection, and so the grabs) to guard it.
    private func forkOnceLocked() throws(UserError) {
        XSync(display.pointer, 0)
        switch fork() {
        case -1: throw UserError("--fork: cannot fork: \(String(cString: strerror(errno)))", status: .internalError)
        case 0: return
        default: _exit(0)
        }
    }

    private func loop() throws(UserError) -> ExitStatus {
        while true {
            while XPending(display.pointer) > 0 {
                var event = XEvent()
                XNextEvent(display.pointer, &event)
                if let status = dispatch(&event) { return finish(status) }
            }
            if let status = flushMotion() { return finish(status) }
            let now = monotonicNow()
            if let status = perform(gate.advance(to: now)) { return finish(status) }
            if let at = uiRestartAt, now >= at { startUI() }
            XFlush(display.pointer)
            let deadlines = [gate.nextActionDeadline, uiRestartAt].compactMap { $0 }
            let ready = try waitReadable(
                [display.fileDescriptor, signals.fileDescriptor], timeout: deadlines.min().map { $0 - monotonicNow() })
            if ready[1], let status = handleSignals() { return finish(status) }
        }
    }

    private func finish(_ status: ExitStatus) -> ExitStatus {
        ui?.stop()
        ui = nil
        return status
    }

    private func dispatch(_ event: inout XEvent) -> ExitStatus? {
        let now = monotonicNow()
        let origin = cover.slider
        switch event.type {
        case MotionNotify:
            pendingMotion = (Double(event.xmotion.x_root) - origin.x, Double(event.xmotion.y_root) - origin.y, now)
            return nil
        case ButtonPress where event.xbutton.button == UInt32(Button1):
            if let status = flushMotion() { return status }
            return input(.press(x: Double(event.xbutton.x_root) - origin.x, y: Double(event.xbutton.y_root) - origin.y), at: now)
        case ButtonRelease where event.xbutton.button == UInt32(Button1):
            if let status = flushMotion() { return status }
            return input(.release, at: now)
        case KeyPress:
            ui?.send(.keyPressed)
        case VisibilityNotify where event.xvisibility.window == cover.cover:
            if event.xvisibility.state != VisibilityUnobscured { cover.raise() }
        case MapNotify where event.xmap.window != cover.cover, ConfigureNotify where event.xconfigure.window != cover.cover
            && event.xconfigure.window != display.root:
            cover.raise()
        case ConfigureNotify where event.xconfigure.window == display.root:
            XRRUpdateConfiguration(&event)
            relayout()
        case FocusOut where event.xfocus.mode == NotifyUngrab, FocusIn where event.xfocus.mode == NotifyUngrab:
            cover.regrab()
        default:
            if event.type == display.randrEventBase + RRScreenChangeNotify {
                XRRUpdateConfiguration(&event)
                relayout()
            }
        }
        return nil
    }

    private func relayout() {
        if cover.layOut() {
            gate.relayout(Self.localLayout(cover.slider))
            ui?.send(.layout(width: Int(cover.slider.width), height: Int(cover.slider.height)))
        }
        cover.raise()
    }

    /// Hands the last motion of a burst to the gate and the UI: one message per burst.
    private func flushMotion() -> ExitStatus? {
        guard let m = pendingMotion else { return nil }
        pendingMotion = nil
        return input(.motion(x: m.x, y: m.y), at: m.at)
    }

    private func input(_ input: GateInput, at now: Double) -> ExitStatus? {
        let action = gate.handle(input, at: now)
        ui?.send(.input(input, at: now))
        return perform(action)
    }

    private func perform(_ action: GateAction?) -> ExitStatus? {
        switch action {
        case .exit(let status):
            return status
        case .runUnlockCommand(let line):
            command = ChildProcess.unlockCommand(line)
            return command == nil ? input(.unlockCommandFinished(succeeded: false), at: monotonicNow()) : nil
        case nil:
            return nil
        }
    }

    private func handleSignals() -> ExitStatus? {
        for signal in signals.pending() {
            guard signal == SIGCHLD else {
                if let status = perform(gate.handle(.signal(signal), at: monotonicNow())) { return status }
                continue
            }
            if let running = command, let code = running.poll() {
                command = nil
                if let status = input(.unlockCommandFinished(succeeded: code == 0), at: monotonicNow()) { return status }
            }
            if let running = ui, let code = running.poll() {
                uiDied(running, code: code)
            }
        }
        return nil
    }

    /// Starts a UI and hands it the slider window, its size and the gate's state.
    private func startUI() {
        uiRestartAt = nil
        do {
            let started = try UIProcess(path: launch.uiPath, arguments: launch.arguments)
            ui = started
            attach(started)
        } catch {
            report("cannot start the slider's drawing program: \(error.description); trying again")
            uiRestartAt = monotonicNow() + restarts.died(after: 0)
        }
    }

    private func attach(_ ui: UIProcess) {
        ui.send(.window(cover.sliderWindow))
        ui.send(.layout(width: Int(cover.slider.width), height: Int(cover.slider.height)))
        ui.send(.state(gate.snapshot))
    }

    /// The UI died: the screen stays covered and grabbed; a new UI starts at once, or after
    /// a back-off (0.1 s doubling to 5 s) while UIs keep dying within 2 s of starting.
    private func uiDied(_ process: UIProcess, code: Int32) {
        ui = nil
        let lived = monotonicNow() - process.started
        report("the slider's drawing program ended (\(code > 128 ? "signal \(code - 128)" : "status \(code)")); starting another")
        uiRestartAt = monotonicNow() + restarts.died(after: lived)
    }
}
