/// The thumb's travel along the track, in value space: 0 with the thumb at the start, 1 at
/// the end. Positions are given in the same units (the layout turns pointer coordinates into
/// them), so which way the track runs on screen is the layout's business alone.
///
/// Time is an argument (seconds on any monotonic clock); nothing here reads a clock.
package struct Slide: Equatable, Sendable {
    package enum Phase: Equatable, Sendable {
        /// At the start since the given moment (the shimmer counts from it).
        case resting(since: Double)
        /// Held by the pointer, which grabbed it `grabOffset` value units right of its start.
        case dragging(grabOffset: Double, value: Double)
        /// Easing back to the start from `from`, since `start`.
        case springing(from: Double, start: Double)
        /// Released at the end: held there while the completion is verified.
        case atEnd
    }

    /// How long the ease-out back to the start takes.
    package static let springDuration = 0.35

    package private(set) var phase: Phase

    package init(start: Double) {
        phase = .resting(since: start)
    }

    package init(phase: Phase) {
        self.phase = phase
    }

    /// The phase as it is at `now`: a finished spring-back is rest.
    package func settled(at now: Double) -> Phase {
        if case .springing(_, let start) = phase, now >= start + Self.springDuration {
            return .resting(since: start + Self.springDuration)
        }
        return phase
    }

    package mutating func advance(to now: Double) {
        phase = settled(at: now)
    }

    package func value(at now: Double) -> Double {
        switch settled(at: now) {
        case .resting: 0
        case .dragging(_, let value): value
        case .atEnd: 1
        case .springing(let from, let start):
            from * (1 - TimingCurve.easeOut.value(at: (now - start) / Self.springDuration))
        }
    }

    package var isDragging: Bool {
        if case .dragging = phase { return true }
        return false
    }

    /// Whether a press may catch the thumb (it rests or springs back).
    package func canGrab(at now: Double) -> Bool {
        switch settled(at: now) {
        case .resting, .springing: true
        case .dragging, .atEnd: false
        }
    }

    /// The pointer caught the thumb at `position`; it stays where it is.
    package mutating func grab(at position: Double, now: Double) {
        let value = value(at: now)
        phase = .dragging(grabOffset: position - value, value: value)
    }

    /// The pointer moved to `position` while dragging.
    package mutating func move(to position: Double) {
        guard case .dragging(let offset, _) = phase else { return }
        phase = .dragging(grabOffset: offset, value: min(max(position - offset, 0), 1))
    }

    /// The pointer let go: returns true when the thumb was at the end, which completes the
    /// slide; otherwise the thumb springs back.
    package mutating func release(at now: Double) -> Bool {
        guard case .dragging(_, let value) = phase else { return false }
        if value >= 1 {
            phase = .atEnd
            return true
        }
        springBack(from: value, at: now)
        return false
    }

    /// Puts the thumb at the end at once, as if slid there (a key opened the password stage).
    package mutating func complete() {
        phase = .atEnd
    }

    /// Sends the thumb back to the start from wherever it is: a drag cancelled (the slider
    /// moved under the pointer) or a completion refused.
    package mutating func cancel(at now: Double) {
        springBack(from: value(at: now), at: now)
    }

    /// The rest restarts at `now` (the shimmer begins a new cycle then), if the thumb rests.
    package mutating func restRestarts(at now: Double) {
        if case .resting(let since) = phase, since < now { phase = .resting(since: now) }
    }

    private mutating func springBack(from value: Double, at now: Double) {
        phase = value > 0 ? .springing(from: value, start: now) : .resting(since: now)
    }
}
