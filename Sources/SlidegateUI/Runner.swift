import CX11
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateXlib

/// Draws the gate and animates it: one thread, one `ppoll` on the X connection, the signal
/// descriptor and (in lock mode) the guard's pipe, woken only for input, signals and the
/// next frame's deadline; no wake-ups at all while nothing moves or the screen is blank.
///
/// In windowed mode it is the whole program: its gate decides and it runs the unlock
/// command. In lock mode it only mirrors the guard's gate to draw it; the guard decides.
public final class Runner {
    private let options: Options
    private let display: XDisplay
    private let signals: SignalWatch
    private let stage: any Stage
    private let blanking: Blanking
    private let fontMap: FontMap
    private let guardPipe: GuardPipe?
    private var gate: Gate
    private var surface: SliderSurface
    private var renderer: Renderer
    private var shown: Scene?
    private var command: ChildProcess?
    private var shedAfterFirstFrame = true

    /// Windowed mode: runs until the gate ends; returns its exit status, after saying why
    /// on stderr when it is an error.
    public static func runWindowed(_ options: Options) -> ExitStatus {
        run { () throws(UserError) in
            guard case .windowed(let geometry) = options.mode else {
                throw UserError("internal: windowed mode without --geometry", status: .internalError)
            }
            let signals = SignalWatch()
            let display = try XDisplay()
            let stage = SliderWindow(display: display, geometry: geometry, options: options)
            return try Runner(options, display, signals, FontMap(), stage, nil).loop()
        }
    }

    /// Lock mode's UI: waits for the guard to name the slider window (on descriptor 3, once
    /// the screen is locked), then draws into it, following the guard's messages, until the
    /// guard closes the pipe.
    public static func runLockUI(_ options: Options) -> ExitStatus {
        OutOfMemoryProtection.set(300)
        return run { () throws(UserError) in
            let signals = SignalWatch()
            let display = try XDisplay()
            let fontMap = FontMap()
            let pipe = GuardPipe(descriptor: 3)
            while true {
                let ready = try waitReadable([pipe.descriptor, signals.fileDescriptor], timeout: nil)
                if ready[1], let signal = signals.pending().first(where: { $0 != SIGCHLD }) { return .signal(signal) }
                guard ready[0] else { continue }
                guard let messages = pipe.read() else { return .completed }
                guard let index = messages.firstIndex(where: { if case .window = $0 { true } else { false } }),
                    case .window(let id) = messages[index]
                else { continue }
                let stage = try GuardedWindow(display: display, window: id)
                let runner = try Runner(options, display, signals, fontMap, stage, pipe)
                try runner.apply(Array(messages[(index + 1)...]))
                return try runner.loop()
            }
        }
    }

    private static func run(_ body: () throws(UserError) -> ExitStatus) -> ExitStatus {
        do {
            return try body()
        } catch {
            report(error.message)
            return error.status
        }
    }

    private init(
        _ options: Options, _ display: XDisplay, _ signals: SignalWatch, _ fontMap: FontMap, _ stage: any Stage,
        _ guardPipe: GuardPipe?
    ) throws(UserError) {
        self.options = options
        self.display = display
        self.signals = signals
        self.fontMap = fontMap
        self.stage = stage
        self.guardPipe = guardPipe
        blanking = Blanking(display)
        gate = Gate(settings: options.gateSettings, layout: SliderLayout(bounds: stage.slider), start: monotonicNow())
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
        let descriptors = [display.fileDescriptor, signals.fileDescriptor] + (guardPipe.map { [$0.descriptor] } ?? [])
        while true {
            while XPending(display.pointer) > 0 {
                var event = XEvent()
                XNextEvent(display.pointer, &event)
                if let status = try dispatch(&event) { return status }
            }
            let now = monotonicNow()
            if let status = perform(gate.advance(to: now)) { return status }
            var deadline: Double?
            if !blanking.isBlank {
                try paint(at: now)
                deadline = gate.nextDeadline(after: now)
                if let d = deadline, d - now > 0.5, shown?.label != nil {
                    blanking.checkMonitors()
                    if blanking.isBlank { deadline = gate.nextActionDeadline }
                }
            } else {
                deadline = gate.nextActionDeadline
            }
            XFlush(display.pointer)
            if shedAfterFirstFrame && shown != nil {
                shedAfterFirstFrame = false
                shedStartupPages()
            }
            let ready = try waitReadable(descriptors, timeout: deadline.map { $0 - monotonicNow() })
            if ready[1], let status = handleSignals() { return status }
            if ready.count > 2, ready[2], let status = try readGuard() { return status }
        }
    }

