import CX11
import SlidegateCore
import SlidegateSystem

extension MotionPacer {
    /// The motion to hand on now, at most one a frame interval (lock mode's guard and
    /// windowed mode both pace the pointer so): the newest place read, or, after a hint,
    /// the place `ask` gets from the server, which re-arms the hint. A button event brings
    /// its own place (`button`), where the pointer was when the button went. Nil when
    /// nothing waits, or when events came with the answer to `ask`: they happened before
    /// it was asked and go to the gate first (a release followed by a move could carry the
    /// thumb on), and the place is asked again at the next pass.
    package mutating func next(
        button: (x: Double, y: Double)?, at now: Double, display: XDisplay, ask: () -> (x: Double, y: Double)?
    ) -> (x: Double, y: Double, time: Double)? {
        let motion: (x: Double, y: Double, time: Double)
        switch take(button: button, at: now) {
        case nil:
            return nil
        case .at(let x, let y, let time):
            motion = (x, y, time)
        case .askPointer:
            let place = ask()
            guard XEventsQueued(display.pointer, QueuedAlready) == 0 else { return nil }
            guard let place else {
                cancel()
                return nil
            }
            motion = (place.x, place.y, now)
        }
        sent(at: now, byButton: button != nil)
        return motion
    }
}
