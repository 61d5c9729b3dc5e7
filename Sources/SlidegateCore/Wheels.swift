/// A key that works the wheels (`--auth pin`).
package enum WheelKey: Equatable, Sendable {
    /// Sets the focused wheel to the digit and moves the focus right.
    case digit(Int)
    case left, right
    /// Turn the focused wheel a digit back or on.
    case up, down
    /// Confirms, as completing the slide does.
    case enter
}

/// Where the row of wheels sits, in the gate's coordinates, and how pointer travel turns
/// into digits.
package struct WheelRow: Equatable, Sendable {
    package var area: Rect
    package var count: Int

    package init(area: Rect, count: Int) {
        self.area = area
        self.count = max(count, 1)
    }

    /// The drum's radius: the front digit and two on each side show within the area.
    package var radius: Double { area.height * 0.46 }
    /// Pixels of pointer travel per digit at the front of the drum: its arc per digit.
    package var pitch: Double { max(radius * Double.pi / 5, 1) }
    package var gap: Double { (wheelWidth * 0.16).rounded() }

    /// Room kept at each end of the row for the focus ring and the band.
    static let margin = 6.0

    package var wheelWidth: Double {
        let widest = (area.height * 0.5).rounded()
        let fitting = ((area.width - 2 * Self.margin) / (Double(count) + Double(count - 1) * 0.16)).rounded(.down)
        return max(min(widest, fitting), 8)
    }

    package func wheel(_ index: Int) -> Rect {
        let rowWidth = Double(count) * wheelWidth + Double(count - 1) * gap
        let left = area.x + ((area.width - rowWidth) / 2).rounded(.down)
        return Rect(x: left + Double(index) * (wheelWidth + gap), y: area.y, width: wheelWidth, height: area.height)
    }

    /// The wheel under (x, y), if any.
    package func index(atX x: Double, y: Double) -> Int? {
        (0..<count).first { wheel($0).contains(x: x, y: y) }
    }

    /// A pointer's y in digits, for `Wheel`'s drag.
    package func digits(forPointerY y: Double) -> Double { y / pitch }
}

/// The row of PIN wheels and the keyboard focus among them. Time is an argument.
package struct Wheels: Equatable, Sendable {
    package private(set) var wheels: [Wheel]
    /// The wheel digit keys and the arrows work on.
    package private(set) var focus = 0
    /// The wheel the pointer holds, if any.
    package private(set) var held: Int?

    package init(count: Int) {
        wheels = Array(repeating: Wheel(), count: count)
    }

    package init(wheels: [Wheel], focus: Int, held: Int?) {
        self.wheels = wheels
        self.focus = focus
        self.held = held
    }

    package var count: Int { wheels.count }

    /// The digits the wheels show, or are about to come to rest on.
    package func digits(at now: Double) -> [Int] {
        wheels.map { $0.digit(at: now) }
    }

    package func positions(at now: Double) -> [Double] {
        wheels.map { $0.position(at: now) }
    }

    /// True while any wheel turns by itself.
    package func isMoving(at now: Double) -> Bool {
        wheels.contains { $0.isMoving(at: now) }
    }

    package mutating func advance(to now: Double) {
        for i in wheels.indices { wheels[i].advance(to: now) }
    }

    /// Every turning wheel is at once where it was headed (`--reduce-motion`).
    package mutating func stopTurning() {
        for i in wheels.indices { wheels[i].stopTurning() }
    }

    /// The pointer went down on wheel `index` at `y` (digits): it holds that wheel.
    package mutating func grab(_ index: Int, y: Double, at now: Double) {
        guard wheels.indices.contains(index) else { return }
        release(at: now)
        wheels[index].grab(y: y, at: now)
        held = index
    }

    package mutating func drag(y: Double, at now: Double) {
        guard let held else { return }
        wheels[held].drag(y: y, at: now)
    }

    package mutating func release(at now: Double) {
        guard let held else { return }
        wheels[held].release(at: now)
        self.held = nil
    }

    /// The scroll wheel turned `steps` notches over wheel `index` (positive: down, the
    /// next digit).
    package mutating func scroll(_ index: Int, by steps: Int, at now: Double) {
        guard wheels.indices.contains(index), held != index else { return }
        wheels[index].turn(by: steps, at: now)
    }

    /// Applies a key; returns true for `enter`, which the gate takes as the confirmation.
    package mutating func handle(_ key: WheelKey, at now: Double) -> Bool {
        switch key {
        case .digit(let d):
            guard (0...9).contains(d), held != focus else { return false }
            wheels[focus].set(to: d, at: now)
            focus = min(focus + 1, count - 1)
        case .left: focus = max(focus - 1, 0)
        case .right: focus = min(focus + 1, count - 1)
        case .up: if held != focus { wheels[focus].turn(by: -1, at: now) }
        case .down: if held != focus { wheels[focus].turn(by: 1, at: now) }
        case .enter: return true
        }
        return false
    }

    /// Spins every wheel at least once round onto `digits` and puts the focus back on the
    /// first: what each lock and each failure start from.
    package mutating func scramble(to digits: [Int], at now: Double) {
        release(at: now)
        for (i, d) in zip(wheels.indices, digits) { wheels[i].spin(to: d, at: now) }
        focus = 0
    }

    /// Random digits for the next `scramble`, never the ones the wheels show now.
    package func freshDigits(at now: Double, using random: inout some RandomNumberGenerator) -> [Int] {
        Self.scrambleDigits(count: count, previous: digits(at: now), using: &random)
    }

    /// Random digits for `scramble`, never the same as `previous` in every place.
    package static func scrambleDigits(count: Int, previous: [Int], using random: inout some RandomNumberGenerator) -> [Int] {
        while true {
            let digits = (0..<count).map { _ in Int.random(in: 0...9, using: &random) }
            if digits != previous { return digits }
        }
    }
}
