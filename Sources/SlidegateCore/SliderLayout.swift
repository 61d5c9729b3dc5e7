/// Where the track, the thumb and the label sit inside the slider's rectangle.
///
/// The track fills the rectangle; the thumb is a square as tall as the track less a
/// padding on each side, travelling from the track's left end to its right end.
public struct SliderLayout: Equatable, Sendable {
    public var bounds: Rect
    public var padding: Double

    public init(bounds: Rect) {
        self.bounds = bounds
        padding = max(2, (bounds.height * 0.07).rounded())
    }

    public var thumbSide: Double { bounds.height - 2 * padding }
    public var restX: Double { bounds.x + padding }
    public var endX: Double { bounds.maxX - padding - thumbSide }
    /// How far the thumb's left edge moves from value 0 to value 1.
    public var travel: Double { max(endX - restX, 1) }

    public func thumb(at value: Double) -> Rect {
        Rect(x: restX + value * (endX - restX), y: bounds.y + padding, width: thumbSide, height: thumbSide)
    }

    /// The value that puts the thumb's left edge at `thumbX`, clamped to 0...1.
    public func value(forThumbX thumbX: Double) -> Double {
        min(max((thumbX - restX) / travel, 0), 1)
    }

    /// The part of the track right of the resting thumb: where the label is centred.
    public var labelArea: Rect {
        let left = restX + thumbSide + padding
        return Rect(x: left, y: bounds.y, width: max(bounds.maxX - 2 * padding - left, 0), height: bounds.height)
    }

    /// The part of the track left of the thumb at the end: where the busy message is centred.
    public var areaBeforeEnd: Rect {
        let left = bounds.x + 2 * padding
        return Rect(x: left, y: bounds.y, width: max(endX - padding - left, 0), height: bounds.height)
    }
}
