import CX11
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateHost
import SlidegateSystem
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

    var options: Options
    /// The size factor: `--scale`, else the X resources'.
    let scale: Double
    /// `--fps`, or the fastest monitor's refresh rate when that is lower.
    let fps: Int
    let signals: SignalWatch
    let program: Executable
    let display: XDisplay
    let loop: EventLoop
    let grabs: InputGrabs
    let cover: LockCover
    let blanking: Blanking
    /// logind's LockedHint: true once the lock shows its slider (when the UI's first frame
    /// has settled, or with the plain one), false at the end. Not at locking: its shell and
    /// dbus-send would start beside the UI and slow its first frame on a small machine.
    let lockedHint = LockedHint()
    var lockedHintSaid = false
    /// The supervisor heard that the first frame shows (`GuardReport.shown`).
    var shownSaid = false
    /// Until when a UI's first frame settles (`UISupervision.settleAfterFirstFrame`):
    /// then start-up's pages go and the LockedHint is said.
    var settlesAt: Double?
    /// The decider: the gate, authentication, the unlock command.
    let host: GateHost
    var gate: Gate { host.gate }
    var ui: UIProcess?
    /// The controls the running UI says it shows (a player is there, logind offers the
    /// action), of those asked for (`offeredControls`): only these are hit.
    var shownControls: [LockControl] = []
    let offeredControls: [LockControl]
    /// The event loop's watch of the running UI's socket.
    var uiWatch: EventLoop.Watch?
    /// The socket the next UI gets, made before it is needed, so that running short of
    /// descriptors shows before the screen is locked.
    var nextSocket: (guardEnd: FileDescriptor, uiEnd: FileDescriptor)?
    /// When to start, ask, replace or stand in for the UI.
    var supervision: UISupervision
    /// Motion to the gate and the UI at most once per frame interval, the newest position (a
    /// press or release sends what is pending first); motion hints for a fast pointer.
    var pacer: MotionPacer
    /// When to have the lock painted again after a compositing manager came or went, or the
    /// obscurer was mapped (it paints the screen then, over the cover too, at a moment of its
    /// own choosing: within a frame or two, later when the machine is busy).
    var exposeAt: [Double] = []
    static let exposeDelays = [0.05, 0.15, 0.3, 0.6, 1.0]
    /// When to look at the keyboard's layout again after XKB said it changed.
    var keyboardCheckAt: Double?
    static let layoutNamesDelay = 0.1
    /// The plain slider the guard draws while no UI has drawn.
    var fallback: FallbackSlider?
    /// Whether to give back pages once more when the UI first answers a ping: code that the
    /// first ping, the first wait for it and the first answer ran once (metadata the
    /// Swift runtime makes at first use) is not needed again.
    var shedAfterFirstAnswer = true
    /// Where the slider's first frame is kept between locks, and the checksum of the kept
    /// frame put on the screen at this lock (0: none), which each UI is told.
    var firstFrame: (file: FirstFrameFile, shown: UInt64)?
    /// The slider the UI lends for a drag, which the guard then draws itself.
    var loan = DragLoan<LentSlider>()
    /// `--auth pin`: how many wheels (the PIN file's length); 0 without.
    let pinLength: Int
    /// Where the supervisor hears that the screen is locked and how the lock ends.
    let reports: FileDescriptor
    /// The safe mode: no drawing program, the plain slider.
    let safeMode: Bool
    /// xss-lock's sleep lock, held until the lock's first frame is on the screen (or the
    /// screen is blank): a machine that sleeps before shows the desktop, or a lock without
    /// its slider, when it wakes.
    var sleepLock: SleepLock?
    var keyboard: OnScreenKeyboard?  // --keyboard's, when the lock has one

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
        offeredControls = (options.showMedia ? LockControl.media : []) + options.powerActions.map { .power($0) }
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
            self.options.keyboard = .off
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
        if !safeMode && options.keepsFirstFrame && !FirstFrameFile.anyKept(cacheHome: places.cacheHome, home: places.home) {
            early = Self.startEarly(program, socket: &nextSocket)
        }
        pinLength = try options.auth.usesPin ? PinFile.load(options.pinFile ?? "").length : 0
        let auth = try AuthSession.forOptions(options, helperPath: launch.authPath)
        let methods = try PassiveMethod.forOptions(options, helperPath: launch.authPath)
        display = try XDisplay(asking: options.imageIsDesktop ? DesktopCopy.prefetch(_:) as (OpaquePointer) -> Void : nil)
        display.ignoresMonitors = safeMode
        StartupTrace.mark("guard:connected")
        scale = safeMode ? 1 : options.scale ?? display.resourceScale()
        let desktopAsked = options.imageIsDesktop ? DesktopCopy.ask(display, shrink: Blur.desktopShrink(radius: options.blur * scale)) : nil
        try options.checkSize(scale: scale)
        // A theme is checked before anything looks locked; its colour is the label's unless
        // --foreground says otherwise.
        if let directory = self.options.theme {
            let theme = try ThemeFiles(directory: directory, scale: scale)
            if let color = theme.config.foreground, !options.foregroundGiven { self.options.foreground = color }
            if let color = theme.config.background, !options.backgroundGiven { self.options.background = color }
        }
        if let image = self.options.image, !self.options.imageIsDesktop { try BackgroundImageFile.check(image) }
        fps = display.frameRate(cappedAt: options.fps)
        let desktop = desktopAsked.flatMap { [display] in DesktopCopy(display, asked: $0) }
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
                display: coverDisplay, background: coverOptions.background, slider: Self.sliderGeometry(coverOptions),
                parts: LockPlacement.Parts(
                    message: options.message != nil, pinLength: coverPins, clock: options.showsClock,
                    status: options.statusCommand != nil || options.showBattery, user: options.showUser,
                    switchUser: options.switchUserCommand != nil, media: options.showMedia, power: options.powerActions.count,
                    rightToLeft: options.rightToLeft, keyboard: coverOptions.hasKeyboard),
                scale: coverScale, desktop: desktop)
        }
        // A lock taken for sleep whose grab another client keeps (a button held down on its
        // window) must not give up, or the machine sleeps unlocked: the cover goes up and the
        // grab is tried until it succeeds, the sleep lock held until then.
        // A lock taken again after its guard died must not give up either: the screen is
        // covered by what the dead guard left.
        var coveredFirst: LockCover?
        reports.say(.grabbing)
        grabs = try InputGrabs(
            display: display, keepMouseKeys: options.auth != .none,
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
            auth: auth, methods: methods, server: display, watcher: loop, start: now, forSleep: sleepLock != nil)
        supervision = UISupervision(start: now)
        host.heard = { [unowned self] in heard($0, at: $1) }
        host.control = { [unowned self] in act($0) }
        host.focusChanged = { [unowned self] in send(.focus($0)) }
        host.focusable = focusable
        if self.options.hasKeyboard { keyboard = OnScreenKeyboard(mode: options.keyboard) }
        host.followed = { [unowned self] in fieldFollowed(open: $0) }
        readKeyboardFace()
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
            host.handle(.authMessage(.warning, self.options.strings[.lockRestarted]), at: now)
        }
        if safeMode {
            fallback = FallbackSlider(display: display, window: cover.sliderWindow, foreground: self.options.foreground)
            sayLocked()
        } else {
            startUI(early)
            StartupTrace.mark("guard:ui-started")
        }
        // Over a picture the slider shows part of it, which the UI draws: no kept frame.
        if self.options.keepsFirstFrame && !safeMode { showFirstFrame() }
        // After the UI's start: its exec need not wait for these round trips.
        blanking.follow()
        if blanking.isBlank { blankingChanged() }
    }

    /// Gives back what start-up needed (`shedStartupPages`), and tells the supervisor,
    /// whose copies of those pages since the fork are then its own to give back.
    func giveBackStartupPages() {
        shedStartupPages()
        reports.say(.shed)
    }

    /// The slider's first frame is drawn (kept, the UI's, or the plain one), or the screen is
    /// blank and shows none: the supervisor may take its grabs, and the system may sleep.
    func frameShown() {
        if !shownSaid {
            shownSaid = true
            reports.say(.shown)
        }
        guard let held = sleepLock else { return }
        XSync(display.pointer, 0)
        held.release()
        sleepLock = nil
    }

    static func sliderGeometry(_ options: Options) -> Geometry? {
        if case .lock(let slider) = options.mode { return slider }
        return nil
    }

    /// The slider's layout in its own coordinates, which is what both gates use; the wheels'
    /// row relative to it.
    static func localLayout(_ cover: LockCover, pinLength: Int, rightToLeft: Bool) -> SliderLayout {
        let slider = cover.slider
        return SliderLayout(
            bounds: Rect(x: 0, y: 0, width: slider.width, height: slider.height),
            wheelRow: pinLength == 0 ? nil : WheelRow(area: wheelArea(cover), count: pinLength), rightToLeft: rightToLeft)
    }

    /// The wheels' row relative to the slider's top-left corner.
    static func wheelArea(_ cover: LockCover) -> Rect {
        let w = cover.wheels
        return Rect(x: w.x - cover.slider.x, y: w.y - cover.slider.y, width: w.width, height: w.height)
    }

    func run() throws(UserError) -> ExitStatus {
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
    func reveal() {
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
    func pass() -> EventLoop.Turn {
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
            if let status = host.keyboardMayHaveChanged(at: now) { return .exit(status) }
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

    func dispatch(_ event: inout XEvent) -> ExitStatus? {
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
                readKeyboardFace()
                return host.keyboardMayHaveChanged(at: boottimeNow())
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
        if let pointer = PointerInput(&event, origin: (origin.x, origin.y), root: true) {
            return handle(pointer, at: now)
        }
        switch event.type {
        case KeyPress:
            send(.keyPressed)
            physicalKeyTyped()
            let status = host.keyPressed(grabs.keymap.keyPress(&event), at: now)
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

    /// The pointer's input, in the slider's coordinates: a click on the banner or the
    /// switch-user button, else the gate's; motion goes to the gate at the next frame
    /// interval.
    private func handle(_ pointer: PointerInput, at now: Double) -> ExitStatus? {
        // Until the server confirms MouseKeys off, the pointer may be the keypad.
        guard !grabs.mouseKeysOn else { return nil }
        let origin = cover.slider
        switch pointer {
        case .motion where keyboard?.visibility.visible == true:
            // Over the open field and its keyboard the pointer drags nothing: its motion is
            // not paced, and a tap after it is read at once.
            break
        case .motion(_, _, let hinted) where hinted || pacer.hints:
            // Where it went is asked at the next frame interval (also after an event sent
            // before the grab turned to hints: only the question lets the next hint come).
            pacer.hinted()
        case .motion(let x, let y, _):
            pacer.moved(x: x, y: y, at: now)
        case .press where focused:
            // A click ends the keyboard's focus, and does nothing else.
            host.endFocus()
        case .press(let x, let y) where cover.banner.contains(x: x + origin.x, y: y + origin.y) && gate.banners.visible(at: now) != nil:
            // A click on the banner dismisses it.
            return host.handle(.bannerClicked, at: now)
        case .press(let x, let y)
        where cover.switchUserWindow != 0 && cover.switchUser.contains(x: x + origin.x, y: y + origin.y) && !gate.isDragging:
            // The switch-user button: its command runs; the lock stays.
            host.switchUser()
        case .press(let x, let y) where !gate.isDragging && control(at: (x + origin.x, y + origin.y)) != nil:
            // A media or power button: the UI asks the player or logind; the lock stays.
            control(at: (x + origin.x, y + origin.y)).map(act)
        case .press(let x, let y) where !gate.isDragging && onScreenKey(at: (x + origin.x, y + origin.y)) != nil:
            return onScreenKey(at: (x + origin.x, y + origin.y)).flatMap { tap($0, at: now) }
        case .press(let x, let y):
            if let status = flushMotion(buttonAt: (x, y)) { return status }
            pointerPressed(at: (x + origin.x, y + origin.y))
            return host.handle(.press(x: x, y: y), at: now)
        case .release where keyboardReleased():
            break
        case .release(let x, let y):
            if let status = flushMotion(buttonAt: (x, y)) { return status }
            pacer.released()
            grabs.motionHints = pacer.hints
            return host.handle(.release, at: now)
        case .scroll(let x, let y, let down) where pinLength > 0:
            return host.handle(.scroll(x: x, y: y, down: down), at: now)
        case .scroll:
            break
        }
        return nil
    }

    /// The screen changed (or the cover was made anew): lay out from what the server says
    /// now. A drag in progress springs back whatever changed: the thumb was held on a
    /// slider that may now be elsewhere, even at the same size.
    func relayout() {
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
    func flushMotion(buttonAt button: (x: Double, y: Double)? = nil) -> ExitStatus? {
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
    func heard(_ input: GateInput, at now: Double) {
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

    func handleSignals() -> ExitStatus? {
        for signal in signals.pending() {
            if let status = host.signaled(signal) { return status }
            if signal == SIGCHLD { lockedHint.reap() }
            if signal == SIGCHLD, let running = ui, let exit = running.process.poll() {
                uiEnded(running, because: "ended (\(UIProcess.describe(exit)))")
            }
        }
        return nil
    }
}

extension FileDescriptor {
    /// Tells the supervisor; a supervisor that is gone hears nothing, and the lock goes on.
    fileprivate func say(_ report: GuardReport) {
        _ = try? write(Array(report.line.utf8))
    }
}
