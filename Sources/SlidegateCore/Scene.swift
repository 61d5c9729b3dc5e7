/// Everything the renderer needs to paint one frame of the slider.
package struct Scene: Equatable, Sendable {
    package enum Placement: Equatable, Sendable {
        /// Centred over the track right of the resting thumb (the label).
        case afterThumb
        /// Centred over the track left of the thumb at the end (the busy message).
        case beforeEnd
    }

    package enum Emphasis: Equatable, Sendable {
        /// Dim text with the shimmer band centred at the given position (text widths), or
        /// uniformly dim when nil.
        case shimmer(band: Double?)
        /// Text at the full foreground colour.
        case solid
    }

    package struct Label: Equatable, Sendable {
        package var text: String
        package var placement: Placement
        package var emphasis: Emphasis
        /// Multiplies the foreground colour's alpha: 1 shown, 0 invisible.
        package var alpha: Double

        package init(text: String, placement: Placement, emphasis: Emphasis, alpha: Double) {
            self.text = text
            self.placement = placement
            self.emphasis = emphasis
            self.alpha = alpha
        }
    }

    /// 0 with the thumb at the start, 1 at the end.
    package var thumbValue: Double
    /// The text on the track, or nil for none.
    package var label: Label?
    /// True while the unlock command runs.
    package var busy: Bool

    package init(thumbValue: Double, label: Label?, busy: Bool) {
        self.thumbValue = thumbValue
        self.label = label
        self.busy = busy
    }
}
