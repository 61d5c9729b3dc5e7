import CGraphics
import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateRender
import SlidegateXlib

/// Draws the gate and animates it, on the shared `EventLoop`: woken only for input,
/// signals, the guard's messages and the next frame's deadline; no wake-ups at all while
/// nothing moves or the screen is blank.
///
/// In windowed mode it is the whole program: its `GateHost` decides, as the guard's does in
/// lock mode. In lock mode it only mirrors the guard's gate to draw it; the guard decides.
package final class Runner {
    private let options: Options
    private let display: XDisplay
    private let signals: SignalWatch
    private let loop: EventLoop
    private let stage: any Stage
    private let blanking: Blanking
    private let fontMap: FontMap
    private let guardLink: GuardLink?
    private let gateSettings: Gate.Settings
    /// `--theme`'s images and label font, decoded once for every relayout's renderer.
    private let look: Look
    /// Windowed mode: the decider. Lock mode: nil, and `mirror` follows the guard's messages.
    private let host: GateHost?
    private var mirror: Gate
    private var gate: Gate { host?.gate ?? mirror }
    private var surface: WindowSurface
    private var renderer: Renderer
    /// The shimmer's sweeps handed to the X server ahead: made at the first sweep after a
    /// relayout, not at start-up (nil before, and without Present).
    private var sweep: PresentedSweep?
    private var shown: Scene?
    /// Something other than time changed the scene (input, a new state or layout): paint
    /// in this pass even if no frame is due. A wake-up that changed nothing (a ping) paints
    /// nothing, so frames keep their even pace.
    private var changed = true
    /// When the next animation frame is due.
    private var frameDue: Double?
    /// When input may next repaint: one frame interval after the last such time, or after
    /// a quarter interval less than that if frames were not coming (so at most `--fps`
    /// frames a second, however fast the pointer). The guard sends motion once a frame; the
    /// quarter lets its message paint when it comes, though delivery jitters a little.
    private var nextPaint = -Double.infinity
    /// The guard's messages of one read, kept between reads so a message allocates nothing.
    private var inbox: [GuardMessage] = []
    /// Whether start-up's pages are still to be given back: right after the first frame, and
    /// again at the first long wait after it (the shimmer's first pause), when the
    /// animation's own code has run once and what only its first frames touched can go.
    private var shedAfterFirstFrame = true
    private var shedAtFirstRest = true
    /// And once more after the shimmer's frames were first made and handed over: what making
    /// them touched is not needed again while they stay the same.
    private var shedAfterSweepMade = true
    /// Lock mode: what was typed, for a prompt whose answer may be shown (the guard says).
    private var echoText: String?
    /// Windowed mode: the keyboard is grabbed while the password field is open, so that no
    /// other client that selected key events on the window reads what is typed (what
    /// pinentry and ssh-askpass do).
    private var keyboardGrabbed = false
    /// A failed grab was said (once a field).
    private var grabFailureSaid = false
    /// Lock mode: the guard's windows for banners and for `--message`, their ids, and the
    /// banner as last painted.
    private var noticeIDs: (banner: Window, message: Window) = (0, 0)
    private var bannerWindow: NoticeWindow?
    private var messageWindow: NoticeWindow?
    private var shownBanner: Scene.BannerView??
    /// The PIN wheels' row in the gate's coordinates (lock mode: relative to the slider, as
    /// the guard's `layout` says; windowed mode: the window's upper part), and where they
    /// are drawn. Lock mode: the guard's wheels window.
    private var wheelArea: Rect?
    private var wheelsID: Window = 0
    /// Lock mode: the guard's clock window, and the clock drawn in it.
    private var clockID: Window = 0
    private var clockPanel: ClockPanel?
    private var wheelsPanel: WheelsPanel?
    /// Lock mode: `--image` on the cover, and under each window.
    private let wallpaper: Wallpaper?
    /// Lock mode: where the slider's first frame is kept for the next lock, the checksum of
    /// what the guard showed from there, and the scene that frame is, until the frame has
    /// been kept (or found kept).
    private var firstFrame: (file: FirstFrameFile, shown: UInt64, scene: Scene)?
    /// Lock mode: the guard has yet to hear that a frame is on screen (or would be, but the
    /// screen is blank).
    private var drawnUntold: Bool
    /// Lock mode: the guard asked for the slider's parts to draw a drag itself (`lend`), and
    /// the parts it has, while it draws the slider and the UI paints nothing there.
    private var lendAsked = false
    private var lentParts: LentParts?

    /// Windowed mode: runs until the gate ends; returns its exit status, after saying why
    /// on stderr when it is an error.
    package static func runWindowed(_ options: Options) -> ExitStatus {
        run { () throws(UserError) in
            guard case .windowed(let geometry) = options.mode else {
                throw UserError("internal: windowed mode without --geometry", status: .internalError)
            }
            let signals = try SignalWatch()
            let display = try XDisplay()
            var options = options
            options.fps = display.frameRate(cappedAt: options.fps)
            options.scale = options.scale ?? display.resourceScale()
            try options.checkSize(scale: options.scale ?? 1)
            let loop = EventLoop(display: display, synthetic: .clientMessagesOnly)
            let pinLength = try options.auth.usesPin ? PinFile.load(options.pinFile ?? "").length : 0
            let auth = try AuthSession.forOptions(options, helperPath: helperBeside("slidegate-auth"))
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
            }
            let stage = SliderWindow(display: display, geometry: geometry, options: options, pinLength: pinLength)
            let host = GateHost(
                options: options, pinLength: pinLength,
                layout: SliderLayout(
                    bounds: stage.slider, wheelRow: stage.wheelArea.map { WheelRow(area: $0, count: pinLength) },
                    rightToLeft: options.rightToLeft),
                auth: auth, display: display, loop: loop, start: monotonicNow())
            let runner = try Runner(options, display, signals, loop, FontMap(), stage, nil, look: look, pinLength: pinLength, host: host)
            runner.wheelArea = stage.wheelArea
            try runner.relayout()
            return try runner.run()
        }
    }

    /// Lock mode's UI: the guard's handshake on descriptor 3 — hello, the settings, the
    /// slider window — then draws into that window, following the guard's messages, until
    /// the guard closes its end.
    package static func runLockUI() -> ExitStatus {
        StartupTrace.mark("ui:running")
        OutOfMemoryProtection.set(300)
        return run { () throws(UserError) in
            let signals = try SignalWatch()
            let link = try GuardLink(descriptor: 3)
            link.send(.hello(protocol: GuardProtocol.version, build: Options.version))
            let display = try XDisplay()
            StartupTrace.mark("ui:connected")
            let fontMap = FontMap()
            StartupTrace.mark("ui:fonts-loaded")
            var options = Options()
            options.idleLimit = testIdleLimit() ?? options.idleLimit
            var received: [GuardMessage] = []
            var window: UInt64?
            var notices: (banner: Window, message: Window) = (0, 0)
            var wheels: Window = 0
            var clock: Window = 0
            var cover: Window = 0
            var pinLength = 0
            var deadline: Double?
            while window == nil {
                var polled = [
                    pollfd(fd: link.descriptor, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
                ]
                guard poll(&polled, 2, -1) >= 0 || errno == EINTR else {
                    throw SystemError("poll").userError(.internalError, "--lock-ui: waiting for the guard")
                }
                if polled[1].revents != 0, let signal = signals.pending().first(where: { $0 != SIGCHLD }) { return .signal(signal) }
                guard polled[0].revents != 0 else { continue }
                var messages: [GuardMessage] = []
                guard try link.receive(into: &messages) else { return .completed }
                for message in messages {
                    switch message {
                    case .settings(let settings):
                        options.text = settings.text
                        options.background = settings.background
                        options.foreground = settings.foreground
                        options.fps = settings.fps
                        options.unlockCommand = settings.unlockCommand
                        options.auth = settings.auth
                        options.message = settings.message
                        options.countdown = settings.countdown
                        options.reduceMotion = settings.reduceMotion
                        options.direction = settings.rightToLeft ? .rtl : .ltr
                        options.clockFormat = settings.clockFormat
                        options.strings = settings.strings
                        options.theme = settings.theme
                        options.scale = settings.scale
                        options.dateFormat = settings.dateFormat
                        options.image = settings.image
                        options.imageMode = settings.imageMode
                        pinLength = settings.pinLength
                        deadline = settings.deadline
                    case .windows(let coverWindow, let slider, let banner, let message, let wheelWindow, let clockWindow) where window == nil:
                        cover = Window(coverWindow)
                        window = slider
                        notices = (Window(banner), Window(message))
                        wheels = Window(wheelWindow)
                        clock = Window(clockWindow)
                    default: if window != nil { received.append(message) }
                    }
                }
            }
            StartupTrace.mark("ui:has-windows")
            let loop = EventLoop(display: display, synthetic: .ignored)
            let stage = try GuardedWindow(display: display, window: Window(window!))
            // The picture before the slider: they appear together.
            let wallpaper = try options.image.map { (path) throws(UserError) in
                try Wallpaper(display: display, cover: cover, path: path, mode: options.imageMode, background: options.background)
            }
            _ = wallpaper?.refresh()
            let runner = try Runner(
                options, display, signals, loop, fontMap, stage, link, look: Look(lockUI: options), pinLength: pinLength, deadline: deadline,
                wallpaper: wallpaper)
            runner.noticeIDs = notices
            runner.wheelsID = wheels
            runner.clockID = clock
            try runner.makeNoticeWindows()
            try runner.apply(received)
            return try runner.run()
        }
    }

    /// A program installed beside this one (slidegate-ui and slidegate-auth share a
    /// directory: the build tree, or libexec/slidegate).
    private static func helperBeside(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        return exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/" + name
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
        _ options: Options, _ display: XDisplay, _ signals: SignalWatch, _ loop: EventLoop, _ fontMap: FontMap,
        _ stage: any Stage, _ guardLink: GuardLink?, look: Look, pinLength: Int = 0, deadline: Double? = nil,
        host: GateHost? = nil, wallpaper: Wallpaper? = nil
    ) throws(UserError) {
        self.host = host
        self.wallpaper = wallpaper
        self.look = look
        var settings = options.gateSettings
        settings.pinLength = pinLength
        settings.deadline = deadline
        gateSettings = settings
        self.options = options
        self.display = display
        self.signals = signals
        self.loop = loop
        self.fontMap = fontMap
        self.stage = stage
        self.guardLink = guardLink
        drawnUntold = guardLink != nil
        blanking = Blanking(display)
        mirror = Gate(settings: settings, layout: SliderLayout(bounds: stage.slider, rightToLeft: settings.rightToLeft), start: monotonicNow())
        (surface, renderer) = try Self.makeBuffer(display, stage, options, fontMap, look, wallpaper?.backdrop(under: stage.window))
        host?.heard = { [unowned self] _, _ in changed = true }
        host?.followed = { [unowned self] in holdKeyboard($0) }
    }

    private static func makeBuffer(
        _ display: XDisplay, _ stage: any Stage, _ options: Options, _ fontMap: FontMap, _ look: Look, _ backdrop: Backdrop?
    ) throws(UserError) -> (WindowSurface, Renderer) {
        let size = stage.slider
        let surface = try WindowSurface(
            display: display, drawable: stage.window, visual: stage.visual, depth: stage.depth, width: Int(size.width),
            height: Int(size.height))
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: size.width, height: size.height), rightToLeft: options.rightToLeft)
        let renderer = Renderer(
            layout: layout, background: options.background, foreground: options.foreground, fontMap: fontMap,
            family: look.font ?? "Sans", theme: look.theme, backdrop: backdrop)
        return (surface, renderer)
    }

    private func run() throws(UserError) -> ExitStatus {
        loop.watch(signals.fileDescriptor, name: "the signal watch") { [unowned self] () throws(UserError) in handleSignals() }
        if let guardLink {
            loop.watch(guardLink.descriptor, name: "the guard's socket", peer: true) { [unowned self] () throws(UserError) in
                try readGuard()
            }
        }
        let status = try loop.run(
            event: { [unowned self] (event: inout XEvent) throws(UserError) in try dispatch(&event) },
            pass: { [unowned self] () throws(UserError) in try pass() })
        if status == .completed, guardLink == nil,
            options.reduceMotion || !RevealAnimation.play(
                options.reveal, on: stage.window, width: stage.size.width, height: stage.size.height, fps: options.fps,
                display: display)
        {
            XUnmapWindow(display.pointer, stage.window)
            XSync(display.pointer, 0)
        }
        host?.finish()
        if let summary = host?.summary { report(summary) }
        return status
    }

    /// The gate's layout: the slider, and the wheels' row if there is one.
    private var layout: SliderLayout {
        SliderLayout(
            bounds: stage.slider, wheelRow: wheelArea.map { WheelRow(area: $0, count: gateSettings.pinLength) },
            rightToLeft: gateSettings.rightToLeft)
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
            _ = host?.handle(.authMessage(.warning, warning), at: monotonicNow())
        }
    }

    private func pass() throws(UserError) -> EventLoop.Turn {
        let now = monotonicNow()
        if let status = advance(to: now) { return .exit(status) }
        var deadline: Double?
        if !blanking.isBlank {
            let frame = 1 / Double(options.fps)
            // A pointer at 1000 Hz must not mean 1000 frames a second: a change waits for the
            // frame interval since the last paint, and then the newest state is painted.
            let inputWaits = changed && now < nextPaint
            sweep?.finished(at: now)
            // Input or a change ends a sweep handed over early; a wake-up for nothing else
            // (a ping) leaves it running.
            if changed { sweep?.cancel(surface: surface) }
            var queuedUntil = sweep?.showsUntil
            if queuedUntil == nil && ((changed && !inputWaits) || frameDue.map({ now >= $0 }) ?? true) {
                if sweep == nil, gate.shimmerSweep(at: now) != nil {
                    sweep = PresentedSweep(display: display, window: stage.window, depth: stage.depth, origin: sliderOrigin)
                }
                if let until = try sweep?.queue(gate, at: now, fps: options.fps, shown: shown, surface: surface, renderer: renderer) {
                    queuedUntil = until
                } else {
                    try paint(at: now)
                }
                nextPaint = max(nextPaint, now - frame / 4) + frame
                changed = inputWaits
            }
            deadline = gate.nextDeadline(after: queuedUntil ?? now)
            if let queuedUntil, let other = gate.nextChangeBesidesTheSlider(after: now), other < queuedUntil {
                deadline = other
            }
            frameDue = deadline
            // PAM's time limit for an answer, when that comes first.
            if let limit = host?.auth?.answerDeadline, limit < deadline ?? .infinity { deadline = limit }
            if changed { deadline = min(deadline ?? .infinity, nextPaint) }
            // The clock after the slider: the first frame does not wait for it.
            if let clock = clockPanel, clock.due { try clock.paint() }
            // Before a long wait (or the clock's next minute), ask whether DPMS turned the
            // monitors off: then nothing is drawn and nothing wakes until they are back.
            if deadline.map({ $0 - now > 0.5 }) ?? (clockPanel != nil), shown?.label != nil {
                blanking.checkMonitors()
                if blanking.isBlank {
                    deadline = decisionDeadline
                    clockPanel?.sleep()
                }
            }
        } else {
            deadline = decisionDeadline
            clockPanel?.sleep()
        }
        if lendAsked { lend(at: now) }
        // A blank screen is drawn when it comes back; the guard need not step in.
        if drawnUntold, shown != nil || blanking.isBlank, let guardLink {
            XSync(display.pointer, 0)
            guardLink.send(.drawn)
            StartupTrace.mark("ui:first-frame")
            drawnUntold = false
        }
        if firstFrame != nil { keepFirstFrame() }
        if shedAfterFirstFrame && shown != nil {
            shedAfterFirstFrame = false
            shedStartupPages()
        } else if shedAfterSweepMade && sweep?.isMade == true && deadline.map({ $0 - now > 0.5 }) ?? true {
            shedAfterSweepMade = false
            shedAtFirstRest = false
            shedStartupPages()
        } else if shedAtFirstRest && shown != nil && deadline.map({ $0 - now > 0.5 }) ?? true {
            shedAtFirstRest = false
            shedStartupPages()
        }
        // Windowed mode, the thumb or a wheel held: until the next frame may be painted the X
        // socket rests, and the motion events of the frame interval are read together then
        // (a wake-up a frame, not one an event). In lock mode the guard sends the motion.
        let held = gate.isDragging || gate.wheels?.held != nil
        let resting = guardLink == nil && held && !blanking.isBlank && now < nextPaint
        return .wait(until: deadline, readingXAfter: resting ? nextPaint : nil)
    }

    /// Lock mode: answers the guard's `lend` with the slider's parts, on the server before
    /// the answer goes; or says it cannot lend them (the thumb is not held any more, the
    /// track shows more than a drag changes, the screen is blank).
    private func lend(at now: Double) {
        lendAsked = false
        guard let guardLink else { return }
        let parts = gate.isDragging && !blanking.isBlank ? (try? renderer.dragParts(for: gate.scene(at: now))) ?? nil : nil
        guard let parts, let lent = LentParts(display: display, window: stage.window, parts: parts) else {
            guardLink.send(.notLent)
            return
        }
        lentParts = lent
        guardLink.send(.lent(lent.parts))
    }

    /// Lock mode: once the slider shows what every lock starts with, keeps it for the next
    /// lock's guard to show while its UI starts, unless that is what the guard showed.
    private func keepFirstFrame() {
        guard let (file, kept, resting) = firstFrame, var scene = shown else { return }
        // The wheels and banners have windows of their own.
        scene.wheels = nil
        scene.banner = nil
        guard scene == resting else { return }
        firstFrame = nil
        let problem = surface.withPixels { (pixels) -> FileProblem? in
            let checksum = FirstFrameFile.checksum(pixels)
            guard checksum != kept else { return nil }
            do throws(FileProblem) {
                try file.store(pixels, width: surface.width, height: surface.height, depth: Int(stage.depth), checksum: checksum)
                return nil
            } catch {
                return error
            }
        }
        if let problem = problem ?? nil { report("cannot keep the slider's first frame for the next lock: \(problem)") }
    }

    private func handleSignals() -> ExitStatus? {
        for signal in signals.pending() {
            if let status = host?.signaled(signal) { return status }
            if host == nil, signal != SIGCHLD, let status = decide(.signal(signal), at: monotonicNow()) { return status }
        }
        return nil
    }

    /// Windowed mode: the host decides. Lock mode: the mirror follows the input, and only a
    /// signal ends the UI (the guard decides the rest).
    private func decide(_ input: GateInput, at now: Double) -> ExitStatus? {
        if let host { return host.handle(input, at: now) }
        if case .exit(.signal(let n)) = mirror.handle(input, at: now) { return .signal(n) }
        return nil
    }

    /// Time passed: windowed mode's host acts on it; lock mode's mirror only follows.
    private func advance(to now: Double) -> ExitStatus? {
        if let host { return host.advance(to: now) }
        if case .exit(.signal(let n)) = mirror.advance(to: now) { return .signal(n) }
        return nil
    }

    /// When the decider next acts by itself, as a wait's end while nothing is drawn.
    private var decisionDeadline: Double? { host?.deadline ?? mirror.nextActionDeadline }

    /// Lock mode: applies the guard's messages. The guard closing its end ends the UI.
    private func readGuard() throws(UserError) -> ExitStatus? {
        inbox.removeAll(keepingCapacity: true)
        guard let guardLink, try guardLink.receive(into: &inbox) else { return .completed }
        try apply(inbox)
        return nil
    }

    private func apply(_ messages: [GuardMessage]) throws(UserError) {
        for message in messages {
            switch message {
            case .hello, .settings, .windows:
                continue
            case .ping(let sequence):
                guardLink?.send(.pong(sequence))
            case .firstFrame(let path, let key, let shown):
                firstFrame = (FirstFrameFile(path: path, key: key), shown, gate.restingScene)
            case .lend:
                lendAsked = true
            case .giveBack:
                lentParts = nil
                shown = nil
                changed = true
            case .echo(let text):
                echoText = text
                changed = true
            case .keyPressed:
                blanking.inputArrived()
                changed = true
            case .layout(let width, let height, let wheels):
                guard let window = stage as? GuardedWindow else { continue }
                _ = wallpaper?.refresh()
                // A slider laid out anew is not what the next lock starts with.
                firstFrame = nil
                window.resize(width: width, height: height)
                wheelArea = wheels
                try relayout()
                try makeNoticeWindows()
            case .state(let snapshot):
                mirror = Gate(settings: gateSettings, layout: mirror.layout, start: monotonicNow(), snapshot: snapshot)
                changed = true
            case .input(let input, let time):
                blanking.inputArrived()
                _ = mirror.handle(input, at: time)
                changed = true
            }
        }
    }

    /// Lock mode: back buffers for the banner strip and the message line, at the sizes the
    /// server gives their windows now; the message is drawn once.
    private func makeNoticeWindows() throws(UserError) {
        if let old = clockPanel { loop.unwatch(old.timer.descriptor) }
        clockPanel =
            clockID == 0
            ? nil
            : try ClockPanel(
                display: display, window: clockID, options: options, fontMap: fontMap, backdrop: wallpaper?.backdrop(under: clockID))
        if let clock = clockPanel {
            loop.watch(clock.timer.descriptor, name: "the clock's timer") { [unowned self] () throws(UserError) in
                clockPanel?.timerFired()
                return nil
            }
        }
        bannerWindow = try noticeIDs.banner == 0 ? nil : NoticeWindow(
            display: display, window: noticeIDs.banner, options: options, fontMap: fontMap, textScale: 0.28,
            backdrop: wallpaper?.backdrop(under: noticeIDs.banner))
        shownBanner = nil
        guard noticeIDs.message != 0, let text = options.message else { return }
        let line = try NoticeWindow(
            display: display, window: noticeIDs.message, options: options, fontMap: fontMap, textScale: 0.55,
            backdrop: wallpaper?.backdrop(under: noticeIDs.message))
        try line.surface.paint { (cr) throws(RenderError) in try line.renderer.drawMessage(text, into: cr) }
        line.surface.present(on: line.window)
        messageWindow = line
    }

    private func relayout() throws(UserError) {
        if let host { host.relayout(layout, at: monotonicNow()) } else { mirror.relayout(layout, at: monotonicNow()) }
        sweep = nil
        (surface, renderer) = try Self.makeBuffer(display, stage, options, fontMap, look, wallpaper?.backdrop(under: stage.window))
        wheelsPanel = nil
        if gateSettings.pinLength > 0 {
            if guardLink != nil {
                if wheelsID != 0 {
                    wheelsPanel = try WheelsPanel(
                        display: display, guardWindow: wheelsID, count: gateSettings.pinLength, options: options, fontMap: fontMap,
                        backdrop: wallpaper?.backdrop(under: wheelsID))
                }
            } else if let area = stage.wheelArea {
                wheelsPanel = try WheelsPanel(
                    display: display, window: stage.window, size: (area.width, stage.slider.y - area.y), rowHeight: area.height,
                    origin: (Int32(area.x), Int32(area.y)),
                    count: gateSettings.pinLength, visual: stage.visual, depth: stage.depth, options: options, fontMap: fontMap)
            }
        }
        shown = nil
        changed = true
    }

    /// Where the slider's buffer goes in its window.
    private var sliderOrigin: (x: Int32, y: Int32) { (Int32(stage.slider.x), Int32(stage.slider.y)) }

    private func dispatch(_ event: inout XEvent) throws(UserError) -> ExitStatus? {
        let now = monotonicNow()
        if blanking.handle(&event) {
            shown = nil
            changed = true
            clockPanel?.wake()
            return nil
        }
        if let wallpaper,
            event.type == ConfigureNotify && event.xconfigure.window == wallpaper.cover
                || event.type == display.randrEventBase + RRScreenChangeNotify
        {
            if wallpaper.refresh() {
                try relayout()
                try makeNoticeWindows()
            }
            return nil
        }
        if [ButtonPress, ButtonRelease, MotionNotify].contains(event.type) { changed = true }
        switch event.type {
        case ButtonPress where event.xbutton.button == UInt32(Button1):
            blanking.inputArrived()
            return decide(.press(x: Double(event.xbutton.x), y: Double(event.xbutton.y)), at: now)
        case ButtonRelease where event.xbutton.button == UInt32(Button1):
            return decide(.release, at: now)
        case MotionNotify:
            blanking.inputArrived()
            return decide(.motion(x: Double(event.xmotion.x), y: Double(event.xmotion.y)), at: now)
        case ButtonPress where event.xbutton.button == UInt32(Button4) || event.xbutton.button == UInt32(Button5):
            let down = event.xbutton.button == UInt32(Button5)
            return decide(.scroll(x: Double(event.xbutton.x), y: Double(event.xbutton.y), down: down), at: now)
        case KeyPress:
            return host?.keyPressed(&event, at: now)
        case KeyRelease:
            return host?.keyReleased(at: now)
        case Expose where event.xexpose.window == stage.window && event.xexpose.count == 0:
            // While the guard draws a drag, the whole slider comes when it gives it back.
            if lentParts == nil { surface.present(on: stage.window, at: sliderOrigin) }
            if let panel = wheelsPanel, panel.window == stage.window { panel.present() }
            return nil
        case Expose where event.xexpose.window == wallpaper?.cover:
            let e = event.xexpose
            wallpaper?.expose(Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)))
            return nil
        case Expose where event.xexpose.count == 0:
            for notice in [bannerWindow, messageWindow].compactMap({ $0 }) where notice.window == event.xexpose.window {
                notice.surface.present(on: notice.window)
            }
            if let panel = wheelsPanel, panel.window == event.xexpose.window { panel.present() }
            if let clock = clockPanel, clock.window == event.xexpose.window { clock.surface.present(on: clock.window) }
            return nil
        default:
            switch stage.handle(&event) {
            case .relayout:
                try relayout()
                return nil
            case .closeRequested:
                return decide(.closeRequested, at: now)
            case nil:
                return nil
            }
        }
    }

    /// Repaints what changed in the back buffer and sends that part to the window.
    private func paint(at now: Double) throws(UserError) {
        var scene = gate.scene(at: now)
        if gate.entry.prompt?.echo == true { scene.field?.echoText = host?.echo ?? echoText }
        guard scene != shown else { return }
        if lentParts == nil {
            for dirty in try surface.paint(scene, after: shown, with: renderer) {
                surface.present(on: stage.window, rect: dirty, at: sliderOrigin)
            }
            shown = scene
        }
        if let wheels = scene.wheels { try wheelsPanel?.paint(wheels) }
        if let strip = bannerWindow, shownBanner != .some(scene.banner) {
            try strip.surface.paint { (cr) throws(RenderError) in try strip.renderer.drawBanner(scene.banner, into: cr) }
            strip.surface.present(on: strip.window)
            shownBanner = .some(scene.banner)
        }
    }
}

/// How the slider is drawn: the built-in look, or `--theme`'s images and label font.
struct Look {
    var theme: ThemeImages?
    var font: String?

    init(theme: ThemeImages? = nil, font: String? = nil) {
        self.theme = theme
        self.font = font
    }

    /// Lock mode's: the guard checked the files before anything was shown; an image that
    /// passed but does not decode leaves the built-in look, said once on stderr — a picture
    /// never stops a lock.
    init(lockUI options: Options) {
        guard let directory = options.theme else { return }
        let scale = options.scale ?? 1
        do throws(UserError) {
            let files = try ThemeFiles(directory: directory, scale: scale)
            font = files.config.labelFont
            do {
                theme = try Self.images(files, scale: scale)
            } catch {
                report("--theme: \(error.description); drawing the built-in look")
            }
        } catch {
            report(error.message + "; drawing the built-in look")
        }
    }

    static func images(_ files: ThemeFiles, scale: Double) throws(RenderError) -> ThemeImages {
        try ThemeImages(
            track: files.track, thumb: files.thumb, busy: files.busy, trackCaps: files.trackCaps, thumbCaps: files.thumbCaps,
            capScale: scale / (files.doubled ? 2 : 1))
    }
}
