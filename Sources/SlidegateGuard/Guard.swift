import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateXlib

/// Lock mode's guard process: it holds the grabs and the cover, decides with its own gate
/// whether the slide completed, and supervises its children — the UI that draws the
/// slider in its window (restarted when it dies or hangs), and the unlock command. It
/// links Xlib and nothing that draws, so a crash in drawing code cannot unlock the screen.
package final class Guard {
    package struct Launch {
        /// Where the UI executable is.
        package var uiPath: String
        /// Where the authentication helper is (`--auth pam`).
        package var authPath: String
        /// Which lock, and where the supervisor hears of it.
        package var supervised: GuardLaunch

        package init(uiPath: String, authPath: String, supervised: GuardLaunch) {
            self.uiPath = uiPath
            self.authPath = authPath
            self.supervised = supervised
        }
    }

    private var options: Options
    /// The size factor: `--scale`, else the X resources'.
    private let scale: Double
    /// `--fps`, or the fastest monitor's refresh rate when that is lower.
    private let fps: Int
    private let signals: SignalWatch
    private let program: Executable
    private let display: XDisplay
    private let loop: EventLoop
    private let grabs: InputGrabs
    private let cover: LockCover
    private let blanking: Blanking
    /// logind's LockedHint: true once the lock shows its slider (when the UI's first frame
    /// has settled, or with the plain one), false at the end. Not at locking: its shell and
    /// dbus-send would start beside the UI and slow its first frame on a small machine.
    private let lockedHint = LockedHint()
    private var lockedHintSaid = false
    /// Until when a UI's first frame settles (`UISupervision.settleAfterFirstFrame`):
    /// then start-up's pages go and the LockedHint is said.
    private var settlesAt: Double?
    /// The decider: the gate, authentication, the unlock command.
    private let host: GateHost
    private var gate: Gate { host.gate }
    private var ui: UIProcess?
    /// The event loop's watch of the running UI's socket.
    private var uiWatch: EventLoop.Watch?
    /// The socket the next UI gets, made before it is needed, so that running short of
    /// descriptors shows before the screen is locked.
    private var nextSocket: (guardEnd: FileDescriptor, uiEnd: FileDescriptor)?
    /// When to start, ask, replace or stand in for the UI.
    private var supervision: UISupervision
    /// Motion to the gate and the UI at most once per frame interval, the newest position (a
    /// press or release sends what is pending first); motion hints for a fast pointer.
    private var pacer: MotionPacer
    /// When to have the lock painted again after a compositing manager came or went, or the
    /// obscurer was mapped (it paints the screen then, over the cover too, at a moment of its
    /// own choosing: within a frame or two, later when the machine is busy).
    private var exposeAt: [Double] = []
    private static let exposeDelays = [0.05, 0.15, 0.3, 0.6, 1.0]
    /// When to look at the keyboard's layout again after XKB said it changed.
    private var keyboardCheckAt: Double?
    private static let layoutNamesDelay = 0.1
    /// The plain slider the guard draws while no UI has drawn.
    private var fallback: FallbackSlider?
    /// Whether to give back pages once more when the UI first answers a ping: code that the
    /// first ping, the first wait for it and the first answer ran once (metadata the
    /// Swift runtime makes at first use) is not needed again.
    private var shedAfterFirstAnswer = true
    /// Where the slider's first frame is kept between locks, and the checksum of the kept
    /// frame put on the screen at this lock (0: none), which each UI is told.
    private var firstFrame: (file: FirstFrameFile, shown: UInt64)?
    /// The slider the UI lends for a drag, which the guard then draws itself.
    private var loan = DragLoan<LentSlider>()
    /// `--auth pin`: how many wheels (the PIN file's length); 0 without.
    private let pinLength: Int
    /// Where the supervisor hears that the screen is locked and how the lock ends.
    private let reports: FileDescriptor
    /// The safe mode: no drawing program, the plain slider.
    private let safeMode: Bool
    /// xss-lock's sleep lock, held until the lock's first frame is on the screen (or the
    /// screen is blank): a machine that sleeps before shows the desktop, or a lock without
    /// its slider, when it wakes.
    private var sleepLock: SleepLock?

    /// Locks, runs until the gate ends, unlocks; returns the exit status after saying why
    /// on stderr when it is an error.
    package static func run(_ options: Options, _ launch: Launch) -> ExitStatus {
        // First of all, before this process opens any descriptor that could take its number.
        let sleepLock = SleepLock.fromEnvironment()
        let guardProcess: Guard
        do {
            guardProcess = try Guard(options, launch, sleepLock: sleepLock)
        } catch {
            report(error.message)
            return error.status
        }
        // The guard (and with it the grabs) lives until after a fatal error has been said.
        defer { withExtendedLifetime(guardProcess) {} }
        do {
            return try guardProcess.run()
        } catch {
            // The lock did not end as asked: its windows stay for the next guard.
            report(error.message)
            return error.status
        }
    }

    private init(_ options: Options, _ launch: Launch, sleepLock: SleepLock?) throws(UserError) {
        StartupTrace.mark("guard:options-read")
        self.options = options
        reports = FileDescriptor(rawValue: launch.supervised.reportDescriptor)
        _ = fcntl(reports.rawValue, F_SETFD, FD_CLOEXEC)
        safeMode = launch.supervised.mode == .safe
        if launch.supervised.mode != .first {
            // Nothing the lock that died had opens this one.
            self.options.grace = 0
        }
        if safeMode {
            self.options.image = nil
            self.options.theme = nil
        }
        if let wayland = getenv("WAYLAND_DISPLAY"), wayland.pointee != 0 {
            throw UserError(
                "cannot lock: this is a Wayland session (WAYLAND_DISPLAY is set), where X11 grabs protect nothing; use the compositor's locker, or --geometry for a window",
                status: .noDisplayOrLock)
        }
        signals = try SignalWatch()
        do {
            program = try Executable(launch.uiPath)
        } catch {
            throw UserError("cannot lock: the slider's drawing program \(launch.uiPath) cannot be run (\(error))", status: .internalError)
        }
        do {
            nextSocket = try FileDescriptor.socketPair()
        } catch {
            throw error.userError(.noDisplayOrLock, "cannot lock: no socket for the slider's drawing program")
        }
        // Lock first; the UI (fonts, text, drawing) starts after, and after --fork's fork so
        // that it is the guard's child; but with no kept frame to show it starts now, and
        // with nothing kept at all, before anything else: its start is most of the first
        // frame, and it waits for the guard's first word before it talks to the X server.
        var early: EarlyUI?
        let places = Self.cachePlaces
        if !safeMode && options.image == nil && !FirstFrameFile.anyKept(cacheHome: places.cacheHome, home: places.home) {
            early = Self.startEarly(program, socket: &nextSocket)
        }
        pinLength = try options.auth.usesPin ? PinFile.load(options.pinFile ?? "").length : 0
        let auth = try AuthSession.forOptions(options, helperPath: launch.authPath)
        let methods = try PassiveMethod.forOptions(options, helperPath: launch.authPath)
        display = try XDisplay()
        display.ignoresMonitors = safeMode
        StartupTrace.mark("guard:connected")
        scale = safeMode ? 1 : options.scale ?? display.resourceScale()
        try options.checkSize(scale: scale)
        // A theme is checked before anything looks locked; its colour is the label's unless
        // --foreground says otherwise.
        if let directory = self.options.theme {
            let theme = try ThemeFiles(directory: directory, scale: scale)
            if let color = theme.config.foreground, !options.foregroundGiven { self.options.foreground = color }
        }
        if let image = self.options.image { try BackgroundImageFile.check(image) }
        fps = display.frameRate(cappedAt: options.fps)
        pacer = MotionPacer(fps: fps)
        loop = try EventLoop(display: display, synthetic: .ignored)
        if !OutOfMemoryProtection.set(-1000) && options.verbose {
            report("cannot set oom_score_adj to -1000 (needs root or CAP_SYS_RESOURCE): under memory pressure the kernel may kill the guard, which unlocks")
        }
        // Frames are kept, but maybe not for this slider (another size, other settings).
        if early == nil && !safeMode {
            let settings = Self.drawingSettings(self.options, fps: fps, pinLength: pinLength, scale: scale)
            if !Self.isFrameKept(self.options, display: display, settings: settings, program: program, scale: scale) {
                early = Self.startEarly(program, socket: &nextSocket)
            }
        }
        let (coverDisplay, coverScale, coverPins, watch, coverOptions) = (display, scale, pinLength, signals, self.options)
        let makeCover = { () throws(UserError) -> LockCover in
            try LockCover(
                display: coverDisplay, background: options.background, slider: Self.sliderGeometry(coverOptions),
                message: options.message != nil, pinLength: coverPins, clock: options.showsClock,
                switchUser: options.switchUserCommand != nil, scale: coverScale)
        }
        // A lock taken for sleep whose grab another client keeps (a button held down on its
        // window) must not give up, or the machine sleeps unlocked: the cover goes up and the
        // grab is tried until it succeeds, the sleep lock held until then.
        // A lock taken again after its guard died must not give up either: the screen is
        // covered by what the dead guard left.
        var coveredFirst: LockCover?
        reports.say(.grabbing)
        grabs = try InputGrabs(
            display: display,
            persistence: sleepLock == nil && launch.supervised.mode == .first
                ? .giveUp
                : .keepTrying(
                    tooLong: { () throws(UserError) in coveredFirst = try makeCover() },
                    meanwhile: { () throws(UserError) in
                        coveredFirst?.raise()
                        if let signal = watch.takeTermination() {
                            throw UserError("ended by signal \(signal) before the grabs were taken", status: .signal(signal))
                        }
                    }))
        StartupTrace.mark("guard:grabbed")
        if let coveredFirst {
            cover = coveredFirst
        } else {
            cover = try makeCover()
        }
        StartupTrace.mark("guard:covered")
        blanking = Blanking(display)
        let now = boottimeNow()
        host = GateHost(
            options: self.options, pinLength: pinLength, layout: Self.localLayout(cover, pinLength: pinLength, rightToLeft: options.rightToLeft),
            auth: auth, methods: methods, display: display, loop: loop, start: now, forSleep: sleepLock != nil)
        supervision = UISupervision(start: now)
        host.heard = { [unowned self] in heard($0, at: $1) }
        // A compositor paints the screen once the obscurer is up, over the cover too.
        if cover.underCompositor { exposeSoon(from: now) }
        // From here on a guard that dies leaves its windows to the next, which frees them
        // once its own are up.
        XSetCloseDownMode(display.pointer, RetainTemporary)
        if launch.supervised.mode != .first { XKillClient(display.pointer, UInt(AllTemporary)) }
        XSync(display.pointer, 0)
        reports.say(.locked)
        self.sleepLock = sleepLock
        loop.watch(signals.fileDescriptor, name: "the signal watch") { [unowned self] () throws(UserError) in handleSignals() }
        if launch.supervised.mode != .first {
            host.handle(.authMessage(.warning, self.options.strings.lockRestarted), at: now)
        }
        if safeMode {
            fallback = FallbackSlider(display: display, window: cover.sliderWindow, foreground: self.options.foreground)
            sayLocked()
        } else {
            startUI(early)
            StartupTrace.mark("guard:ui-started")
        }
        // Over a picture the slider shows part of it, which the UI draws: no kept frame.
        if self.options.image == nil && !safeMode { showFirstFrame() }
        // After the UI's start: its exec need not wait for these round trips.
        blanking.follow()
        if blanking.isBlank { blankingChanged() }
    }

    /// Gives back what start-up needed (`shedStartupPages`), and tells the supervisor,
    /// whose copies of those pages since the fork are then its own to give back.
    private func giveBackStartupPages() {
        shedStartupPages()
        reports.say(.shed)
    }

    /// The slider's first frame is drawn (kept, the UI's, or the plain one), or the screen is
    /// blank and shows none: the system may sleep.
    private func frameShown() {
        guard let held = sleepLock else { return }
        XSync(display.pointer, 0)
        held.release()
        sleepLock = nil
    }

    private static func sliderGeometry(_ options: Options) -> Geometry? {
        if case .lock(let slider) = options.mode { return slider }
        return nil
    }

    /// The slider's layout in its own coordinates, which is what both gates use; the wheels'
    /// row relative to it.
    private static func localLayout(_ cover: LockCover, pinLength: Int, rightToLeft: Bool) -> SliderLayout {
        let slider = cover.slider
        return SliderLayout(
            bounds: Rect(x: 0, y: 0, width: slider.width, height: slider.height),
            wheelRow: pinLength == 0 ? nil : WheelRow(area: wheelArea(cover), count: pinLength), rightToLeft: rightToLeft)
    }

    /// The wheels' row relative to the slider's top-left corner.
    private static func wheelArea(_ cover: LockCover) -> Rect {
        let w = cover.wheels
        return Rect(x: w.x - cover.slider.x, y: w.y - cover.slider.y, width: w.width, height: w.height)
    }

    private func run() throws(UserError) -> ExitStatus {
        defer { if lockedHintSaid { lockedHint.set(false) } }
        let status = try loop.run(
            event: { [unowned self] (event: inout XEvent) throws(UserError) in dispatch(&event) },
            pass: { [unowned self] () throws(UserError) in pass() })
        // The lock ends as asked: its windows go with it, and the supervisor ends with its status.
        XSetCloseDownMode(display.pointer, DestroyAll)
        reports.say(.ending(status.code))
        if status == .completed {
            reveal()
            grabs.release()
        }
        cover.restoreFocus()
        stopUI()
        host.finish()
        if let summary = host.failures.summary { report(summary) }
        if status == .completed && options.showFailedAttempts { host.notifyOfFailures() }
        return status
    }

    /// `--reveal`: the cover is cut away before the grabs go (input waits meanwhile); if
    /// the server cannot shape it, or `--reduce-motion` asks for no animation, it goes at once.
    private func reveal() {
        cover.leaveOverlay()
        let size = display.rootSize()
        if options.reduceMotion || !RevealAnimation.play(
            options.reveal, on: cover.cover, width: Double(size.width), height: Double(size.height), fps: fps,
            display: display)
        {
            XUnmapWindow(display.pointer, cover.cover)
            XSync(display.pointer, 0)
        }
    }

    /// The work of one pass of the loop once the X queue is empty; says how long to wait.
    private func pass() -> EventLoop.Turn {
        let now = boottimeNow()
        let frame = 1 / Double(fps)
        if pacer.isDue(at: now), let status = flushMotion() { return .exit(status) }
        let motionDue = pacer.due
        pacer.rest(at: now)
        grabs.motionHints = pacer.hints
        if let status = host.advance(to: now) { return .exit(status) }
        // Once motion went out, the socket rests until the next may: the motion events of
        // that frame interval are read together, and the newest goes.
        let resting = now < motionDue
        var deadline = Earliest()
        deadline.consider(host.deadline)
        if pacer.pending != nil || resting { deadline.consider(motionDue) }
        // A countdown's tick or a refusal's end changes the track: the UI paints it.
        switch loan.check(at: now, scene: gate.scene(at: now), next: { gate.nextChangeBesidesTheSlider(after: now) }) {
        case .wait(let until): deadline.consider(until)
        case .giveBack: giveBack()
        }
        if !grabs.complete {
            grabs.regrab(at: now)
            if !grabs.complete { deadline.consider(now + 0.02) }
        }
        let due = safeMode ? UISupervision.Due(action: nil, drawFallback: false) : supervision.due(at: now, answerDue: ui?.answerDue)
        switch due.action {
        case .start?:
            startUI()
        case .replace?:
            if let running = ui { replaceUI(running, because: "stopped answering") }
        case .ping?:
            if let running = ui, let reason = running.ping(at: now) { replaceUI(running, because: reason) }
        case nil:
            break
        }
        if due.drawFallback {
            report("the slider's drawing program has not drawn for \(UISupervision.fallbackDelay) s; drawing a plain slider")
            fallback = FallbackSlider(display: display, window: cover.sliderWindow, foreground: options.foreground)
            sayLocked()
        }
        if let at = keyboardCheckAt, now >= at {
            keyboardCheckAt = nil
            grabs.reloadKeymap()
            if let status = host.keyReleased(at: now) { return .exit(status) }
        }
        deadline.consider(keyboardCheckAt)
        if let first = exposeAt.first, now >= first {
            exposeAt.removeAll { $0 <= now }
            cover.exposeAll(slider: ui?.drawn == true || fallback != nil)
            fallback?.invalidate()
        }
        deadline.consider(exposeAt.first)
        if let fallback {
            fallback.draw(gate.layout, value: gate.thumbValue(at: now))
            frameShown()
            if case .springing = gate.slide.phase { deadline.consider(now + frame) }
        }
        if let until = settlesAt, now >= until {
            settlesAt = nil
            giveBackStartupPages()
            sayLocked()
        }
        deadline.consider(settlesAt)
        if !safeMode { deadline.consider(supervision.deadline) }
        deadline.consider(ui?.answerDue)
        return .wait(until: deadline.time, readingXAfter: resting ? motionDue : nil)
    }

    private func dispatch(_ event: inout XEvent) -> ExitStatus? {
        if grabs.handle(&event) {
            if grabs.mouseKeysOn {
                pacer.cancel()
                host.cancelDrag(at: boottimeNow())
                send(.state(gate.snapshot))
            }
            if grabs.takeKeyboardChange() {
                // setxkbmap names the layouts in a root property after it loads them: look
                // again once it has.
                keyboardCheckAt = boottimeNow() + Self.layoutNamesDelay
                return host.keyReleased(at: boottimeNow())
            }
            return nil
        }
        if blanking.handle(&event) {
            blankingChanged()
            return nil
        }
        if cover.restore(after: &event) == .destroyed {
            report("another client destroyed the lock window; making it again")
            loan.slider?.windowDestroyed()
            loan.drop()
            cover.remake()
            if cover.underCompositor { exposeSoon(from: boottimeNow()) }
            if fallback != nil {
                fallback = FallbackSlider(display: display, window: cover.sliderWindow, foreground: options.foreground)
            }
            relayout()
            if let running = ui { replaceUI(running, because: "lost its window") }
            return nil
        }
        let now = boottimeNow()
        let origin = cover.slider
        switch event.type {
        case let type where grabs.mouseKeysOn && [MotionNotify, ButtonPress, ButtonRelease].contains(type):
            // Until the server confirms MouseKeys off, the pointer may be the keypad.
            return nil
        case MotionNotify where event.xmotion.is_hint != 0 || pacer.hints:
            // Where it went is asked at the next frame interval (also after an event sent
            // before the grab turned to hints: only the question lets the next hint come).
            pacer.hinted()
        case MotionNotify:
            // The newest goes to the gate at the next frame interval.
            pacer.moved(x: Double(event.xmotion.x_root) - origin.x, y: Double(event.xmotion.y_root) - origin.y, at: now)
        case ButtonPress where event.xbutton.button == UInt32(Button1)
            && cover.banner.contains(x: Double(event.xbutton.x_root), y: Double(event.xbutton.y_root))
            && gate.banners.visible(at: now) != nil:
            // A click on the banner dismisses it.
            return host.handle(.bannerClicked, at: now)
        case ButtonPress where event.xbutton.button == UInt32(Button1) && cover.switchUserWindow != 0
            && cover.switchUser.contains(x: Double(event.xbutton.x_root), y: Double(event.xbutton.y_root)) && !gate.isDragging:
            // The switch-user button: its command runs; the lock stays.
            host.switchUser()
        case ButtonPress where event.xbutton.button == UInt32(Button1):
            let x = Double(event.xbutton.x_root) - origin.x
            let y = Double(event.xbutton.y_root) - origin.y
            if let status = flushMotion(buttonAt: (x, y)) { return status }
            return host.handle(.press(x: x, y: y), at: now)
        case ButtonRelease where event.xbutton.button == UInt32(Button1):
            let x = Double(event.xbutton.x_root) - origin.x
            let y = Double(event.xbutton.y_root) - origin.y
            if let status = flushMotion(buttonAt: (x, y)) { return status }
            pacer.released()
            grabs.motionHints = pacer.hints
            return host.handle(.release, at: now)
        case ButtonPress where pinLength > 0 && (event.xbutton.button == UInt32(Button4) || event.xbutton.button == UInt32(Button5)):
            let x = Double(event.xbutton.x_root) - origin.x
            let y = Double(event.xbutton.y_root) - origin.y
            return host.handle(.scroll(x: x, y: y, down: event.xbutton.button == UInt32(Button5)), at: now)
        case KeyPress:
            send(.keyPressed)
            let status = host.keyPressed(&event, at: now)
            // For a prompt whose answer may be shown, the UI gets what was typed.
            if status == nil, let text = host.echo { send(.echo(text)) }
            return status
        case KeyRelease:
            return host.keyReleased(at: now)
        case VisibilityNotify where event.xvisibility.window == cover.cover:
            if event.xvisibility.state != VisibilityUnobscured { cover.raise() }
        case MapNotify where event.xmap.window != cover.cover,
            ConfigureNotify where event.xconfigure.window != cover.cover && event.xconfigure.window != display.root
                && (event.xconfigure.event == display.root || event.xconfigure.event == cover.parent):
            cover.raise()
        case ConfigureNotify where event.xconfigure.window == display.root:
            relayout()
        case _ where cover.compositorChanged(event):
            // A compositor that starts paints the whole screen once, when it is ready.
            exposeSoon(from: boottimeNow())
        default:
            if event.type == display.randrEventBase + RRScreenChangeNotify { relayout() }
        }
        return nil
    }

    /// Has the lock painted again at each of `exposeDelays` after `now`.
    private func exposeSoon(from now: Double) {
        exposeAt = Self.exposeDelays.map { now + $0 }
    }

    /// The screen changed (or the cover was made anew): lay out from what the server says
    /// now. A drag in progress springs back whatever changed: the thumb was held on a
    /// slider that may now be elsewhere, even at the same size.
    private func relayout() {
        let now = boottimeNow()
        let wasDragging = gate.slide.isDragging
        if wasDragging {
            pacer.cancel()
            host.cancelDrag(at: now)
        }
        if cover.layOut() {
            host.relayout(Self.localLayout(cover, pinLength: pinLength, rightToLeft: options.rightToLeft), at: now)
            sendLayout()
            send(.state(gate.snapshot))
            fallback?.invalidate()
        } else if wasDragging {
            send(.state(gate.snapshot))
        }
        cover.raise()
    }

    /// Hands the newest motion to the gate and the UI: at most one message per frame interval.
    /// After a hint the pointer's place is asked of the server, which re-arms the hint; a
    /// button event brings its own place, where the pointer was when the button went.
    private func flushMotion(buttonAt button: (x: Double, y: Double)? = nil) -> ExitStatus? {
        let origin = cover.slider
        let motion = pacer.next(button: button, at: boottimeNow(), display: display) {
            display.pointerPosition().map { ($0.x - origin.x, $0.y - origin.y) }
        }
        grabs.motionHints = pacer.hints
        guard let motion else { return nil }
        return host.handle(.motion(x: motion.x, y: motion.y), at: motion.time)
    }

    /// The gate took an input: the UI hears of it, or the guard draws the drag's frame itself
    /// while the slider is lent.
    private func heard(_ input: GateInput, at now: Double) {
        guard GuardMessage.forwards(input) else { return }
        if case .motion = input, drawLentSlider(at: now) {
            // The UI sleeps through the drag; it gets the newest motion when the loan ends.
            loan.drew(input, at: now)
        } else {
            send(.input(input, at: now))
        }
        if case .press = input { askForSlider(at: now) }
        if case .methodVerdict = input {
            // A finger on the reader wakes the screen (the host has told the server).
            blanking.inputArrived()
            blankingChanged()
        }
        supervision.input(at: now, guardDraws: loan.isDrawing)
    }

    private func handleSignals() -> ExitStatus? {
        for signal in signals.pending() {
            if let status = host.signaled(signal) { return status }
            if signal == SIGCHLD { lockedHint.reap() }
            if signal == SIGCHLD, let running = ui, let exit = running.process.poll() {
                uiEnded(running, because: "ended (\(UIProcess.describe(exit)))")
            }
        }
        return nil
    }

    /// The slider's size and the wheels' row, for the UI to lay out as the guard's gate does.
    private func sendLayout() {
        send(
            .layout(
                width: Int(pixels: cover.slider.width), height: Int(pixels: cover.slider.height),
                wheels: pinLength == 0 ? nil : Self.wheelArea(cover)))
    }

    /// Sends a message to the UI, if one runs; replaces a UI that stopped taking them. Any
    /// message but a ping or motion ends a loan first: what it changes, the UI paints.
    private func send(_ message: GuardMessage) {
        switch message {
        case .ping, .input(.motion, _): break
        default: endLoan()
        }
        post(message)
    }

    /// Sends a message as it is, loan or not.
    private func post(_ message: GuardMessage) {
        guard let running = ui, let reason = running.send(message) else { return }
        replaceUI(running, because: reason)
    }

    /// A press caught the thumb: asks the UI for the slider's parts, if a drag changes
    /// nothing but the thumb's place and the label's alpha.
    private func askForSlider(at now: Double) {
        guard gate.slide.isDragging, ui?.drawn == true, fallback == nil, loan.begin(gate.scene(at: now)) else { return }
        post(.lend)
    }

    /// The UI answered `lend`. Parts that came too late (the drag ended, or the track changed
    /// meanwhile) go back at once; an answer nobody asked for while the guard draws is ignored.
    private func lent(_ parts: SliderParts?) {
        let now = boottimeNow()
        switch loan.answered(lent: parts != nil, dragging: gate.slide.isDragging, scene: gate.scene(at: now)) {
        case .ignore:
            return
        case .giveBack:
            post(.giveBack)
        case .use(let look):
            guard let parts, let slider = LentSlider(display: display, window: cover.sliderWindow, layout: gate.layout, parts: parts) else {
                loan.couldNotUse()
                post(.giveBack)
                return
            }
            loan.drawing(slider, look: look, check: gate.nextChangeBesidesTheSlider(after: now))
            _ = drawLentSlider(at: now)
        }
    }

    /// Draws the drag's frame at `now` if the slider is lent; false when the UI is to hear of
    /// the motion. Motion changes nothing but the thumb's place and the label's alpha (what
    /// else may change the track is looked at in `pass`, when it may).
    private func drawLentSlider(at now: Double) -> Bool {
        guard let slider = loan.slider else { return false }
        guard gate.slide.isDragging else {
            giveBack()
            return false
        }
        let value = gate.thumbValue(at: now)
        slider.draw(thumbRect: gate.layout.thumb(at: value), labelAlpha: Presenter.labelAlpha(forValue: value))
        return true
    }

    /// Ends a loan before another message goes to the UI.
    private func endLoan() {
        if let ending = loan.end() { finish(ending) }
    }

    /// Stops drawing the slider.
    private func giveBack() {
        if let ending = loan.giveBack() { finish(ending) }
    }

    /// Once the server has done the guard's frames, the UI gets the newest motion and the
    /// slider back.
    private func finish(_ ending: DragLoan<LentSlider>.Ending) {
        ending.slider.finish()
        if let (input, time) = ending.motion { post(.input(input, at: time)) }
        post(.giveBack)
    }

    private func readUI() {
        guard let running = ui else { return }
        do {
            guard let received = try running.receive() else {
                // It is ending, or will be made to: either way, say how it ended.
                running.process.stop()
                uiEnded(running, because: "ended (\(running.process.exit.map(UIProcess.describe) ?? "closed its socket"))")
                return
            }
            if received.drawn {
                // The guard's start and the UI's (settings, windows, the handshake) are behind
                // it: once it has settled, their pages go.
                if supervision.drew() { settlesAt = boottimeNow() + UISupervision.settleAfterFirstFrame }
                fallback = nil
                frameShown()
            }
            if let answer = received.lendAnswer { lent(answer) }
            if received.answered && shedAfterFirstAnswer {
                shedAfterFirstAnswer = false
                giveBackStartupPages()
            }
            if received.answered {
                let now = boottimeNow()
                supervision.answered(at: now, animating: gate.animates(at: now))
            }
        } catch {
            replaceUI(running, because: "sent a malformed message (\(error))")
        }
    }

    /// The session's LockedHint is true from the first time the slider shows.
    private func sayLocked() {
        guard !lockedHintSaid else { return }
        lockedHintSaid = true
        lockedHint.set(true)
    }

    /// Starts a UI, or takes the one started before the lock, and hands it the settings,
    /// the slider window, its size and the gate's state.
    private func startUI(_ early: EarlyUI? = nil) {
        do {
            let started: UIProcess
            if let process = early?.take() {
                started = process
            } else {
                let socket = try nextSocket ?? FileDescriptor.socketPair()
                nextSocket = nil
                started = try UIProcess(program, socket: socket)
            }
            ui = started
            supervision.started(at: boottimeNow())
            uiWatch = loop.watch(started.channel.descriptor.rawValue, name: "the UI's socket", peer: true) { [unowned self] () throws(UserError) in
                readUI()
                return nil
            }
            send(.hello(protocol: GuardProtocol.version, build: Options.version))
            send(.settings(uiSettings))
            send(
                .windows(
                    cover: UInt64(clamping: cover.cover), slider: UInt64(clamping: cover.sliderWindow), banner: UInt64(clamping: cover.bannerWindow), message: UInt64(clamping: cover.messageWindow),
                    wheels: UInt64(clamping: cover.wheelsWindow), clock: UInt64(clamping: cover.clockWindow), switchUser: UInt64(clamping: cover.switchUserWindow)))
            sendLayout()
            send(.state(gate.snapshot))
            if let firstFrame { send(.firstFrame(path: firstFrame.file.path, key: firstFrame.file.key, shown: firstFrame.shown)) }
        } catch {
            report("cannot start the slider's drawing program: \(error); trying again")
            supervision.couldNotStart(at: boottimeNow())
        }
    }

    /// Starts the UI before the lock, with the socket made for it, when no frame is kept
    /// for this lock (the first with these settings, or a picture under the slider): its
    /// start (exec, the dynamic linker, fontconfig's set-up) is then most of the time to
    /// the first frame, and it runs beside the lock's own. It gets no window before the
    /// screen is covered and grabbed. With a kept frame the lock's work comes first: under
    /// a compositor a UI started beside it makes the lock about 3 ms later. One that cannot
    /// start now is tried again once the screen is locked (`startUI`).
    private static func startEarly(_ program: Executable, socket: inout (guardEnd: FileDescriptor, uiEnd: FileDescriptor)?) -> EarlyUI? {
        guard let pair = socket else { return nil }
        socket = nil
        do {
            let early = EarlyUI(try UIProcess(program, socket: pair))
            StartupTrace.mark("guard:ui-spawned")
            return early
        } catch {
            report("cannot start the slider's drawing program: \(error); trying again once the screen is locked")
            return nil
        }
    }

    /// Whether a first frame is kept for the slider as it will be laid out on the primary
    /// monitor now (its header only: `showFirstFrame` checks the pixels). Always false over
    /// a picture, which is never kept.
    private static func isFrameKept(_ options: Options, display: XDisplay, settings: UISettings, program: Executable, scale: Double) -> Bool {
        guard options.image == nil else { return false }
        let slider = LockPlacement.slider(on: display.sliderMonitor(scale: scale), geometry: sliderGeometry(options), scale: scale)
        let width = Int(pixels: slider.width)
        let height = Int(pixels: slider.height)
        let depth = Int(clamping: XDefaultDepth(display.pointer, display.screen))
        let file = firstFrameFile(settings: settings, program: program, width: width, height: height, depth: depth)
        return file?.holdsFrame(width: width, height: height, depth: depth) ?? false
    }

    /// What the UI draws with.
    private var uiSettings: UISettings {
        var settings = Self.drawingSettings(options, fps: fps, pinLength: pinLength, scale: scale)
        settings.deadline = gate.deadline
        settings.graceUntil = gate.settings.graceUntil
        settings.holdsMatches = gate.settings.holdsMatches
        return settings
    }

    /// What the UI draws with but the gate's moments (the timeout's end and the grace's,
    /// which differ at every lock): known before the gate is. The look options go as given.
    private static func drawingSettings(_ options: Options, fps: Int, pinLength: Int, scale: Double) -> UISettings {
        var settings = UISettings(looks: options.looks, fps: fps, pinLength: pinLength)
        settings.strings = options.strings
        settings.scale = scale
        return settings
    }

    /// Puts the slider's first frame kept from the last lock with the same settings in its
    /// window, while the UI is still starting, and tells the UI where it is kept and what
    /// was shown. The key: what the UI draws with (the timeout's moment aside, which differs
    /// at every lock), the slider's size and depth, and the UI program's file.
    private func showFirstFrame() {
        let width = Int(pixels: cover.slider.width)
        let height = Int(pixels: cover.slider.height)
        let depth = Int(clamping: XDefaultDepth(display.pointer, display.screen))
        let settings = Self.drawingSettings(options, fps: fps, pinLength: pinLength, scale: scale)
        guard let file = Self.firstFrameFile(settings: settings, program: program, width: width, height: height, depth: depth) else { return }
        var shown: UInt64 = 0
        if var kept = file.load(width: width, height: height, depth: depth),
            cover.showInSlider(&kept.pixels, width: width, height: height)
        {
            shown = kept.checksum
            StartupTrace.mark("guard:first-frame-shown")
            frameShown()
        }
        firstFrame = (file, shown)
        send(.firstFrame(path: file.path, key: file.key, shown: shown))
    }

    /// Where the first frame of a `width` × `height` slider of `depth` is kept, and its key:
    /// what the UI draws with (`drawingSettings`), the slider's size and depth, and the UI
    /// program's file. Nil with no cache directory.
    private static func firstFrameFile(settings: UISettings, program: Executable, width: Int, height: Int, depth: Int) -> FirstFrameFile? {
        var described: [UInt8] = []
        GuardMessage.settings(settings).appendFrame(to: &described)
        for value in program.identity + [UInt64(clamping: width), UInt64(clamping: height), UInt64(clamping: depth)] {
            withUnsafeBytes(of: value.littleEndian) { described.append(contentsOf: $0) }
        }
        let places = cachePlaces
        return FirstFrameFile(width: width, height: height, key: FirstFrameFile.hash(described), cacheHome: places.cacheHome, home: places.home)
    }

    /// Where the user's cache directory may be: `XDG_CACHE_HOME`, else the home directory.
    private static var cachePlaces: (cacheHome: String?, home: String?) {
        (getenv("XDG_CACHE_HOME").map { String(cString: $0) }, userDirectories().home)
    }

    /// The UI is done for: the screen stays covered and grabbed; a new UI starts at once, or
    /// after a back-off (0.1 s doubling to 5 s) while UIs keep dying within 2 s of starting.
    private func uiEnded(_ process: UIProcess, because reason: String) {
        uiWatch.map(loop.unwatch)
        uiWatch = nil
        ui = nil
        loan.drop()
        let now = boottimeNow()
        report("the slider's drawing program \(reason); starting another")
        supervision.ended(at: now, after: now - process.process.started)
    }

    /// Ends a UI that hangs, misbehaves or lost its window, and starts another.
    private func replaceUI(_ process: UIProcess, because reason: String) {
        process.process.signal(SIGKILL)
        process.process.stop()
        uiEnded(process, because: reason)
    }

    /// Ends the UI and waits briefly for it, so no drawing outlives the lock.
    private func stopUI() {
        guard let running = ui else { return }
        uiWatch.map(loop.unwatch)
        uiWatch = nil
        ui = nil
        loan.drop()
        supervision.stopped()
        running.process.stop()
    }

    /// The screen saver came on or went off: a blank screen's UI sleeps and owes no pings.
    private func blankingChanged() {
        if blanking.isBlank { frameShown() }
        supervision.blankChanged(blanking.isBlank, at: boottimeNow())
        if blanking.isBlank { ui?.forgetPing() }
    }
}

