/// The bright band that sweeps through the label while the thumb rests at the start.
///
/// A cycle lasts `sweep + pause` seconds: during the sweep the band's centre moves at a
/// constant speed from just left of the text to just right of it, so the whole band enters
/// and leaves; during the pause the text is uniformly dim. Positions are in text widths:
/// 0 is the text's left edge, 1 its right edge.
package struct Shimmer: Equatable, Sendable {
    /// Seconds the band takes to cross the text.
    package var sweep: Double = 1
    /// Seconds of uniform dim between sweeps.
    package var pause: Double = 1
    /// The band's full width, as a fraction of the text width; brightest at its centre.
    package var bandWidth: Double = 0.2
    /// Alpha of the dim text, as a fraction of the text colour's alpha.
    package var dimAlpha: Double = 0.5

    package init() {}

    package var period: Double { sweep + pause }

    /// Where the band's centre is `elapsed` seconds after the shimmer started, or nil
    /// while the text is uniformly dim.
    package func bandCentre(elapsed: Double) -> Double? {
        guard elapsed >= 0 else { return nil }
        let phase = elapsed.truncatingRemainder(dividingBy: period)
        guard phase < sweep else { return nil }
        let half = bandWidth / 2
        return -half + (1 + bandWidth) * (phase / sweep)
    }

    /// The next moment, at or after `elapsed`, when a sweep begins.
    package func nextSweepStart(after elapsed: Double) -> Double {
        let cycles = (max(elapsed, 0) / period).rounded(.up)
        return cycles * period
    }
}
