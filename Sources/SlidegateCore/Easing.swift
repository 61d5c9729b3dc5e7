/// A CSS/Core Animation style timing curve: a cubic Bézier from (0,0) to (1,1) with two
/// control points, mapping elapsed fraction of time to fraction of the way travelled.
package struct TimingCurve: Equatable, Sendable {
    package var c1: (x: Double, y: Double)
    package var c2: (x: Double, y: Double)

    package init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        c1 = (x1, y1)
        c2 = (x2, y2)
    }

    /// Starts fast and slows to a stop: the spring-back of the slide (Core Animation's ease-out).
    package static let easeOut = TimingCurve(0, 0, 0.58, 1)

    package static func == (a: TimingCurve, b: TimingCurve) -> Bool {
        a.c1 == b.c1 && a.c2 == b.c2
    }

    private static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private static func slope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// The fraction travelled after `progress` (clamped to 0...1) of the duration.
    package func value(at progress: Double) -> Double {
        let p = min(max(progress, 0), 1)
        if p == 0 || p == 1 { return p }
        var t = p
        for _ in 0..<8 {
            let error = Self.bezier(t, c1.x, c2.x) - p
            if abs(error) < 1e-7 { return Self.bezier(t, c1.y, c2.y) }
            let d = Self.slope(t, c1.x, c2.x)
            if abs(d) < 1e-6 { break }
            t -= error / d
        }
        var lo = 0.0
        var hi = 1.0
        t = p
        for _ in 0..<60 {
            let x = Self.bezier(t, c1.x, c2.x)
            if abs(x - p) < 1e-9 { break }
            if x < p { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return Self.bezier(t, c1.y, c2.y)
    }
}
