/// Checked conversions of a layout's floating-point pixels into the integers an X request
/// takes. Layout values come from the X server's monitors (any size another client set)
/// and from arithmetic on them; `Int32(x)` and `UInt32(x)` trap on a negative, huge or
/// NaN value, and a trap in the guard after the grabs is a dead lock. These never trap.
extension Int32 {
    /// A coordinate: rounded down, within X's 16-bit range; NaN is 0.
    package init(xCoordinate value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        self = Int32(exactly: Swift.min(Swift.max(value.rounded(.down), -32768), 32767)) ?? 0
    }
}

extension UInt32 {
    /// A width or height: rounded up, from 1 (X refuses 0) to 32767; NaN is 1.
    package init(xExtent value: Double) {
        guard !value.isNaN else {
            self = 1
            return
        }
        self = UInt32(exactly: Swift.min(Swift.max(value.rounded(.up), 1), 32767)) ?? 1
    }
}

extension Int {
    /// A whole number of a rounded floating-point one: within Int's range, NaN as 0
    /// (`Int(x)` traps on both).
    package init(saturating value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        self = Int(exactly: Swift.min(Swift.max(value.rounded(.towardZero), -9.0e18), 9.0e18)) ?? 0
    }

    /// Whole pixels: rounded, within ±32767 (what X can place); NaN is 0.
    package init(pixels value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        self = Int(exactly: Swift.min(Swift.max(value.rounded(), -32767), 32767)) ?? 0
    }
}
