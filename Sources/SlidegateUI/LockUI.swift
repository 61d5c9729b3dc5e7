import CX11
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// Lock mode's UI (`slidegate-ui --lock-ui`): draws the slider, the banners, the message
/// line, the wheels, the clock and the picture in the windows the guard made, mirroring the
/// guard's gate from its messages. It decides nothing: the guard does, with its `GateHost`.
/// One event loop from the handshake on; it ends when the guard closes its end.
package final class LockUI {
    private let options: Options
    private let display: XDisplay
    private let signals: SignalWatch
    private let loop: EventLoop
    private let link: GuardLink
    private let fontMap: FontMap
    private let stage: GuardedWindow
    private let painter: SliderPainter
    private let blanking: Blanking
    private let gateSettings: Gate.Settings
    /// The guard's gate as its messages say, to animate between them.
    private var gate: Gate
    /// The guard's messages of one read, kept between reads so a message allocates nothing.
    private var inbox: [GuardMessage] = []
    /// What was typed, for a prompt whose answer may be shown (the guard says).
    private var echoText: String?
    /// The guard's windows for banners, for `--message`, the wheels and the clock (0: none).
    private let windows: Handshake.Windows
    private var bannerWindow: NoticeWindow?
    private var messageWindow: NoticeWindow?
    /// `--switch-user-command`'s button, drawn again when the focus comes or goes.
    private var switchUserButton: NoticeWindow?
    /// The control the keyboard's focus is on (Tab), as the guard says.
    private var focused: LockControl?
    /// The banner as last painted.
    private var shownBanner: Scene.BannerView??
    /// The PIN wheels' row relative to the slider, as the guard's `layout` says.
    private var wheelArea: Rect?
    private var clockPanel: ClockPanel?
    /// `--status-command`, run for the line under the clock.
    private var statusCommand: StatusCommand?
    /// The glances and controls that read the buses, started once the first frame settled.
    private var glances: Glances?
    /// `--show-media`'s panel and `--power-actions`' row.
    private var mediaPanel: NoticeWindow?
    private var powerRow: NoticeWindow?
    /// `--keyboard`'s on-screen keyboard, and what the guard last said it shows.
    private var keyboardPanel: KeyboardPanel?
    /// `--speak`'s voice, once the first frame is on the screen (nil before, or without one).
    private var speech: Speech?
    private var speechStarted = false
    private var keyboardShown: (face: KeyboardFace?, state: KeyboardState) = (nil, KeyboardState())
    /// The event loop's watch of the clock panel's timer.
    private var clockWatch: EventLoop.Watch?
    /// `--image` on the cover, and under each window.
    private var wallpaper: Wallpaper?
    /// Where the slider's first frame is kept for the next lock, the checksum of what the
    /// guard showed from there, and the scene that frame is, until the frame has been kept
    /// (or found kept).
    private var firstFrame: (file: FirstFrameFile, shown: UInt64, scene: Scene)?
    /// The guard has yet to hear that a frame is on screen (or would be, but the screen is blank).
    private var drawnUntold = true
    /// Until when the first frame settles: keeping it and giving pages back wait.
    private var settlesAt: Double?
    /// The guard asked for the slider's parts to draw a drag itself (`lend`), and the parts
    /// it has, while it draws the slider and the UI paints nothing there.
    private var lendAsked = false
    private var lentParts: LentParts?

    /// The guard's handshake on descriptor 3 — hello, the settings, the windows — then draws
    /// into those windows, following the guard's messages, until the guard closes its end.
    package static func run() -> ExitStatus {
        StartupTrace.mark("ui:running")
        // Fonts in a thread (fontconfig's set-up, most of a cold start), while the guard
        // covers the screen and this thread waits for its first word, connects to the X
        // server, reads the handshake and draws what needs no text.
        let fonts = FontMap.loadingInBackground()
        OutOfMemoryProtection.set(300)
        do {
            let signals = try SignalWatch()
            let link = try GuardLink(descriptor: 3)
            link.send(.hello(protocol: GuardProtocol.version, build: Options.version))
            guard link.guardSpoke() else { return .completed }
            let display = try XDisplay()
            StartupTrace.mark("ui:connected")
            let loop = try EventLoop(display: display, synthetic: .ignored)
            let handshake = Handshake(link: link)
            loop.watch(signals.fileDescriptor, name: "the signal watch") { () throws(UserError) in
                signals.pending().first { $0 != SIGCHLD }.map { .signal($0) }
            }
            loop.watch(link.descriptor, name: "the guard's socket", peer: true) { () throws(UserError) in try handshake.read() }
            let status = try loop.run(
                event: { (_: inout XEvent) throws(UserError) in nil },
                pass: { () throws(UserError) in handshake.layout == nil ? .wait(until: nil) : .exit(.completed) })
            guard let windows = handshake.windows, let layout = handshake.layout else { return status }
            StartupTrace.mark("ui:has-windows")
            let ui = try LockUI(
                display: display, signals: signals, loop: loop, link: link, fonts: fonts, settings: handshake.settings,
                windows: windows, layout: layout)
            try ui.apply(handshake.pending)
            return try ui.run()
        } catch {
            report(error.message)
            return error.status
        }
    }

    private init(
        display: XDisplay, signals: SignalWatch, loop: EventLoop, link: GuardLink, fonts: FontMap, settings: UISettings?,
        windows: Handshake.Windows, layout: Handshake.Layout
    ) throws(UserError) {
        var options = Options()
        if let settings {
            guard let sent = settings.options else {
                throw UserError("--lock-ui: cannot understand the guard: settings it cannot parse", status: .uiProtocolError)
            }
            options = sent
        }
        options.idleLimit = testIdleLimit() ?? options.idleLimit
        let look = Look(lockUI: options)
        if let color = look.foreground, !options.foregroundGiven { options.foreground = color }
        if let color = look.background, !options.backgroundGiven { options.background = color }
        self.options = options
        self.display = display
        self.signals = signals
        self.loop = loop
        self.link = link
        self.windows = windows
        stage = try GuardedWindow(display: display, window: windows.slider, width: layout.width, height: layout.height)
        wheelArea = layout.wheels
        // The picture before the slider: they appear together.
        // The desktop follows the first frame, which is kept without it (`showDesktop`).
        wallpaper = try options.image.flatMap { (path) throws(UserError) in
            options.imageIsDesktop
                ? nil
                : try Wallpaper(
                    display: display, cover: windows.cover, source: .file(path), mode: options.imageMode, background: options.background,
                    blur: options.blur * (options.scale ?? 1), dim: options.dim)
        }
        _ = wallpaper?.refresh()
        var gateSettings = options.gateSettings
        gateSettings.pinLength = settings?.pinLength ?? 0
        gateSettings.deadline = settings?.deadline
        gateSettings.graceUntil = settings?.graceUntil
        gateSettings.holdsMatches = settings?.holdsMatches ?? true
        self.gateSettings = gateSettings
        gate = Gate(settings: gateSettings, layout: Self.sliderLayout(stage.slider, wheels: layout.wheels, gateSettings), start: boottimeNow())
        blanking = Blanking(display)
        self.fontMap = fonts
        painter = try SliderPainter(
            display: display, stage: stage, options: options, fontMap: fonts, look: look,
            backdrop: wallpaper?.backdrop(under: stage.window))
        // What draws text waits for the fonts; the rest is drawn meanwhile.
        try painter.prepare(gate.scene(at: boottimeNow()))
        fonts.wait()
        StartupTrace.mark("ui:fonts-loaded")
        try makeWheelsPanel()
        try makeNoticeWindows()
        if let command = options.statusCommand {
            let status = StatusCommand(command: command, interval: options.statusInterval, loop: loop, now: boottimeNow())
            status.changed = { [unowned self, unowned status] in clockPanel?.show(status: status.line) }
            statusCommand = status
        }
    }

    private func run() throws(UserError) -> ExitStatus {
        loop.watch(signals.fileDescriptor, name: "the signal watch") { [unowned self] () throws(UserError) in handleSignals() }
        loop.watch(link.descriptor, name: "the guard's socket", peer: true) { [unowned self] () throws(UserError) in try readGuard() }
        let status = try loop.run(
            event: { [unowned self] (event: inout XEvent) throws(UserError) in try dispatch(&event) },
            pass: { [unowned self] () throws(UserError) in try pass() })
        if let speech {
            // The guard's last words (the verdict that opened the lock) may wait behind the
            // signal that ends the UI: they are read, and said, before it goes.
            _ = try? readGuard()
            speech.follow(SpokenView(gate: gate, at: boottimeNow(), focused: focused, strings: gateSettings.strings))
            speech.finish(within: 0.09)
        }
        return status
    }

    private func pass() throws(UserError) -> EventLoop.Turn {
        let now = boottimeNow()
        if case .exit(.signal(let n)) = gate.advance(to: now) { return .exit(.signal(n)) }
        statusCommand?.advance(to: now, blank: blanking.isBlank)
        var earliest = Earliest()
        if let glances {
            earliest.consider(try glances.advance(to: now, blank: blanking.isBlank, media: mediaPanel, power: powerRow))
        }
        earliest.consider(
            try painter.frame(
                gate, at: now, echo: echoText, blanking: blanking, clock: clockPanel, limit: nil, idle: gate.nextActionDeadline,
                also: { [unowned self] (scene) throws(UserError) in try paintBanner(scene.banner) }))
        earliest.consider(statusCommand?.deadline(blank: blanking.isBlank))
        // After the slider: a key's bullet does not wait for the keyboard.
        try keyboardPanel?.paintIfDue()
        let deadline = earliest.time
        if lendAsked { lend(at: now) }
        // A blank screen is drawn when it comes back; the guard need not step in.
        if drawnUntold, painter.shown != nil || blanking.isBlank {
            XSync(display.pointer, 0)
            link.send(.drawn)
            StartupTrace.mark("ui:first-frame")
            drawnUntold = false
            blanking.follow()
            settlesAt = now + UISupervision.settleAfterFirstFrame
        }
        // The desktop follows the first frame at once: it is what the lock is looked at for.
        // The frame kept for the next lock is drawn apart first, over the plain background:
        // the slider on the screen is not at rest yet, and once the desktop shows it holds
        // the desktop's pixels.
        if wallpaper == nil, options.imageIsDesktop, windows.desktop != 0, !drawnUntold {
            if let (file, kept, resting) = firstFrame { keep(try painter.drawnApart(resting), in: file, unless: kept) }
            try showDesktop()
            StartupTrace.mark("ui:desktop-shown")
        }
        if let until = settlesAt, now < until { return .wait(until: min(deadline ?? until, until)) }
        settlesAt = nil
        if firstFrame != nil { keepFirstFrame() }
        if glances == nil, options.showMedia || options.showBattery || !options.powerActions.isEmpty {
            let started = Glances(options: options, loop: loop, link: link)
            started.batteryChanged = { [unowned self, unowned started] in clockPanel?.show(battery: started.battery) }
            glances = started
            return .wait(until: boottimeNow())
        }
        if options.speak {
            if !speechStarted {
                speechStarted = true
                speech = Speech(strings: gateSettings.strings, locks: true)
            }
            speech?.follow(SpokenView(gate: gate, at: now, focused: focused, strings: gateSettings.strings))
        }
        // With --speak the seconds left are said every ten.
        if speech != nil, let end = gate.deadline, end > now {
            earliest.consider(end - 10 * ((end - now) / 10).rounded(.up) + 10)
        }
        painter.shed(at: now, deadline: earliest.time)
        return .wait(until: earliest.time)
    }

    /// `--image desktop`, once the first frame has been kept over the plain background: the
    /// guard's copy of the screen, blurred, under everything, which is drawn again over it.
    private func showDesktop() throws(UserError) {
        // Not a pixel of the desktop is written anywhere: no frame is kept from here on.
        firstFrame = nil
        let desktop = try Wallpaper(
            display: display, cover: windows.cover, source: .desktop(windows.desktop), mode: options.imageMode, background: options.background,
            blur: options.blur * (options.scale ?? 1), dim: options.dim)
        wallpaper = desktop
        if desktop.refresh() {
            try relayout()
            try makeNoticeWindows()
        }
    }

    /// The banner strip, when its banner changed.
    private func paintBanner(_ banner: Scene.BannerView?) throws(UserError) {
        guard let strip = bannerWindow, shownBanner != .some(banner) else { return }
        try strip.paint { (renderer, cr) throws(RenderError) in try renderer.drawBanner(banner, into: cr) }
        shownBanner = .some(banner)
    }

    /// Answers the guard's `lend` with the slider's parts, on the server before the answer
    /// goes; or says it cannot lend them (the thumb is not held any more, the track shows
    /// more than a drag changes, the screen is blank).
    private func lend(at now: Double) {
        lendAsked = false
        let parts = gate.isDragging && !blanking.isBlank ? (try? painter.renderer.dragParts(for: gate.scene(at: now))) ?? nil : nil
        guard let parts, let lent = LentParts(display: display, window: stage.window, parts: parts) else {
            link.send(.notLent)
            return
        }
        lentParts = lent
        painter.lent = true
        link.send(.lent(lent.parts))
    }

    /// Once the slider shows what every lock starts with, keeps it for the next lock's guard
    /// to show while its UI starts, unless that is what the guard showed.
    private func keepFirstFrame() {
        guard let (file, kept, resting) = firstFrame, var scene = painter.shown else { return }
        // The wheels and banners have windows of their own.
        scene.wheels = nil
        scene.banner = nil
        guard scene == resting else { return }
        keep(painter.surface, in: file, unless: kept)
    }

    /// Keeps what `surface` holds in `file` for the next lock, unless the guard showed that
    /// (its checksum is `kept`).
    private func keep(_ surface: WindowSurface, in file: FirstFrameFile, unless kept: UInt64) {
        firstFrame = nil
        let problem = surface.withPixels { (pixels) -> SystemError? in
            let checksum = FirstFrameFile.checksum(pixels)
            guard checksum != kept else { return nil }
            do throws(SystemError) {
                try file.store(pixels, width: surface.width, height: surface.height, depth: Int(stage.depth), checksum: checksum)
                return nil
            } catch {
                return error
            }
        }
        if let problem = problem ?? nil { report("cannot keep the slider's first frame for the next lock: \(problem.description)") }
    }

    /// Only a terminating signal ends the UI (the guard decides the rest), whatever the
    /// mirrored gate's state: once the gate has ended (the guard's stopping it after an
    /// unlock), the gate takes no more input, and the UI must still go at once.
    private func handleSignals() -> ExitStatus? {
        let pending = signals.pending()
        if pending.contains(SIGCHLD) { statusCommand?.reap() }
        return pending.first { $0 != SIGCHLD }.map { .signal($0) }
    }

    /// Applies the guard's messages. The guard closing its end ends the UI.
    private func readGuard() throws(UserError) -> ExitStatus? {
        inbox.removeAll(keepingCapacity: true)
        guard try link.receive(into: &inbox) else { return .completed }
        try apply(inbox)
        return nil
    }

    private func apply(_ messages: [GuardMessage]) throws(UserError) {
        for message in messages {
            switch message {
            case .hello, .settings, .windows:
                throw UserError("--lock-ui: cannot understand the guard: \(message.kind) after the handshake", status: .uiProtocolError)
            case .ping(let sequence):
                link.send(.pong(sequence))
            case .firstFrame(let path, let key, let shown):
                // Once the desktop shows, no frame is kept: the slider's pixels hold it.
                if wallpaper == nil { firstFrame = (FirstFrameFile(path: path, key: key), shown, gate.restingScene) }
            case .lend:
                lendAsked = true
            case .giveBack:
                lentParts = nil
                painter.lent = false
                painter.forget()
            case .echo(let text):
                echoText = text
                painter.changed = true
            case .keyPressed:
                blanking.inputArrived()
                painter.changed = true
            case .layout(let width, let height, let wheels):
                _ = wallpaper?.refresh()
                // A slider laid out anew is not what the next lock starts with.
                firstFrame = nil
                stage.resize(width: width, height: height)
                wheelArea = wheels
                try relayout()
                try makeNoticeWindows()
            case .state(let snapshot):
                gate = Gate(settings: gateSettings, layout: gate.layout, start: boottimeNow(), snapshot: snapshot)
                painter.changed = true
            case .input(let input, let time):
                blanking.inputArrived()
                _ = gate.handle(input, at: time)
                painter.changed = true
            case .act(let control):
                glances?.perform(control)
            case .screenKeyboard(let face, let state):
                keyboardShown = (face, state)
                keyboardPanel?.show(face, state)
            case .focus(let control):
                let before = focused
                focused = control
                glances?.focused = control
                if (before == .switchUser) != (control == .switchUser) { try paintSwitchUser() }
            }
        }
    }

    /// The clock, the banner strip, the message line and the controls' windows, at the
    /// sizes the server gives them now; the message is drawn once.
    private func makeNoticeWindows() throws(UserError) {
        clockWatch.map(loop.unwatch)
        clockWatch = nil
        clockPanel =
            windows.clock == 0
            ? nil
            : try ClockPanel(
                display: display, window: windows.clock, options: options, fontMap: fontMap,
                backdrop: wallpaper?.backdrop(under: windows.clock),
                statusHeight: options.statusCommand == nil && !options.showBattery ? 0 : LockPlacement.statusLineHeight(forSlider: stage.slider.height),
                userHeight: options.showUser ? LockPlacement.userHeight(forSlider: stage.slider.height) : 0)
        if let status = statusCommand { clockPanel?.show(status: status.line) }
        clockPanel?.show(battery: glances?.battery)
        if let clock = clockPanel {
            clockWatch = loop.watch(clock.timer.descriptor, name: "the clock's timer") { [unowned self] () throws(UserError) in
                clockPanel?.timerFired()
                return nil
            }
        }
        bannerWindow = try windows.banner == 0 ? nil : NoticeWindow(
            display: display, window: windows.banner, options: options, fontMap: fontMap, textScale: 0.28,
            backdrop: wallpaper?.backdrop(under: windows.banner))
        shownBanner = nil
        switchUserButton = try windows.switchUser == 0 ? nil : NoticeWindow(
            display: display, window: windows.switchUser, options: options, fontMap: fontMap, textScale: 0.42,
            backdrop: wallpaper?.backdrop(under: windows.switchUser))
        mediaPanel = try windows.media == 0 ? nil : NoticeWindow(
            display: display, window: windows.media, options: options, fontMap: fontMap, textScale: 0.22,
            backdrop: wallpaper?.backdrop(under: windows.media))
        powerRow = try windows.power == 0 ? nil : NoticeWindow(
            display: display, window: windows.power, options: options, fontMap: fontMap, textScale: 0.38,
            backdrop: wallpaper?.backdrop(under: windows.power))
        glances?.windowsChanged()
        keyboardPanel = windows.keyboard == 0 ? nil : KeyboardPanel(
            display: display, window: windows.keyboard, options: options, fontMap: fontMap,
            backdrop: { [unowned self] in wallpaper?.backdrop(under: windows.keyboard) })
        keyboardPanel?.show(keyboardShown.face, keyboardShown.state)
        try paintSwitchUser()
        guard windows.message != 0, let text = options.message else { return }
        let line = try NoticeWindow(
            display: display, window: windows.message, options: options, fontMap: fontMap, textScale: 0.55,
            backdrop: wallpaper?.backdrop(under: windows.message))
        try line.paint { (renderer, cr) throws(RenderError) in try renderer.drawMessage(text, into: cr) }
        messageWindow = line
    }

    private func paintSwitchUser() throws(UserError) {
        guard let button = switchUserButton else { return }
        let whole = Rect(x: 0, y: 0, width: button.renderer.width, height: button.renderer.height)
        let (label, ringed) = (options.strings[.switchUser], focused == .switchUser ? 0 : nil)
        try button.paint { (renderer, cr) throws(RenderError) in try renderer.drawButtons([(label, whole)], focused: ringed, into: cr) }
    }

    /// The guard laid the slider out anew: the mirror, the painter and the wheels follow.
    private func relayout() throws(UserError) {
        gate.relayout(Self.sliderLayout(stage.slider, wheels: wheelArea, gateSettings), at: boottimeNow())
        try painter.relayout(backdrop: wallpaper?.backdrop(under: stage.window))
        try makeWheelsPanel()
    }

    /// The slider's layout as the guard's `layout` says, which is the guard's gate's.
    private static func sliderLayout(_ bounds: Rect, wheels: Rect?, _ settings: Gate.Settings) -> SliderLayout {
        SliderLayout(bounds: bounds, wheelRow: wheels.map { WheelRow(area: $0, count: settings.pinLength) }, rightToLeft: settings.rightToLeft)
    }

    private func makeWheelsPanel() throws(UserError) {
        if gateSettings.pinLength > 0 && windows.wheels != 0 {
            painter.wheelsPanel = try WheelsPanel(
                display: display, guardWindow: windows.wheels, count: gateSettings.pinLength, options: options, fontMap: fontMap,
                backdrop: wallpaper?.backdrop(under: windows.wheels))
        }
    }

    private func dispatch(_ event: inout XEvent) throws(UserError) -> ExitStatus? {
        if blanking.handle(&event) {
            painter.forget()
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
        guard event.type == Expose else { return nil }
        let e = event.xexpose
        if e.window == wallpaper?.cover {
            wallpaper?.expose(Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)))
            return nil
        }
        guard e.count == 0 else { return nil }
        if e.window == stage.window { painter.exposed() }
        for notice in [bannerWindow, messageWindow, switchUserButton, mediaPanel, powerRow].compactMap({ $0 }) where notice.window == e.window {
            try notice.exposed()
        }
        if let panel = painter.wheelsPanel, panel.window == e.window { panel.present() }
        if let keyboard = keyboardPanel, keyboard.window == e.window { try keyboard.exposed() }
        if let clock = clockPanel, clock.window == e.window { try clock.exposed() }
        return nil
    }
}

