/// Lock mode's drag loan: while the thumb is held, the guard draws the slider itself from
/// parts the UI lends (pixmaps on the X server), a few requests a frame, and the UI sleeps
/// through the drag. This is where the loan stands and what each event means for it; the
/// guard carries out what it says (sends `lend` and `give back`, makes and draws the
/// `Slider`), so every path that begins a loan also ends it.
///
/// The loan is only for a drag that changes nothing but the thumb's place and the label's
/// alpha (`look` leaves those out): anything else that changes the track ends it, and the
/// UI paints that.
///
/// Time is an argument; nothing here reads a clock or talks to the server.
package struct DragLoan<Slider> {
    package enum State {
        case none
        /// `lend` went out at the drag's start, when the track looked like `look`.
        case asked(look: Scene)
        /// `lend` went out, and the drag ended before the parts came: they go back unused.
        case cancelled
        /// The guard draws the drag; the newest motion the UI has not heard of; when the
        /// track may next change by itself, to be looked at then.
        case drawing(Slider, look: Scene, motion: (input: GateInput, time: Double)?, check: Double?)
        /// The UI or the server could not lend it: not again this drag.
        case declined
    }

    /// What to do with the UI's answer to `lend`.
    package enum Answer: Equatable, Sendable {
        /// Make the slider from the parts and call `drawing` (or `couldNotUse`).
        case use(look: Scene)
        /// The parts came too late (the drag ended, the track changed): send them back.
        case giveBack
        /// Nothing to do.
        case ignore
    }

    /// What a loan's slider needs at the end: it is finished, the UI hears of the newest
    /// motion it missed (if any), then gets `give back`.
    package struct Ending {
        package var slider: Slider
        package var motion: (input: GateInput, time: Double)?
    }

    package private(set) var state = State.none

    package init() {}

    /// What the track shows apart from what a drag changes (the thumb's place, the label's
    /// alpha), and apart from the windows of their own (wheels, banners).
    package static func look(_ scene: Scene) -> Scene {
        var look = scene
        look.thumbValue = 0
        look.label?.alpha = 1
        look.wheels = nil
        look.banner = nil
        return look
    }

    /// The slider the guard draws, while it does.
    package var slider: Slider? {
        if case .drawing(let slider, _, _, _) = state { return slider }
        return nil
    }

    package var isDrawing: Bool { slider != nil }

    /// A press caught the thumb and the track shows `scene`: true when the UI is to be asked
    /// for the parts (no loan stands or was declined this drag, and the drag changes nothing
    /// but the thumb and the label).
    package mutating func begin(_ scene: Scene) -> Bool {
        guard case .none = state, scene.field == nil, !scene.busy else { return false }
        state = .asked(look: Self.look(scene))
        return true
    }

    /// The UI answered `lend` (`lent`: with parts, or that it cannot), while the thumb is
    /// `dragging` and the track shows `scene`. An answer nobody asked for while the guard
    /// draws is ignored.
    package mutating func answered(lent: Bool, dragging: Bool, scene: Scene) -> Answer {
        if case .drawing = state { return .ignore }
        guard case .asked(let look) = state, dragging, Self.look(scene) == look else {
            state = .none
            return lent ? .giveBack : .ignore
        }
        guard lent else {
            state = .declined
            return .ignore
        }
        return .use(look: look)
    }

    /// The parts became `slider`, drawn from now on; the track is looked at again at `check`.
    package mutating func drawing(_ slider: Slider, look: Scene, check: Double?) {
        state = .drawing(slider, look: look, motion: nil, check: check)
    }

    /// The parts could not be used (the server could not make the slider from them): they go
    /// back, and not again this drag.
    package mutating func couldNotUse() {
        state = .declined
    }

    /// The guard drew `input` (a motion) at `time`: the UI hears of the newest when the loan ends.
    package mutating func drew(_ input: GateInput, at time: Double) {
        guard case .drawing(let slider, let look, _, let check) = state else { return }
        state = .drawing(slider, look: look, motion: (input, time), check: check)
    }

    /// Another message is about to go to the UI: what it changes, the UI paints, so a loan
    /// ends first. Returns what a drawn loan needs to end.
    package mutating func end() -> Ending? {
        switch state {
        case .none, .cancelled: return nil
        case .asked:
            state = .cancelled
            return nil
        case .drawing(let slider, _, let motion, _):
            state = .none
            return Ending(slider: slider, motion: motion)
        case .declined:
            state = .none
            return nil
        }
    }

    /// The guard stops drawing (the drag ended, or the track changed by itself); nil when it
    /// was not drawing.
    package mutating func giveBack() -> Ending? {
        guard case .drawing = state else { return nil }
        return end()
    }

    /// The UI or the window is gone: the loan ends with nothing to tell.
    package mutating func drop() {
        state = .none
    }

    /// What the track's own changes (a countdown's tick, a refusal's end) mean at `now`,
    /// while the guard draws: wait until a moment, or give the slider back. `scene` is what
    /// the track shows now; `next` when it may next change by itself after `now`.
    package enum Check: Equatable, Sendable {
        case wait(until: Double?)
        case giveBack
    }

    package mutating func check(at now: Double, scene: @autoclosure () -> Scene, next: () -> Double?) -> Check {
        guard case .drawing(let slider, let look, let motion, let check) = state, let check else { return .wait(until: nil) }
        if now < check { return .wait(until: check) }
        if Self.look(scene()) != look { return .giveBack }
        let later = next()
        state = .drawing(slider, look: look, motion: motion, check: later)
        return .wait(until: later)
    }
}
