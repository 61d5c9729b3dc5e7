/// An X geometry string as XParseGeometry reads it: `[=][WIDTHxHEIGHT][{+-}X{+-}Y]`.
///
/// Negative offsets count from the right or bottom edge: `-0` puts the rectangle flush
/// against that edge, `-10` ten pixels inside it.
package struct Geometry: Equatable, Sendable {
    package struct Offset: Equatable, Sendable {
        package var value: Int
        /// True when written with `-`: the offset counts from the right/bottom edge.
        package var fromFarEdge: Bool

        package init(_ value: Int, fromFarEdge: Bool) {
            self.value = value
            self.fromFarEdge = fromFarEdge
        }
    }

    package var width: Int?
    package var height: Int?
    package var x: Offset?
    package var y: Offset?

    package init(width: Int? = nil, height: Int? = nil, x: Offset? = nil, y: Offset? = nil) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
    }

    /// Parses the geometry; nil if `text` does not follow the grammar.
    package init?(parsing text: String) {
        var rest = Substring(text)
        if rest.first == "=" { rest = rest.dropFirst() }
        func number() -> Int? {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, digits.count <= 6, let n = Int(digits, radix: 10) else { return nil }
            rest = rest.dropFirst(digits.count)
            return n
        }
        func offset() -> Offset?? {
            guard let sign = rest.first, sign == "+" || sign == "-" else { return .some(nil) }
            rest = rest.dropFirst()
            guard let n = number() else { return nil }
            return .some(Offset(sign == "-" ? -n : n, fromFarEdge: sign == "-"))
        }
        if let c = rest.first, c != "+", c != "-", c != "x", c != "X" {
            guard let w = number() else { return nil }
            width = w
        }
        if rest.first == "x" || rest.first == "X" {
            rest = rest.dropFirst()
            guard let h = number() else { return nil }
            height = h
        }
        if rest.first == "+" || rest.first == "-" {
            guard let ox = offset(), let oy = offset(), let xo = ox, let yo = oy else { return nil }
            x = xo
            y = yo
        }
        guard rest.isEmpty, width != nil || x != nil else { return nil }
        if (width == nil) != (height == nil) { return nil }
    }

    /// The rectangle inside `area` this geometry names, using `defaultSize` where it gives
    /// no size and centring where it gives no position.
    package func resolve(in area: Rect, defaultSize: (width: Int, height: Int)) -> Rect {
        let w = Double(width ?? defaultSize.width)
        let h = Double(height ?? defaultSize.height)
        func place(_ offset: Offset?, extent: Double, start: Double, length: Double) -> Double {
            guard let offset else { return start + ((length - extent) / 2).rounded(.down) }
            return offset.fromFarEdge
                ? start + length - extent + Double(offset.value) : start + Double(offset.value)
        }
        return Rect(
            x: place(x, extent: w, start: area.x, length: area.width),
            y: place(y, extent: h, start: area.y, length: area.height),
            width: w, height: h)
    }
}
