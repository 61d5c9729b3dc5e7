import CX11
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateHost
import SlidegateSystem
import SlidegateXlib

/// Windowed mode (`--geometry`): an ordinary window that is the slider. Its `GateHost`
/// decides, as the guard's does in lock mode; its `SliderPainter` draws, as lock mode's UI
/// does; the window takes the input.
package final class WindowedApp {
    private let options: Options
    private let display: XDisplay
    private let signals: SignalWatch
    private let loop: EventLoop
    private let stage: SliderWindow
    private let blanking: Blanking
    private let host: GateHost
    private let painter: SliderPainter
    private let pinLength: Int
    private let fontMap: FontMap
    /// The keyboard is grabbed while the password field is open, so that no other client
    /// that selected key events on the window reads what is typed (what pinentry and
    /// ssh-askpass do).
    private var keyboardGrabbed = false
    /// A failed grab was said (once a field).
    private var grabFailureSaid = false
    /// Motion paced as the guard paces it: the newest a frame interval goes to the gate, and
    /// while the button is held a pointer faster than `MotionPacer.hintRate` events a second
    /// turns the button's grab to motion hints.
    private var pacer: MotionPacer
    /// `--speak`'s voice, from the first frame on (nil before, or without a speech library).
    private var speech: Speech?
    private var speechStarted = false
    /// Button 1 is down: the server holds the pointer for the window (the button's grab).
    private var buttonHeld = false
    /// The button's grab reports motion hints.
    private var hinting = false

    /// Runs until the gate ends; returns its exit status, after saying why on stderr when it
    /// is an error.
    package static func run(_ options: Options) -> ExitStatus {
        do {
            return try make(options).run()
        } catch {
            report(error.message)
            return error.status
        }
    }

    private static func make(_ options: Options) throws(UserError) -> WindowedApp {
        guard case .windowed(let geometry) = options.mode else {
            throw UserError("internal: windowed mode without --geometry", status: .internalError)
        }
        let signals = try SignalWatch()
        let display = try XDisplay()
        var options = options
        options.fps = display.frameRate(cappedAt: options.fps)
        options.scale = options.scale ?? display.resourceScale()
        try options.checkSize(scale: options.scale ?? 1)
        let loop = try EventLoop(display: display, synthetic: .clientMessagesOnly)
        let pinLength = try options.auth.usesPin ? PinFile.load(options.pinFile ?? "").length : 0
        let auth = try AuthSession.forOptions(options, helperPath: helperBeside("slidegate-auth"))
        let methods = try PassiveMethod.forOptions(options, helperPath: helperBeside("slidegate-auth"))
        var look = Look()
        if let directory = options.theme {
            // Windowed mode has no lock to keep up: a theme that does not check or decode is exit 2.
            let files = try ThemeFiles(directory: directory, scale: options.scale ?? 1)
            do throws(RenderError) {
                look = Look(theme: try Look.images(files, scale: options.scale ?? 1), font: files.config.labelFont)
            } catch {
                throw UserError("--theme: \(error.description)", status: .usage)
            }
            if let color = files.config.foreground, !options.foregroundGiven { options.foreground = color }
            if let color = files.config.background, !options.backgroundGiven { options.background = color }
            if let dim = files.config.labelDim { look.shimmer.dimAlpha = dim }
            look.glyph = files.config.glyph
        }
        let stage = SliderWindow(display: display, geometry: geometry, options: options, pinLength: pinLength)
        let host = GateHost(
            options: options, pinLength: pinLength, layout: layout(stage, pinLength: pinLength, rightToLeft: options.rightToLeft),
            auth: auth, methods: methods, server: display, watcher: loop, start: boottimeNow())
        let fontMap = FontMap()
        let painter = try SliderPainter(display: display, stage: stage, options: options, fontMap: fontMap, look: look, backdrop: nil)
        return try WindowedApp(
            options: options, display: display, signals: signals, loop: loop, stage: stage, host: host, painter: painter,
            pinLength: pinLength, fontMap: fontMap)
    }

    private init(
        options: Options, display: XDisplay, signals: SignalWatch, loop: EventLoop, stage: SliderWindow, host: GateHost,
        painter: SliderPainter, pinLength: Int, fontMap: FontMap
    ) throws(UserError) {
        self.options = options
        self.display = display
        self.signals = signals
        self.loop = loop
        self.stage = stage
        self.host = host
        self.painter = painter
        self.pinLength = pinLength
        self.fontMap = fontMap
        pacer = MotionPacer(fps: options.fps)
        blanking = Blanking(display)
        blanking.follow()
        host.heard = { [painter] _, _ in painter.changed = true }
        host.followed = { [unowned self] in holdKeyboard($0) }
        try makeWheelsPanel()
    }

    /// A program installed beside this one (slidegate-ui and slidegate-auth share a
    /// directory: the build tree, or libexec/slidegate).
    private static func helperBeside(_ name: String) -> String {
        programDirectory() + "/" + name
    }

    /// The gate's layout: the slider, and the wheels' row (the window's upper part) if there is one.
    private static func layout(_ stage: SliderWindow, pinLength: Int, rightToLeft: Bool) -> SliderLayout {
        SliderLayout(bounds: stage.slider, wheelRow: stage.wheelArea.map { WheelRow(area: $0, count: pinLength) }, rightToLeft: rightToLeft)
    }

    private func run() throws(UserError) -> ExitStatus {
        loop.watch(signals.fileDescriptor, name: "the signal watch") { [unowned self] () throws(UserError) in handleSignals() }
        let status = try loop.run(
            event: { [unowned self] (event: inout XEvent) throws(UserError) in try dispatch(&event) },
            pass: { [unowned self] () throws(UserError) in try pass() })
        // The motion that ended the slide may not be painted yet (it waited for its frame
        // interval when the release came): the reveal opens from the thumb at the end.
        if status == .completed { _ = try paint(at: boottimeNow()) }
        speech?.finish(within: 0.2)
        if status == .completed,
            options.reduceMotion || !RevealAnimation.play(
                options.reveal, on: stage.window, width: stage.size.width, height: stage.size.height, fps: options.fps,
                display: display)
        {
            XUnmapWindow(display.pointer, stage.window)
            XSync(display.pointer, 0)
        }
        host.finish()
        if let summary = host.failures.summary { report(summary) }
        return status
    }

    private func pass() throws(UserError) -> EventLoop.Turn {
        let now = boottimeNow()
        if pacer.isDue(at: now), let status = flushMotion() { return .exit(status) }
        let motionDue = pacer.pending != nil ? pacer.due : nil
        pacer.rest(at: now)
        reportHints()
        if let status = host.advance(to: now) { return .exit(status) }
        let gate = host.gate
        let deadline = try paint(at: now)
        painter.shed(at: now, deadline: deadline)
        if options.speak && painter.shown != nil {
            if !speechStarted {
                speechStarted = true
                speech = Speech(strings: gate.settings.strings, locks: false)
            }
            speech?.follow(SpokenView(gate: gate, at: now, focused: nil, strings: gate.settings.strings))
        }
        // The thumb or a wheel held: until the next frame may be painted the X socket rests,
        // and the motion events of the frame interval are read together then (a wake-up a
        // frame, not one an event).
        let held = gate.isDragging || gate.wheels?.held != nil
        let resting = held && !blanking.isBlank && now < painter.nextPaint
        var wake = Earliest()
        wake.consider(deadline)
        wake.consider(motionDue)
        // With --speak the seconds left are said every ten.
        if speech != nil, let end = gate.deadline, end > now { wake.consider(end - 10 * ((end - now) / 10).rounded(.up) + 10) }
        return .wait(until: wake.time, readingXAfter: resting ? painter.nextPaint : nil)
    }

    /// Paints what changed; returns when the next frame is due.
    private func paint(at now: Double) throws(UserError) -> Double? {
        try painter.frame(
            host.gate, at: now, echo: host.echo, blanking: blanking, clock: nil, limit: host.auth?.answerDeadline, idle: host.deadline,
            also: { _ in })
    }

    /// Hands the newest motion to the gate (`MotionPacer.next`): at most one a frame interval.
    private func flushMotion(buttonAt button: (x: Double, y: Double)? = nil) -> ExitStatus? {
        let motion = pacer.next(button: button, at: boottimeNow(), display: display) { display.pointerPosition(in: stage.window) }
        reportHints()
        guard let motion else { return nil }
        painter.changed = true
        return host.handle(.motion(x: motion.x, y: motion.y), at: motion.time)
    }

    /// Tells the server whether the button's grab reports every motion or hints, as the
    /// pacer says; with the button up there is no grab, and every motion is reported.
    private func reportHints() {
        let wanted = pacer.hints && buttonHeld
        guard wanted != hinting else { return }
        hinting = wanted
        let events = ButtonPressMask | ButtonReleaseMask | PointerMotionMask | (wanted ? PointerMotionHintMask : 0)
        XChangeActivePointerGrab(display.pointer, UInt32(events), 0, UInt(CurrentTime))
    }

    private func handleSignals() -> ExitStatus? {
        for signal in signals.pending() {
            if let status = host.signaled(signal) { return status }
        }
        return nil
    }

    private func dispatch(_ event: inout XEvent) throws(UserError) -> ExitStatus? {
        let now = boottimeNow()
        if blanking.handle(&event) {
            painter.forget()
            return nil
        }
        if [ButtonPress, ButtonRelease].contains(event.type) { painter.changed = true }
        if let pointer = PointerInput(&event, origin: (0, 0), root: false) {
            return handle(pointer, at: now)
        }
        switch event.type {
        case KeyPress:
            return host.keyPressed(KeyPress(&event), at: now)
        case KeyRelease:
            return host.keyReleased(at: now)
        case Expose where event.xexpose.window == stage.window && event.xexpose.count == 0:
            painter.exposed()
            return nil
        default:
            switch stage.handle(&event) {
            case .relayout:
                try relayout()
                return nil
            case .closeRequested:
                return host.handle(.closeRequested, at: now)
            case nil:
                return nil
            }
        }
    }

    /// The pointer's input, in the window's coordinates (the slider fills the window):
    /// presses, releases and the wheel go to the gate now, motion at the next frame interval.
    private func handle(_ pointer: PointerInput, at now: Double) -> ExitStatus? {
        switch pointer {
        case .press(let x, let y):
            blanking.inputArrived()
            if let status = flushMotion(buttonAt: (x, y)) { return status }
            buttonHeld = true
            return host.handle(.press(x: x, y: y), at: now)
        case .release(let x, let y):
            if let status = flushMotion(buttonAt: (x, y)) { return status }
            buttonHeld = false
            pacer.released()
            hinting = false
            return host.handle(.release, at: now)
        case .motion(_, _, let hinted) where hinted || hinting:
            // Where it went is asked at the next frame interval.
            blanking.inputArrived()
            pacer.hinted()
        case .motion(let x, let y, _):
            // The newest goes to the gate at the next frame interval.
            blanking.inputArrived()
            pacer.moved(x: x, y: y, at: now)
        case .scroll(let x, let y, let down):
            return host.handle(.scroll(x: x, y: y, down: down), at: now)
        }
        return nil
    }

    /// The window changed size: the gate and the painter lay out anew.
    private func relayout() throws(UserError) {
        host.relayout(Self.layout(stage, pinLength: pinLength, rightToLeft: options.rightToLeft), at: boottimeNow())
        try painter.relayout(backdrop: nil)
        try makeWheelsPanel()
    }

    /// With `--auth pin`: the wheels in the window's upper part.
    private func makeWheelsPanel() throws(UserError) {
        guard pinLength > 0, let area = stage.wheelArea else { return }
        painter.wheelsPanel = try WheelsPanel(
            display: display, window: stage.window, size: (area.width, stage.slider.y - area.y), rowHeight: area.height,
            origin: (Int32(area.x), Int32(area.y)), count: pinLength, visual: stage.visual, depth: stage.depth, options: options,
            fontMap: fontMap)
    }

    /// Grabs the keyboard for the window while the password field is open, and lets it go
    /// when the field closes. A grab another client holds is said on stderr and as a
    /// banner: what is typed then can be read by other clients.
    private func holdKeyboard(_ open: Bool) {
        let dpy = display.pointer
        if !open {
            grabFailureSaid = false
            guard keyboardGrabbed else { return }
            XUngrabKeyboard(dpy, UInt(CurrentTime))
            XFlush(dpy)
            keyboardGrabbed = false
            return
        }
        guard !keyboardGrabbed else { return }
        let result = XGrabKeyboard(dpy, stage.window, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
        keyboardGrabbed = result == GrabSuccess
        if !keyboardGrabbed && !grabFailureSaid {
            grabFailureSaid = true
            let warning = "the keyboard could not be grabbed: other programs may read what is typed"
            report("windowed mode: \(warning) (XGrabKeyboard: \(result))")
            _ = host.handle(.authMessage(.warning, warning), at: boottimeNow())
        }
    }
}
