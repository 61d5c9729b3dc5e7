/// An axis-aligned rectangle in pixels; the origin is the top-left corner.
package struct Rect: Equatable, Hashable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    package static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    package var maxX: Double { x + width }
    package var maxY: Double { y + height }
    package var midX: Double { x + width / 2 }
    package var midY: Double { y + height / 2 }

    package func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }
}

extension Rect {
    /// The smallest rectangle holding both.
    package func union(_ other: Rect) -> Rect {
        let left = min(x, other.x)
        let top = min(y, other.y)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// The smallest rectangle of whole pixels that holds this one.
    package var wholePixels: Rect {
        let left = x.rounded(.down)
        let top = y.rounded(.down)
        return Rect(x: left, y: top, width: maxX.rounded(.up) - left, height: maxY.rounded(.up) - top)
    }

    /// The overlap of both; zero width or height when they do not overlap.
    package func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        return Rect(x: left, y: top, width: max(0, min(maxX, other.maxX) - left), height: max(0, min(maxY, other.maxY) - top))
    }

    /// Whether the two share any pixel.
    package func overlaps(_ other: Rect) -> Bool {
        let shared = intersection(other)
        return shared.width > 0 && shared.height > 0
    }

    /// What of this rectangle lies outside `other`, when `other` spans all of its rows: the
    /// parts left and right of `other` (none, one or two); this rectangle itself when they do
    /// not overlap. Nil when `other` covers only some of its rows, as the rest is then no
    /// such pair.
    package func outside(columnsOf other: Rect) -> [Rect]? {
        guard overlaps(other) else { return [self] }
        guard other.y <= y, other.maxY >= maxY else { return nil }
        var parts: [Rect] = []
        if x < other.x { parts.append(Rect(x: x, y: y, width: other.x - x, height: height)) }
        if maxX > other.maxX { parts.append(Rect(x: other.maxX, y: y, width: maxX - other.maxX, height: height)) }
        return parts
    }
}
