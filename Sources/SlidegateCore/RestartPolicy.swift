/// When the lock-mode guard starts a new UI after one died: at once, unless UIs keep dying
/// soon after starting, then after a delay that doubles from 0.1 s up to 5 s.
package struct RestartPolicy: Equatable, Sendable {
    /// A UI that lived at least this long did not die of its start-up.
    package var healthyLifetime = 2.0
    /// UIs that died young in a row.
    package private(set) var earlyDeaths = 0

    package init() {}

    /// A UI died after living `lifetime` seconds; returns how long to wait before the next.
    package mutating func died(after lifetime: Double) -> Double {
        earlyDeaths = lifetime < healthyLifetime ? earlyDeaths + 1 : 0
        return delay
    }

    /// The wait before the next start, given the early deaths so far.
    package var delay: Double {
        earlyDeaths <= 1 ? 0 : min(0.1 * Double(1 << min(earlyDeaths - 2, 6)), 5)
    }
}
