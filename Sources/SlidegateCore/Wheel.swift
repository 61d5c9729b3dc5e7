import Glibc

/// One digit wheel of the PIN (`--auth pin`): a drum of the digits 0–9, turned by a
/// vertical drag, flicked with momentum, turned a digit at a time by the scroll wheel or
/// the keyboard. Its position is in digit units and unbounded: digit `d` faces the person
/// when the position rounded is `d` modulo 10, so the drum wraps from 9 to 0.
///
/// Time is an argument (seconds on any monotonic clock); nothing here reads a clock.
package struct Wheel: Equatable, Sendable {
    package enum Motion: Equatable, Sendable {
        /// At rest on a digit.
        case still(Double)
        /// Held by the pointer, which went down at `anchorY` with the wheel at `anchor`; it
        /// is now at `y`, moving at `velocity` digits a second as of `lastTime`.
        case held(anchor: Double, anchorY: Double, y: Double, velocity: Double, lastTime: Double)
        /// Turning on by momentum from `from` at `velocity` digits a second since `start`,
        /// slowing exponentially at `rate` per second so that it comes to rest on `target`.
        case coasting(from: Double, velocity: Double, rate: Double, start: Double, target: Double)
        /// Easing onto `target` on a critically damped spring from `from` with `velocity`,
        /// since `start`; at rest by `end`.
        case settling(from: Double, velocity: Double, target: Double, start: Double, end: Double)
    }

    /// UIKit's "normal" deceleration: the speed is multiplied by 0.998 each millisecond.
    package static let decelerationRate = -log(0.998) * 1000
    /// The scramble's spin slows faster, so it is over in about a second and a half.
    package static let spinRate = 5.0
    /// Below this release speed (digits a second) the wheel settles instead of coasting.
    package static let flickSpeed = 1.5
    package static let maximumSpeed = 60.0
    /// The spring's angular frequency: settles a digit in about a third of a second.
    package static let stiffness = 18.0
    /// How close (in digits) a motion must come to its target to count as there: half a
    /// pixel on a wheel 190 pixels tall, so the last frame's snap is not seen and the
    /// decay's long tail of sub-pixel creep costs no frames.
    package static let restTolerance = 0.01
    /// A pointer that stopped this long before the button came up threw nothing.
    package static let stillBeforeRelease = 0.1

    package private(set) var motion: Motion

    package init(digit: Int = 0) {
        motion = .still(Double(digit))
    }

    package init(motion: Motion) {
        self.motion = motion
    }

    /// The motion as it is at `now`: a coast or settle that has arrived is still.
    package func settled(at now: Double) -> Motion {
        switch motion {
        case .coasting(let from, _, let rate, let start, let target) where now >= start + Self.coastDuration(from, target, rate):
            return .still(target)
        case .settling(_, _, let target, _, let end) where now >= end:
            return .still(target)
        default:
            return motion
        }
    }

    package mutating func advance(to now: Double) {
        motion = settled(at: now)
    }

    /// How long a coast from `from` takes to come within `restTolerance` of `target`.
    private static func coastDuration(_ from: Double, _ target: Double, _ rate: Double) -> Double {
        target == from ? 0 : max(0, log(abs(target - from) / restTolerance) / rate)
    }

    /// The position at `now`, in digits.
    package func position(at now: Double) -> Double {
        switch settled(at: now) {
        case .still(let p): return p
        case .held(let anchor, let anchorY, let y, _, _): return anchor + anchorY - y
        case .coasting(let from, let velocity, let rate, let start, _):
            return from + velocity * (1 - exp(-rate * (now - start))) / rate
        case .settling(let from, let velocity, let target, let start, _):
            let t = now - start
            let d = from - target
            return target + (d + (velocity + Self.stiffness * d) * t) * exp(-Self.stiffness * t)
        }
    }

    /// Where the wheel is headed: the digit it rests on, or will come to rest on; a held
    /// wheel's nearest digit.
    package func digit(at now: Double) -> Int {
        let p: Double
        switch settled(at: now) {
        case .still(let q): p = q
        case .coasting(_, _, _, _, let target), .settling(_, _, let target, _, _): p = target
        case .held: p = position(at: now)
        }
        return Self.digit(of: p)
    }

    package static func digit(of position: Double) -> Int {
        let n = Int(saturating: position.rounded()) % 10
        return n < 0 ? n + 10 : n
    }

    /// True while it turns by itself (coasting or settling) after `now`.
    package func isMoving(at now: Double) -> Bool {
        switch settled(at: now) {
        case .coasting, .settling: true
        case .still, .held: false
        }
    }

    /// A coasting or settling wheel is at once on the digit it was headed for.
    package mutating func stopTurning() {
        switch motion {
        case .coasting(_, _, _, _, let target), .settling(_, _, let target, _, _): motion = .still(target)
        case .still, .held: break
        }
    }

    package var isHeld: Bool {
        if case .held = motion { return true }
        return false
    }

    /// The pointer went down on the wheel at `y`: it holds the wheel where it is, catching
    /// it if it was turning. Pointer positions are in digits (the layout divides pixels by
    /// its pitch), downward: moving the pointer up one digit brings the next digit to the front.
    package mutating func grab(y: Double, at now: Double) {
        motion = .held(anchor: position(at: now), anchorY: y, y: y, velocity: 0, lastTime: now)
    }

    /// The pointer moved to `y`; the wheel follows it, and the speed is
    /// smoothed over the last moves.
    package mutating func drag(y: Double, at now: Double) {
        guard case .held(let anchor, let anchorY, let lastY, let velocity, let lastTime) = motion else { return }
        let dt = now - lastTime
        var v = velocity
        if dt > 0 {
            let instant = (lastY - y) / dt
            v = dt > Self.stillBeforeRelease ? instant : 0.8 * instant + 0.2 * velocity
        }
        motion = .held(anchor: anchor, anchorY: anchorY, y: y, velocity: v, lastTime: dt > 0 ? now : lastTime)
    }

    /// The pointer let go: a fast wheel coasts on and lands exactly on a digit, a slow one
    /// settles on the nearest.
    package mutating func release(at now: Double) {
        guard case .held(_, _, _, let velocity, let lastTime) = motion else { return }
        let p = position(at: now)
        let v = now - lastTime > Self.stillBeforeRelease ? 0 : min(max(velocity, -Self.maximumSpeed), Self.maximumSpeed)
        guard abs(v) >= Self.flickSpeed else {
            settle(from: p, velocity: v, to: p.rounded(), at: now)
            return
        }
        // Where plain decay would stop it, moved to the nearest digit; the rate is refitted
        // so that the decay stops exactly there.
        let projected = p + v / Self.decelerationRate
        let target = projected.rounded()
        guard (target - p) * v > 0 else {
            settle(from: p, velocity: v, to: target, at: now)
            return
        }
        motion = .coasting(from: p, velocity: v, rate: v / (target - p), start: now, target: target)
    }

    /// Turns the wheel by `steps` digits (the scroll wheel, the arrow keys), from where it
    /// is headed.
    package mutating func turn(by steps: Int, at now: Double) {
        let current = settled(at: now)
        let base: Double
        switch current {
        case .still(let p): base = p
        case .coasting(_, _, _, _, let target), .settling(_, _, let target, _, _): base = target
        case .held: return
        }
        settle(from: position(at: now), velocity: velocity(at: now), to: base + Double(steps), at: now)
    }

    /// Turns the wheel the short way round to `digit` (a digit key).
    package mutating func set(to digit: Int, at now: Double) {
        guard !isHeld else { return }
        let from = Double(self.digit(at: now))
        var steps = (digit - Int(saturating: from)) % 10
        if steps > 5 { steps -= 10 }
        if steps < -5 { steps += 10 }
        turn(by: steps, at: now)
    }

    /// Spins the wheel at least once round to land on `digit` (the scramble).
    package mutating func spin(to digit: Int, at now: Double) {
        let p = position(at: now)
        var target = p.rounded() + 10
        target += Double((digit - Self.digit(of: target) + 10) % 10)
        motion = .coasting(from: p, velocity: Self.spinRate * (target - p), rate: Self.spinRate, start: now, target: target)
    }

    /// The speed at `now`, in digits a second.
    package func velocity(at now: Double) -> Double {
        switch settled(at: now) {
        case .still: return 0
        case .held(_, _, _, let v, _): return v
        case .coasting(_, let velocity, let rate, let start, _): return velocity * exp(-rate * (now - start))
        case .settling(let from, let velocity, let target, let start, _):
            let t = now - start
            let d = from - target
            let b = velocity + Self.stiffness * d
            return (b - Self.stiffness * (d + b * t)) * exp(-Self.stiffness * t)
        }
    }

    private mutating func settle(from p: Double, velocity v: Double, to target: Double, at now: Double) {
        let d = p - target
        let b = v + Self.stiffness * d
        // The envelope |d + b t| e^(-ωt) bounds the distance left; rest once it is within tolerance.
        var t = 0.0
        while t < 3 && (abs(d) + abs(b) * t) * exp(-Self.stiffness * t) > Self.restTolerance { t += 0.005 }
        motion = t == 0 ? .still(target) : .settling(from: p, velocity: v, target: target, start: now, end: now + t)
    }
}