/// xss-lock's `XSS_SLEEP_LOCK_FD`: a descriptor held open until the lock's first frame is on
/// the screen, so the system does not suspend before; never inherited by a child but the
/// guard, from the supervisor.
struct SleepLock {
    let descriptor: FileDescriptor

    /// Reads and checks the variable. Must run before slidegate opens any descriptor: a
    /// variable naming a closed one would otherwise name whatever slidegate opened there
    /// (its signal descriptor), and closing that would break the guard.
    static func fromEnvironment() -> SleepLock? {
        guard let value = getenv("XSS_SLEEP_LOCK_FD").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        guard let fd = Int32(value, radix: 10), fd > 2 else {
            report("XSS_SLEEP_LOCK_FD: expected a descriptor number above 2, got \"\(value)\"; ignoring it")
            return nil
        }
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
            report("XSS_SLEEP_LOCK_FD: descriptor \(fd) is not open; ignoring it")
            return nil
        }
        return SleepLock(descriptor: FileDescriptor(rawValue: fd))
    }

    /// The screen is locked: let the system sleep.
    func release() {
        descriptor.close()
    }
}

extension FileDescriptor {
    /// Tells the supervisor; a supervisor that is gone hears nothing, and the lock goes on.
    fileprivate func say(_ report: GuardReport) {
        _ = try? write(Array(report.line.utf8))
    }
}
