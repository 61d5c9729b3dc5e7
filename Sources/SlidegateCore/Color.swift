/// A non-premultiplied RGBA colour with components from 0 to 1.
package struct Color: Equatable, Sendable {
    package var red: Double
    package var green: Double
    package var blue: Double
    package var alpha: Double

    package init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    package init?(hex text: String) {
        guard text.hasPrefix("#") else { return nil }
        let digits = Array(text.utf8.dropFirst())
        let values = digits.compactMap { Self.nibble($0).map(Double.init) }
        guard values.count == digits.count else { return nil }
        switch values.count {
        case 3:
            self.init(red: values[0] / 15, green: values[1] / 15, blue: values[2] / 15)
        case 6, 8:
            let bytes = stride(from: 0, to: values.count, by: 2).map { (values[$0] * 16 + values[$0 + 1]) / 255 }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 1)
        default:
            return nil
        }
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    package var isOpaque: Bool { alpha >= 1 }

    /// This colour moved `amount` (0...1) of the way towards `other`, alpha included.
    package func mixed(with other: Color, _ amount: Double) -> Color {
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * amount }
        return Color(
            red: lerp(red, other.red), green: lerp(green, other.green), blue: lerp(blue, other.blue),
            alpha: lerp(alpha, other.alpha))
    }

    /// The same colour with its alpha multiplied by `factor`.
    package func fading(_ factor: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * factor)
    }
}
