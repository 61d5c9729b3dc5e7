import CX11
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateHost
import SlidegateSystem
import SlidegateXlib

/// The guard's side of its drawing program: starting it, the messages both ways, the
/// slider lent for a drag, and a UI replaced.
extension Guard {
    /// The slider's size and the wheels' row, for the UI to lay out as the guard's gate does.
    func sendLayout() {
        send(
            .layout(
                width: Int(pixels: cover.slider.width), height: Int(pixels: cover.slider.height),
                wheels: pinLength == 0 ? nil : Self.wheelArea(cover)))
    }

    /// Sends a message to the UI, if one runs; replaces a UI that stopped taking them. Any
    /// message but a ping or motion ends a loan first: what it changes, the UI paints.
    func send(_ message: GuardMessage) {
        switch message {
        case .ping, .input(.motion, _): break
        default: endLoan()
        }
        post(message)
    }

    /// Sends a message as it is, loan or not.
    func post(_ message: GuardMessage) {
        guard let running = ui, let reason = running.send(message) else { return }
        replaceUI(running, because: reason)
    }

    /// A press caught the thumb: asks the UI for the slider's parts, if a drag changes
    /// nothing but the thumb's place and the label's alpha.
    func askForSlider(at now: Double) {
        guard gate.slide.isDragging, ui?.drawn == true, fallback == nil, loan.begin(gate.scene(at: now)) else { return }
        post(.lend)
    }

    /// The UI answered `lend`. Parts that came too late (the drag ended, or the track changed
    /// meanwhile) go back at once; an answer nobody asked for while the guard draws is ignored.
    func lent(_ parts: SliderParts?) {
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
    func drawLentSlider(at now: Double) -> Bool {
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
    func endLoan() {
        if let ending = loan.end() { finish(ending) }
    }

    /// Stops drawing the slider.
    func giveBack() {
        if let ending = loan.giveBack() { finish(ending) }
    }

    /// Once the server has done the guard's frames, the UI gets the newest motion and the
    /// slider back.
    func finish(_ ending: DragLoan<LentSlider>.Ending) {
        ending.slider.finish()
        if let (input, time) = ending.motion { post(.input(input, at: time)) }
        post(.giveBack)
    }

    func readUI() {
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
            // Only controls the lock was asked for can be hit.
            if let shown = received.controls {
                shownControls = shown.filter(offeredControls.contains)
                host.focusable = focusable
            }
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

    /// The shown control whose button is at `point` (on the root window), if any.
    func control(at point: (x: Double, y: Double)) -> LockControl? {
        let media = cover.media
        if cover.mediaWindow != 0, media.contains(x: point.x, y: point.y) {
            return ControlPlacement.mediaButtons(in: (media.width, media.height), rightToLeft: options.rightToLeft).first { control, rect in
                shownControls.contains(control) && rect.contains(x: point.x - media.x, y: point.y - media.y)
            }?.0
        }
        let row = cover.power
        guard cover.powerWindow != 0, row.contains(x: point.x, y: point.y) else { return nil }
        let shown = options.powerActions.filter { shownControls.contains(.power($0)) }
        return ControlPlacement.powerButtons(
            shown, in: (row.width, row.height), configured: options.powerActions.count, rightToLeft: options.rightToLeft)
            .first { $0.1.contains(x: point.x - row.x, y: point.y - row.y) }.map { .power($0.0) }
    }

    /// A control was pressed (its button, or its media key): the UI carries it out, if it
    /// shows it.
    func act(_ control: LockControl) {
        guard shownControls.contains(control) else { return }
        send(.act(control))
    }

    /// The controls Tab moves through, in reading order: those the UI shows, then the
    /// switch-user button.
    var focusable: [LockControl] { shownControls + (cover.switchUserWindow != 0 ? [.switchUser] : []) }

    /// Whether the keyboard's focus is on a control.
    var focused: Bool { host.focusedControl != nil }

    /// The session's LockedHint is true from the first time the slider shows.
    func sayLocked() {
        guard !lockedHintSaid else { return }
        lockedHintSaid = true
        lockedHint.set(true)
    }

    /// Starts a UI, or takes the one started before the lock, and hands it the settings,
    /// the slider window, its size and the gate's state.
    func startUI(_ early: EarlyUI? = nil) {
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
                    wheels: UInt64(clamping: cover.wheelsWindow), clock: UInt64(clamping: cover.clockWindow), switchUser: UInt64(clamping: cover.switchUserWindow),
                    media: UInt64(clamping: cover.mediaWindow), power: UInt64(clamping: cover.powerWindow),
                    desktop: UInt64(clamping: cover.desktop), keyboard: UInt64(clamping: cover.keyboardWindow)))
            sendLayout()
            send(.state(gate.snapshot))
            tellKeyboard(always: true)
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
    static func startEarly(_ program: Executable, socket: inout (guardEnd: FileDescriptor, uiEnd: FileDescriptor)?) -> EarlyUI? {
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


    /// The UI is done for: the screen stays covered and grabbed; a new UI starts at once, or
    /// after a back-off (0.1 s doubling to 5 s) while UIs keep dying within 2 s of starting.
    func uiEnded(_ process: UIProcess, because reason: String) {
        uiWatch.map(loop.unwatch)
        uiWatch = nil
        ui = nil
        loan.drop()
        shownControls = []
        host.focusable = focusable
        let now = boottimeNow()
        report("the slider's drawing program \(reason); starting another")
        supervision.ended(at: now, after: now - process.process.started)
    }

    /// Ends a UI that hangs, misbehaves or lost its window, and starts another.
    func replaceUI(_ process: UIProcess, because reason: String) {
        process.process.signal(SIGKILL)
        process.process.stop()
        uiEnded(process, because: reason)
    }

    /// Has the lock painted again at each of `exposeDelays` after `now`.
    func exposeSoon(from now: Double) {
        exposeAt = Self.exposeDelays.map { now + $0 }
    }

    /// Ends the UI and waits briefly for it, so no drawing outlives the lock.
    func stopUI() {
        guard let running = ui else { return }
        uiWatch.map(loop.unwatch)
        uiWatch = nil
        ui = nil
        loan.drop()
        shownControls = []
        supervision.stopped()
        running.process.stop()
    }

    /// The screen saver came on or went off: a blank screen's UI sleeps and owes no pings.
    func blankingChanged() {
        if blanking.isBlank { frameShown() }
        supervision.blankChanged(blanking.isBlank, at: boottimeNow())
        if blanking.isBlank { ui?.forgetPing() }
    }
}
