/// What the person (or the system) did, as plain values in the slider's coordinates.
package enum GateInput: Equatable, Sendable {
    /// The primary button went down at (x, y).
    case press(x: Double, y: Double)
    /// The pointer moved to (x, y).
    case motion(x: Double, y: Double)
    /// The primary button came up.
    case release
    /// The unlock command ended; `succeeded` when it exited 0.
    case unlockCommandFinished(succeeded: Bool)
    /// The window manager asked the window to close.
    case closeRequested
    /// A terminating signal arrived.
    case signal(Int32)
}

/// What the gate asks the program around it to do.
package enum GateAction: Equatable, Sendable {
    case exit(ExitStatus)
    case runUnlockCommand(String)
}

/// The slide gate: inputs and time in, a `Scene` and actions out. It composes the small
/// machines that do the work — the `Slide` (drag and spring), the `Verification` of a
/// completed slide, and the `Presenter` that turns them into a scene — and adds the
/// timeout and the end.
///
/// Time is always an argument (seconds on any monotonic clock); nothing here reads a clock.
package struct Gate: Sendable {
    package struct Settings: Equatable, Sendable {
        package var text: String
        package var unlockCommand: String?
        /// Seconds from the start after which the gate gives up, or nil for never.
        package var timeout: Double?
        package var fps: Int

        package init(text: String, unlockCommand: String? = nil, timeout: Double? = nil, fps: Int = 60) {
            self.text = text
            self.unlockCommand = unlockCommand
            self.timeout = timeout
            self.fps = fps
        }
    }

    package let settings: Settings
    package private(set) var layout: SliderLayout
    package private(set) var slide: Slide
    package private(set) var verification: Verification
    package let presenter: Presenter
    /// When `--timeout` ends the gate.
    package let deadline: Double?
    package private(set) var exitStatus: ExitStatus?
    private var timedOutWhileVerifying = false

    package init(settings: Settings, layout: SliderLayout, start: Double) {
        self.settings = settings
        self.layout = layout
        slide = Slide(start: start)
        verification = Verification()
        presenter = Presenter(text: settings.text, fps: settings.fps)
        deadline = settings.timeout.map { start + $0 }
    }

    /// The parts that change as the gate runs: what one process hands another so that both
    /// gates go on alike.
    package struct Snapshot: Equatable, Sendable {
        package var slide: Slide.Phase
        package var verification: Verification.State

        package init(slide: Slide.Phase, verification: Verification.State) {
            self.slide = slide
            self.verification = verification
        }
    }

    package var snapshot: Snapshot { Snapshot(slide: slide.phase, verification: verification.state) }

    /// A gate that carries on from `snapshot`.
    package init(settings: Settings, layout: SliderLayout, start: Double, snapshot: Snapshot) {
        self.init(settings: settings, layout: layout, start: start)
        slide = Slide(phase: snapshot.slide)
        verification = Verification(state: snapshot.verification)
    }

    package var isDragging: Bool { slide.isDragging }

    /// Lays the slider out anew (the screen or window changed size or moved). A drag in
    /// progress is cancelled and the thumb springs back: the slider moved under the
    /// pointer, so where the pointer is says nothing about where the person meant it.
    package mutating func relayout(_ newLayout: SliderLayout, at now: Double) {
        if newLayout != layout { cancelDrag(at: now) }
        layout = newLayout
    }

    /// Ends a drag in progress without completing it: the thumb springs back.
    package mutating func cancelDrag(at now: Double) {
        if slide.isDragging { slide.cancel(at: now) }
    }

    /// The parts as they are at `now`: a finished spring-back is rest, an expired refusal is
    /// idle, and the shimmer starts afresh when a refusal stops showing.
    private func settled(at now: Double) -> (slide: Slide, verification: Verification) {
        var slide = self.slide
        var verification = self.verification
        slide.advance(to: now)
        if case .refused(let until) = verification.state, now >= until {
            verification.advance(to: now)
            slide.restRestarts(at: until)
        }
        return (slide, verification)
    }

    /// Lets time pass: ends a spring-back, a refusal, or the whole gate on timeout.
    package mutating func advance(to now: Double) -> GateAction? {
        guard exitStatus == nil else { return nil }
        (slide, verification) = settled(at: now)
        if let deadline, now >= deadline {
            if verification.isVerifying {
                timedOutWhileVerifying = true
                return nil
            }
            return finish(.timedOut)
        }
        return nil
    }

    package mutating func handle(_ input: GateInput, at now: Double) -> GateAction? {
        if let action = advance(to: now) { return action }
        guard exitStatus == nil else { return nil }
        switch input {
        case .signal(let n):
            return finish(.signal(n))
        case .closeRequested:
            return finish(.windowClosed)
        case .press(let x, let y):
            guard !verification.isVerifying, slide.canGrab(at: now),
                layout.thumb(at: slide.value(at: now)).contains(x: x, y: y)
            else { return nil }
            slide.grab(at: layout.position(forPointerX: x), now: now)
            verification.dismissRefusal()
        case .motion(let x, _):
            slide.move(to: layout.position(forPointerX: x))
        case .release:
            guard slide.release(at: now) else { return nil }
            guard let command = settings.unlockCommand else { return finish(.completed) }
            verification.begin()
            return .runUnlockCommand(command)
        case .unlockCommandFinished(let succeeded):
            guard verification.isVerifying else { return nil }
            verification.finish(granted: succeeded, at: now)
            if succeeded { return finish(.completed) }
            if timedOutWhileVerifying { return finish(.timedOut) }
            slide.cancel(at: now)
        }
        return nil
    }

    private mutating func finish(_ status: ExitStatus) -> GateAction {
        exitStatus = status
        return .exit(status)
    }

    /// The thumb's value at `now`: 0 at the start, 1 at the end.
    package func thumbValue(at now: Double) -> Double {
        settled(at: now).slide.value(at: now)
    }

    package func scene(at now: Double) -> Scene {
        let (slide, verification) = settled(at: now)
        return presenter.scene(slide: slide.phase, value: slide.value(at: now), verification: verification.state, at: now)
    }

    /// Whether the scene changes by itself after `now` (the shimmer, a spring-back).
    package func animates(at now: Double) -> Bool {
        let (slide, verification) = settled(at: now)
        return presenter.nextFrame(slide: slide.phase, verification: verification.state, after: now) != nil
    }

    /// When the gate next has to act without input (the timeout), or nil: what a process
    /// that only decides, and draws nothing, waits for.
    package var nextActionDeadline: Double? {
        verification.isVerifying || exitStatus != nil ? nil : deadline
    }

    /// When the scene next changes or the gate next has to act without any input, or nil
    /// when nothing will happen until input arrives.
    package func nextDeadline(after now: Double) -> Double? {
        guard exitStatus == nil else { return nil }
        let (slide, verification) = settled(at: now)
        var next = [presenter.nextFrame(slide: slide.phase, verification: verification.state, after: now)]
        if !verification.isVerifying { next.append(deadline) }
        if case .refused(let until) = verification.state { next.append(until) }
        return next.compactMap { $0 }.min()
    }
}
