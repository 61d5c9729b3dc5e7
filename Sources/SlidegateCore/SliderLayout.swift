/// Where the track, the thumb and the label sit inside the slider's rectangle.
///
/// The track fills the rectangle; the thumb is a square as tall as the track less a
/// padding on each side, travelling from the track's left end to its right end — or, right
/// to left, from the right end to the left, with the label on the other side of it.
package struct SliderLayout: Equatable, Sendable {
    package var bounds: Rect
    package var padding: Double
    /// The PIN wheels (`--auth pin`), in the same coordinates.
    package var wheelRow: WheelRow?
    /// The thumb starts at the right end and slides left (`--direction rtl`).
    package var rightToLeft: Bool

    package init(bounds: Rect, wheelRow: WheelRow? = nil, rightToLeft: Bool = false) {
        self.bounds = bounds
        self.wheelRow = wheelRow
        self.rightToLeft = rightToLeft
        padding = max(2, (bounds.height * 0.07).rounded())
    }

    package var thumbSide: Double { bounds.height - 2 * padding }
    private var leftX: Double { bounds.x + padding }
    private var rightX: Double { bounds.maxX - padding - thumbSide }
    /// The thumb's left edge at rest (value 0) and at the end (value 1).
    package var restX: Double { rightToLeft ? rightX : leftX }
    package var endX: Double { rightToLeft ? leftX : rightX }
    /// How far the thumb's left edge moves from value 0 to value 1: negative right to left.
    package var travel: Double {
        let t = endX - restX
        return rightToLeft ? min(t, -1) : max(t, 1)
    }

    package func thumb(at value: Double) -> Rect {
        Rect(x: restX + value * (endX - restX), y: bounds.y + padding, width: thumbSide, height: thumbSide)
    }

    /// Where a pointer at `x` is along the track, in value units (the travel of the thumb's
    /// left edge is 1): what the slide works in, so its drag and spring do not depend on
    /// pixels or on which way the track runs.
    package func position(forPointerX x: Double) -> Double {
        (x - restX) / travel
    }

    /// The part of the track beside the resting thumb (right of it, or left right to left):
    /// where the label is centred.
    package var labelArea: Rect {
        rightToLeft ? span(from: bounds.x + 2 * padding, to: restX - padding) : span(from: restX + thumbSide + padding, to: bounds.maxX - 2 * padding)
    }

    /// The part of the track the thumb at the end has come from: where the busy message is
    /// centred.
    package var areaBeforeEnd: Rect {
        rightToLeft ? span(from: endX + thumbSide + padding, to: bounds.maxX - 2 * padding) : span(from: bounds.x + 2 * padding, to: endX - padding)
    }

    private func span(from left: Double, to right: Double) -> Rect {
        Rect(x: left, y: bounds.y, width: max(right - left, 0), height: bounds.height)
    }
}
