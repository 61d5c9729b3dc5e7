/// Paces pointer motion for lock mode's guard and for windowed mode: however fast the
/// pointer, at most one motion a frame interval goes on to the gate (and the UI) — the
/// newest — and a pointer faster than `hintRate` events a second turns the grab to motion
/// hints (the server then sends one event and waits to be asked where the pointer is),
/// until the button is released or a frame interval passes without motion.
///
/// Time is an argument; nothing here reads a clock or talks to the server: `take` says when
/// the pointer's place must be asked, and `hints` what the grab should report.
package struct MotionPacer: Equatable, Sendable {
    /// Motion not yet handed on: where the pointer went, or, after a hint, only that it moved.
    package enum Pending: Equatable, Sendable {
        case at(x: Double, y: Double, time: Double)
        case hint
    }

    /// What to hand on now.
    package enum Motion: Equatable, Sendable {
        /// The pointer is at (x, y), as of `time`.
        case at(x: Double, y: Double, time: Double)
        /// After a hint: ask the server where the pointer is, then call `sent` (or `cancel`).
        case askPointer
    }

    /// Motion events a second above which the grab turns to hints.
    package static let hintRate = 400.0

    package private(set) var pending: Pending?
    /// Whether the grab should report motion hints rather than every motion.
    package private(set) var hints = false
    /// Motion events read since motion was last handed on.
    private var events = 0
    /// When motion was last handed on.
    package private(set) var lastSent = -Double.infinity
    /// The frame interval: 1 / fps.
    package let frame: Double

    package init(fps: Int) {
        frame = 1 / Double(max(fps, 1))
    }

    /// When the next motion may go.
    package var due: Double { lastSent + frame }

    /// A motion event with the pointer's place (x, y) at `time`: the newest is kept.
    package mutating func moved(x: Double, y: Double, at time: Double) {
        events += 1
        pending = .at(x: x, y: y, time: time)
    }

    /// A hint (or any motion while the grab reports hints): the place is asked when it goes.
    package mutating func hinted() {
        pending = .hint
    }

    /// Whether motion waits and its frame interval is over (or a button brings its own place:
    /// `take(button:at:)` then hands it on at once).
    package func isDue(at now: Double) -> Bool { pending != nil && now >= due }

    /// What to hand on now, nil when nothing is pending. A button event brings its own place,
    /// where the pointer was when the button went, which stands for a hint's.
    package func take(button: (x: Double, y: Double)?, at now: Double) -> Motion? {
        switch (pending, button) {
        case (nil, _): nil
        case (.at(let x, let y, let time), _): .at(x: x, y: y, time: time)
        case (.hint, let button?): .at(x: button.x, y: button.y, time: now)
        case (.hint, nil): .askPointer
        }
    }

    /// The motion went on at `now`. A pointer that sent more than `hintRate` events a second
    /// since the last turns the grab to hints; the server takes the last event it sent for
    /// the first hint, so the place is asked at the next frame interval.
    package mutating func sent(at now: Double, byButton: Bool) {
        pending = nil
        if !byButton, !hints, Double(events) > Self.hintRate * (now - lastSent) {
            hints = true
            pending = .hint
        }
        events = 0
        lastSent = now
    }

    /// What was pending is dropped (the drag was cancelled, or the pointer's place is unknown).
    package mutating func cancel() {
        pending = nil
    }

    /// The button went up: every motion is reported again.
    package mutating func released() {
        hints = false
    }

    /// A whole frame interval without motion: the pointer rests, and when it moves on, its
    /// events cost less than a question a frame until it is fast again.
    package mutating func rest(at now: Double) {
        if hints && pending == nil && now >= due { hints = false }
    }
}
