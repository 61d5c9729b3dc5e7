/// Where the track, the thumb and the label sit inside the slider's rectangle.
///
/// The track fills the rectangle; the thumb is a square as tall as the track less a
/// padding on each side, travelling from the track's left end to its right end.
package struct SliderLayout: Equatable, Sendable {
    package var bounds: Rect
    package var padding: Double
    /// The PIN wheels (`--auth pin`), in the same coordinates.
    package var wheelRow: WheelRow?

    package init(bounds: Rect, wheelRow: WheelRow? = nil) {
        self.bounds = bounds
        self.wheelRow = wheelRow
        padding = max(2, (bounds.height * 0.07).rounded())
    }

    package var thumbSide: Double { bounds.height - 2 * padding }
    package var restX: Double { bounds.x + padding }
    package var endX: Double { bounds.maxX - padding - thumbSide }
    /// How far the thumb's left edge moves from value 0 to value 1.
    package var travel: Double { max(endX - restX, 1) }

    package func thumb(at value: Double) -> Rect {
        Rect(x: restX + value * (endX - restX), y: bounds.y + padding, width: thumbSide, height: thumbSide)
    }

    /// Where a pointer at `x` is along the track, in value units (the travel of the thumb's
    /// left edge is 1): what the slide works in, so its drag and spring do not depend on
    /// pixels or on which way the track runs.
    package func position(forPointerX x: Double) -> Double {
        (x - restX) / travel
    }

    /// The part of the track right of the resting thumb: where the label is centred.
    package var labelArea: Rect {
        let left = restX + thumbSide + padding
        return Rect(x: left, y: bounds.y, width: max(bounds.maxX - 2 * padding - left, 0), height: bounds.height)
    }

    /// The part of the track left of the thumb at the end: where the busy message is centred.
    package var areaBeforeEnd: Rect {
        let left = bounds.x + 2 * padding
        return Rect(x: left, y: bounds.y, width: max(endX - padding - left, 0), height: bounds.height)
    }
}