    private func handleSignals() -> ExitStatus? {
        for signal in signals.pending() {
            if signal == SIGCHLD {
                guard let running = command, let code = running.poll() else { continue }
                command = nil
                if let status = perform(gate.handle(.unlockCommandFinished(succeeded: code == 0), at: monotonicNow())) {
                    return status
                }
            } else if let status = perform(gate.handle(.signal(signal), at: monotonicNow())) {
                return status
            }
        }
        return nil
    }

    /// Lock mode: applies the guard's messages. The guard closing the pipe ends the UI.
    private func readGuard() throws(UserError) -> ExitStatus? {
        guard let guardPipe, let messages = guardPipe.read() else { return .completed }
        try apply(messages)
        return nil
    }

    private func apply(_ messages: [GuardMessage]) throws(UserError) {
        for message in messages {
            blanking.inputArrived()
            switch message {
            case .window, .keyPressed:
                continue
            case .layout(let width, let height):
                guard let window = stage as? GuardedWindow else { continue }
                window.resize(width: width, height: height)
                try relayout()
            case .state(let snapshot):
                gate = Gate(settings: options.gateSettings, layout: gate.layout, start: monotonicNow(), snapshot: snapshot)
            case .input(let input, let time):
                _ = gate.handle(input, at: time)
            }
        }
    }

    private func relayout() throws(UserError) {
        gate.relayout(SliderLayout(bounds: stage.slider))
        (surface, renderer) = try Self.makeBuffer(display, stage, options, fontMap)
        shown = nil
    }

    private func dispatch(_ event: inout XEvent) throws(UserError) -> ExitStatus? {
        let now = monotonicNow()
        if blanking.handle(&event) {
            shown = nil
            return nil
        }
        switch event.type {
        case ButtonPress where event.xbutton.button == UInt32(Button1):
            blanking.inputArrived()
            return perform(gate.handle(.press(x: Double(event.xbutton.x), y: Double(event.xbutton.y)), at: now))
        case ButtonRelease where event.xbutton.button == UInt32(Button1):
            return perform(gate.handle(.release, at: now))
        case MotionNotify:
            blanking.inputArrived()
            return perform(gate.handle(.motion(x: Double(event.xmotion.x), y: Double(event.xmotion.y)), at: now))
        case Expose where event.xexpose.window == stage.window && event.xexpose.count == 0:
            surface.present(on: stage.window)
            return nil
        default:
            switch stage.handle(&event) {
            case .relayout:
                try relayout()
                return nil
            case .closeRequested:
                return perform(gate.handle(.closeRequested, at: now))
            case nil:
                return nil
            }
        }
    }

    /// Carries out what the gate asked for, in windowed mode; in lock mode the guard does.
    private func perform(_ action: GateAction?) -> ExitStatus? {
        if guardPipe != nil {
            if case .exit(.signal(let n)) = action { return .signal(n) }
            return nil
        }
        switch action {
        case .exit(let status):
            return status
        case .runUnlockCommand(let line):
            command = ChildProcess.unlockCommand(line)
            return command == nil ? perform(gate.handle(.unlockCommandFinished(succeeded: false), at: monotonicNow())) : nil
        case nil:
            return nil
        }
    }

    /// Repaints what changed in the back buffer and sends that part to the window.
    private func paint(at now: Double) throws(UserError) {
        let scene = gate.scene(at: now)
        guard scene != shown else { return }
        if let dirty = try surface.paint(scene, after: shown, with: renderer) {
            surface.present(on: stage.window, rect: dirty)
        }
        shown = scene
    }
}

/// The read end of the guard's pipe: whole lines, parsed.
final class GuardPipe {
    let descriptor: Int32
    private var pending: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
    }

    /// The messages that have arrived, or nil once the guard has closed the pipe.
    func read() -> [GuardMessage]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = Glibc.read(descriptor, &buffer, buffer.count)
            if n == 0 { return nil }
            if n < 0 { break }
            pending += buffer[..<n]
        }
        guard let end = pending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let lines = pending[..<end].split(separator: UInt8(ascii: "\n"))
        pending.removeSubrange(...end)
        return lines.compactMap { GuardMessage(line: String(decoding: $0, as: UTF8.self)) }
    }
}