/// The start of lock mode's conversation with the guard: its hello (checked by `GuardLink`),
/// the settings, then the windows; whatever came with the windows is applied once the UI
/// has them.
final class Handshake {
    struct Windows {
        var cover: Window
        var slider: Window
        var banner: Window
        var message: Window
        var wheels: Window
        var clock: Window
        var switchUser: Window
        var media: Window
        var power: Window
        /// `--image desktop`'s copy of the screen (0: none).
        var desktop: Pixmap
        /// The on-screen keyboard (0: none).
        var keyboard: Window
    }

    /// The guard's first `layout`, which follows its windows.
    struct Layout {
        var width: Int
        var height: Int
        var wheels: Rect?
    }

    private let link: GuardLink
    private(set) var settings: UISettings?
    private(set) var windows: Windows?
    private(set) var layout: Layout?
    /// The messages that came after the layout in the same read.
    private(set) var pending: [GuardMessage] = []

    init(link: GuardLink) {
        self.link = link
    }

    /// Reads what arrived: nil to wait on, `.completed` when the guard closed its end.
    func read() throws(UserError) -> ExitStatus? {
        var messages: [GuardMessage] = []
        guard try link.receive(into: &messages) else { return .completed }
        for message in messages {
            switch message {
            case _ where layout != nil:
                pending.append(message)
            case .layout(let width, let height, let wheels) where windows != nil:
                layout = Layout(width: width, height: height, wheels: wheels)
            case _ where windows != nil:
                throw UserError("--lock-ui: cannot understand the guard: \(message.kind) before the slider's layout", status: .uiProtocolError)
            case .hello:
                continue
            case .settings(let received):
                settings = received
            case .windows(
                let cover, let slider, let banner, let message, let wheels, let clock, let switchUser, let media, let power, let desktop, let keyboard):
                windows = Windows(
                    cover: Window(cover), slider: Window(slider), banner: Window(banner), message: Window(message), wheels: Window(wheels),
                    clock: Window(clock), switchUser: Window(switchUser), media: Window(media), power: Window(power), desktop: Pixmap(desktop),
                    keyboard: Window(keyboard))
            default:
                throw UserError("--lock-ui: cannot understand the guard: \(message.kind) before its windows", status: .uiProtocolError)
            }
        }
        return nil
    }
}
