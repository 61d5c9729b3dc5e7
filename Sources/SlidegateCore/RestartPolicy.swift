/// How long to wait before starting a child again after it died (or failed): the UI of a
/// lock, or an authentication helper. The wait doubles while deaths keep coming early, up
/// to a longest wait; a child that lived long enough, or did its job, resets it.
package struct RestartPolicy: Equatable, Sendable {
    /// The first wait that is not zero.
    package var firstDelay: Double
    /// The longest wait.
    package var longestDelay: Double
    /// Early deaths in a row that are replaced at once, before the waits begin.
    package var freeRestarts: Int
    /// A child that lived at least this long did not die of its start-up.
    package var healthyLifetime: Double
    /// Early deaths in a row.
    package private(set) var earlyDeaths = 0

    package init(firstDelay: Double, longestDelay: Double, freeRestarts: Int, healthyLifetime: Double) {
        self.firstDelay = firstDelay
        self.longestDelay = longestDelay
        self.freeRestarts = freeRestarts
        self.healthyLifetime = healthyLifetime
    }

    /// Lock mode's UI: one death within 2 s is replaced at once, then 0.1 s doubling to 5 s.
    package static let drawingProgram = RestartPolicy(firstDelay: 0.1, longestDelay: 5, freeRestarts: 1, healthyLifetime: 2)
    /// A method that needs no typing: each trouble in a row (its helper dead or
    /// misbehaving, PAM's error) waits 0.5 s doubling to 60 s; a verdict resets it.
    package static let passiveHelper = RestartPolicy(firstDelay: 0.5, longestDelay: 60, freeRestarts: 0, healthyLifetime: .infinity)

    /// A child died after living `lifetime` seconds; returns how long to wait before the next.
    package mutating func died(after lifetime: Double) -> Double {
        earlyDeaths = lifetime < healthyLifetime ? earlyDeaths + 1 : 0
        return delay
    }

    /// The child did what it is for: the next death is the first.
    package mutating func succeeded() {
        earlyDeaths = 0
    }

    /// The wait before the next start, given the early deaths so far.
    package var delay: Double {
        earlyDeaths <= freeRestarts ? 0 : min(firstDelay * Double(1 << min(earlyDeaths - freeRestarts - 1, 16)), longestDelay)
    }
}
