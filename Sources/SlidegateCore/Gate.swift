/// What the person (or the system) did, as plain values in the slider's coordinates.
public enum GateInput: Equatable, Sendable {
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
public enum GateAction: Equatable, Sendable {
    case exit(ExitStatus)
    case runUnlockCommand(String)
}

/// The slide gate as a state machine: inputs and time in, a `Scene` and actions out.
///
/// Time is always an argument (seconds on any monotonic clock); nothing here reads a clock.
public struct Gate: Sendable {
    public struct Settings: Equatable, Sendable {
        public var text: String
        public var unlockCommand: String?
        /// Seconds from the start after which the gate gives up, or nil for never.
        public var timeout: Double?
        public var fps: Int
        public var springDuration: Double = 0.35
        public var messageDuration: Double = 2.5
        public var shimmer = Shimmer()
        public var busyText = "unlocking…"
        public var failureText = "unlock failed"

        public init(text: String, unlockCommand: String? = nil, timeout: Double? = nil, fps: Int = 60) {
            self.text = text
            self.unlockCommand = unlockCommand
            self.timeout = timeout
            self.fps = fps
        }
    }

    /// Where the thumb is in its life cycle.
    public enum Phase: Equatable, Sendable {
        case resting(since: Double)
        case dragging(grabOffset: Double, value: Double)
        case springing(from: Double, start: Double)
        case unlocking
        case finished(ExitStatus)
    }

    public let settings: Settings
    public private(set) var layout: SliderLayout
    public private(set) var phase: Phase
    /// When the "unlock failed" message goes away, while it shows.
    private var messageUntil: Double?
    /// When `--timeout` ends the gate.
    public let deadline: Double?
    private var timedOutWhileUnlocking = false

    public init(settings: Settings, layout: SliderLayout, start: Double) {
        self.settings = settings
        self.layout = layout
        phase = .resting(since: start)
        deadline = settings.timeout.map { start + $0 }
    }

    /// Everything that changes as the gate runs, to hand a gate's state to another process.
    public struct Snapshot: Equatable, Sendable {
        public var phase: Phase
        public var messageUntil: Double?

        public init(phase: Phase, messageUntil: Double?) {
            self.phase = phase
            self.messageUntil = messageUntil
        }
    }

    public var snapshot: Snapshot { Snapshot(phase: phase, messageUntil: messageUntil) }

    /// A gate that carries on from `snapshot`.
    public init(settings: Settings, layout: SliderLayout, start: Double, snapshot: Snapshot) {
        self.init(settings: settings, layout: layout, start: start)
        phase = snapshot.phase
        messageUntil = snapshot.messageUntil
    }

    /// The status the gate ended with, once it has.
    public var exitStatus: ExitStatus? {
        if case .finished(let status) = phase { return status }
        return nil
    }

    public var isDragging: Bool {
        if case .dragging = phase { return true }
        return false
    }

    /// Lays the slider out anew (the screen or window changed size); a drag in progress
    /// keeps its value.
    public mutating func relayout(_ newLayout: SliderLayout) {
        layout = newLayout
    }

    /// The phase and message as they are at `now`, with a finished spring-back turned into
    /// rest and an expired message dropped: what `scene`, `thumbValue` and `nextDeadline`
    /// read, so they are right for any `now` without `advance` having been called.
    private func settled(at now: Double) -> (phase: Phase, messageUntil: Double?) {
        var phase = self.phase
        var messageUntil = self.messageUntil
        if case .springing(_, let start) = phase, now >= start + settings.springDuration {
            phase = .resting(since: start + settings.springDuration)
        }
        if let until = messageUntil, now >= until {
            messageUntil = nil
            if case .resting(let since) = phase { phase = .resting(since: max(since, until)) }
        }
        return (phase, messageUntil)
    }

    /// Lets time pass: ends a spring-back, a message, or the whole gate on timeout.
    public mutating func advance(to now: Double) -> GateAction? {
        if case .finished = phase { return nil }
        (phase, messageUntil) = settled(at: now)
        if let deadline, now >= deadline {
            if phase == .unlocking {
                timedOutWhileUnlocking = true
                return nil
            }
            return finish(.timedOut)
        }
        return nil
    }

