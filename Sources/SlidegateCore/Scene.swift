/// Everything the renderer needs to paint one frame of the slider.
public struct Scene: Equatable, Sendable {
    public enum Placement: Equatable, Sendable {
        /// Centred over the track right of the resting thumb (the label).
        case afterThumb
        /// Centred over the track left of the thumb at the end (the busy message).
        case beforeEnd
    }

    public enum Emphasis: Equatable, Sendable {
        /// Dim text with the shimmer band centred at the given position (text widths), or
        /// uniformly dim when nil.
        case shimmer(band: Double?)
        /// Text at the full foreground colour.
        case solid
    }

    public struct Label: Equatable, Sendable {
        public var text: String
        public var placement: Placement
        public var emphasis: Emphasis
        /// Multiplies the foreground colour's alpha: 1 shown, 0 invisible.
        public var alpha: Double

        public init(text: String, placement: Placement, emphasis: Emphasis, alpha: Double) {
            self.text = text
            self.placement = placement
            self.emphasis = emphasis
            self.alpha = alpha
        }
    }

    /// 0 with the thumb at the start, 1 at the end.
    public var thumbValue: Double
    /// The text on the track, or nil for none.
    public var label: Label?
    /// True while the unlock command runs.
    public var busy: Bool

    public init(thumbValue: Double, label: Label?, busy: Bool) {
        self.thumbValue = thumbValue
        self.label = label
        self.busy = busy
    }
}
