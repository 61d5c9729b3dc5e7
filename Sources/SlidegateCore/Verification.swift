/// What happens once the slide completes when `--unlock-command` is given: the command runs,
/// and its exit status grants or refuses the completion. A refusal shows for a while, then
/// the gate is idle again. (The password and the PIN have stages of their own:
/// `PasswordEntry`, `Wheels`.)
///
/// Time is an argument; nothing here reads a clock.
package struct Verification: Equatable, Sendable {
    package enum State: Equatable, Sendable {
        /// Nothing to check: waiting for a completed slide.
        case idle
        /// A check runs (the unlock command).
        case verifying
        /// The last check said no; the refusal shows until the given moment.
        case refused(until: Double)
        /// The check said yes.
        case granted

        package var isRefusal: Bool {
            if case .refused = self { return true }
            return false
        }
    }

    /// How long a refusal ("unlock failed") shows.
    package static let refusalDuration = 2.5

    package private(set) var state: State

    package init(state: State = .idle) {
        self.state = state
    }

    /// The state as it is at `now`: a refusal that has shown long enough is idle.
    package func settled(at now: Double) -> State {
        if case .refused(let until) = state, now >= until { return .idle }
        return state
    }

    package mutating func advance(to now: Double) {
        state = settled(at: now)
    }

    package var isVerifying: Bool { state == .verifying }

    package mutating func begin() {
        state = .verifying
    }

    /// The check ended; a refusal shows from `now`.
    package mutating func finish(granted: Bool, at now: Double) {
        guard state == .verifying else { return }
        state = granted ? .granted : .refused(until: now + Self.refusalDuration)
    }

    /// The check ended without a verdict that shows here (a wrong PIN says so in a banner).
    package mutating func cancel() {
        if state == .verifying { state = .idle }
    }

    /// A new attempt began (the thumb was grabbed): an old refusal stops showing.
    package mutating func dismissRefusal() {
        if case .refused = state { state = .idle }
    }
}