    public mutating func handle(_ input: GateInput, at now: Double) -> GateAction? {
        if let action = advance(to: now) { return action }
        if case .finished = phase { return nil }
        switch input {
        case .signal(let n):
            return finish(.signal(n))
        case .closeRequested:
            return finish(.windowClosed)
        case .press(let x, let y):
            switch phase {
            case .resting, .springing: break
            default: return nil
            }
            let value = thumbValue(at: now)
            let thumb = layout.thumb(at: value)
            guard thumb.contains(x: x, y: y) else { return nil }
            phase = .dragging(grabOffset: x - thumb.x, value: value)
            messageUntil = nil
        case .motion(let x, _):
            guard case .dragging(let offset, _) = phase else { return nil }
            phase = .dragging(grabOffset: offset, value: layout.value(forThumbX: x - offset))
        case .release:
            guard case .dragging(_, let value) = phase else { return nil }
            if value >= 1 {
                guard let command = settings.unlockCommand else { return finish(.completed) }
                phase = .unlocking
                return .runUnlockCommand(command)
            }
            phase = value > 0 ? .springing(from: value, start: now) : .resting(since: now)
        case .unlockCommandFinished(let succeeded):
            guard phase == .unlocking else { return nil }
            if succeeded { return finish(.completed) }
            if timedOutWhileUnlocking { return finish(.timedOut) }
            phase = .springing(from: 1, start: now)
            messageUntil = now + settings.messageDuration
        }
        return nil
    }

    private mutating func finish(_ status: ExitStatus) -> GateAction {
        phase = .finished(status)
        return .exit(status)
    }

    /// The thumb's value at `now`: 0 at the start, 1 at the end.
    public func thumbValue(at now: Double) -> Double {
        switch settled(at: now).phase {
        case .resting, .finished: 0
        case .dragging(_, let value): value
        case .unlocking: 1
        case .springing(let from, let start):
            from * (1 - TimingCurve.easeOut.value(at: (now - start) / settings.springDuration))
        }
    }

    /// The label's alpha for a thumb value: fully gone once the thumb is 65 % of the way.
    public static func labelAlpha(forValue value: Double) -> Double {
        max(0, 1 - value / 0.65)
    }

    public func scene(at now: Double) -> Scene {
        let (phase, messageUntil) = settled(at: now)
        let value = thumbValue(at: now)
        let alpha = Self.labelAlpha(forValue: value)
        switch phase {
        case .unlocking:
            return Scene(
                thumbValue: 1,
                label: Scene.Label(text: settings.busyText, placement: .beforeEnd, emphasis: .solid, alpha: 1),
                busy: true)
        case _ where messageUntil != nil:
            return Scene(
                thumbValue: value,
                label: Scene.Label(text: settings.failureText, placement: .afterThumb, emphasis: .solid, alpha: alpha),
                busy: false)
        default:
            guard !settings.text.isEmpty else { return Scene(thumbValue: value, label: nil, busy: false) }
            var band: Double?
            if case .resting(let since) = phase {
                band = settings.shimmer.bandCentre(elapsed: now - since)
            }
            return Scene(
                thumbValue: value,
                label: Scene.Label(text: settings.text, placement: .afterThumb, emphasis: .shimmer(band: band), alpha: alpha),
                busy: false)
        }
    }

    /// When the gate next has to act without input (the timeout), or nil: what a process
    /// that only decides, and draws nothing, waits for.
    public var nextActionDeadline: Double? {
        phase == .unlocking || exitStatus != nil ? nil : deadline
    }

    /// When the scene next changes or the gate next has to act without any input, or nil
    /// when nothing will happen until input arrives. Frames are aligned to the start of the
    /// animation so they fall at an even `1/fps` pace.
    public func nextDeadline(after now: Double) -> Double? {
        let (phase, messageUntil) = settled(at: now)
        var next: [Double] = []
        if let deadline, phase != .unlocking { next.append(deadline) }
        if let messageUntil { next.append(messageUntil) }
        let frame = 1 / Double(settings.fps)
        func nextFrame(from origin: Double) -> Double {
            origin + ((now - origin) / frame + 1e-9).rounded(.down) * frame + frame
        }
        switch phase {
        case .finished:
            return nil
        case .springing(_, let start):
            next.append(min(nextFrame(from: start), start + settings.springDuration))
        case .resting(let since) where messageUntil == nil && !settings.text.isEmpty:
            let shimmer = settings.shimmer
            let elapsed = now - since
            if shimmer.bandCentre(elapsed: elapsed) != nil {
                let cycleStart = since + (elapsed / shimmer.period).rounded(.down) * shimmer.period
                next.append(min(nextFrame(from: since), cycleStart + shimmer.sweep))
            } else {
                next.append(since + shimmer.nextSweepStart(after: elapsed))
            }
        default:
            break
        }
        return next.min()
    }
}
