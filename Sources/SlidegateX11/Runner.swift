import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateRender

/// Runs the gate on the X server: one thread, one `ppoll` on the X connection and the
/// signal descriptor, woken only for input, signals and the gate's next deadline.
public final class Runner {
    private let options: Options
    private let display: XDisplay
    private let signals: SignalWatch
    private let stage: any Stage
    private let fontMap = FontMap()
    private var gate: Gate
    private var surface: SliderSurface
    private var renderer: Renderer
    private var shown: Scene?
    private var command: UnlockCommand?

    /// Runs until the gate ends; returns its exit status, after saying why on stderr when
    /// it is an error.
    public static func run(_ options: Options) -> ExitStatus {
        do {
            return try Runner(options).loop()
        } catch {
            report(error.message)
            return error.status
        }
    }

    private init(_ options: Options) throws(UserError) {
        self.options = options
        signals = SignalWatch()
        if case .lock = options.mode, let wayland = getenv("WAYLAND_DISPLAY"), wayland.pointee != 0 {
            throw UserError(
                "cannot lock: this is a Wayland session (WAYLAND_DISPLAY is set), where X11 grabs protect nothing; use the compositor's locker, or --geometry for a window",
                status: .noDisplayOrLock)
        }
        display = try XDisplay()
        switch options.mode {
        case .windowed(let geometry):
            stage = SliderWindow(display: display, geometry: geometry, options: options)
        case .lock(let slider):
            stage = try LockCover(display: display, options: options, slider: slider)
        }
        let now = monotonicNow()
        gate = Gate(settings: options.gateSettings, layout: SliderLayout(bounds: stage.slider), start: now)
        (surface, renderer) = try Self.makeBuffer(display, stage, options, fontMap)
    }

    private static func makeBuffer(_ display: XDisplay, _ stage: any Stage, _ options: Options, _ fontMap: FontMap)
        throws(UserError) -> (SliderSurface, Renderer)
    {
        let size = stage.slider
        let surface = try SliderSurface(
            display: display, drawable: stage.window, visual: stage.visual, depth: stage.depth, width: Int(size.width),
            height: Int(size.height))
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: size.width, height: size.height))
        let renderer = Renderer(layout: layout, background: options.background, foreground: options.foreground, fontMap: fontMap)
        return (surface, renderer)
    }

    private func loop() throws(UserError) -> ExitStatus {
        let xfd = display.fileDescriptor
        while true {
            while XPending(display.pointer) > 0 {
                var event = XEvent()
                XNextEvent(display.pointer, &event)
                if let status = try dispatch(&event) { return status }
            }
            let now = monotonicNow()
            if let status = perform(gate.advance(to: now)) { return status }
            try paint(at: now)
            XFlush(display.pointer)
            let timeout = gate.nextDeadline(after: now).map { max(0, $0 - monotonicNow()) } ?? -1
            var xReady: Int32 = 0
            var signalReady: Int32 = 0
            if sg_wait_readable(xfd, signals.fileDescriptor, timeout, &xReady, &signalReady) < 0, errno != EINTR {
                throw UserError("waiting for events failed: \(String(cString: strerror(errno)))", status: .internalError)
            }
            if signalReady != 0, let status = handleSignals() { return status }
        }
    }

    private func handleSignals() -> ExitStatus? {
        for signal in signals.pending() {
            if signal == SIGCHLD {
                guard let running = command, let succeeded = running.poll() else { continue }
                command = nil
                if let status = perform(gate.handle(.unlockCommandFinished(succeeded: succeeded), at: monotonicNow())) {
                    return status
                }
            } else if let status = perform(gate.handle(.signal(signal), at: monotonicNow())) {
                return status
            }
        }
        return nil
    }

    private func dispatch(_ event: inout XEvent) throws(UserError) -> ExitStatus? {
        let now = monotonicNow()
        switch event.type {
        case ButtonPress where event.xbutton.button == UInt32(Button1):
            return perform(gate.handle(.press(x: Double(event.xbutton.x), y: Double(event.xbutton.y)), at: now))
        case ButtonRelease where event.xbutton.button == UInt32(Button1):
            return perform(gate.handle(.release, at: now))
        case MotionNotify:
            return perform(gate.handle(.motion(x: Double(event.xmotion.x), y: Double(event.xmotion.y)), at: now))
        case Expose where event.xexpose.window == stage.window && event.xexpose.count == 0:
            surface.present(on: stage.window, x: stage.sliderOrigin.x, y: stage.sliderOrigin.y)
            return nil
        default:
            switch stage.handle(&event) {
            case .relayout:
                gate.relayout(SliderLayout(bounds: stage.slider))
                (surface, renderer) = try Self.makeBuffer(display, stage, options, fontMap)
                shown = nil
                return nil
            case .closeRequested:
                return perform(gate.handle(.closeRequested, at: now))
            case nil:
                return nil
            }
        }
    }

    /// Carries out what the gate asked for; returns the exit status when it is to end.
    private func perform(_ action: GateAction?) -> ExitStatus? {
        switch action {
        case .exit(let status):
            return status
        case .runUnlockCommand(let line):
            command = UnlockCommand(line)
            if command == nil {
                return perform(gate.handle(.unlockCommandFinished(succeeded: false), at: monotonicNow()))
            }
            return nil
        case nil:
            return nil
        }
    }

    /// Repaints the back buffer and copies it to the window when the scene changed.
    private func paint(at now: Double) throws(UserError) {
        let scene = gate.scene(at: now)
        guard scene != shown else { return }
        try surface.paint(scene, with: renderer)
        surface.present(on: stage.window, x: stage.sliderOrigin.x, y: stage.sliderOrigin.y)
        shown = scene
    }
}
