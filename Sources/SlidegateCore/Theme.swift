/// A theme's settings (`--theme DIR`, stretchable images): `DIR/theme.conf`,
/// in the configuration file's `name=value` lines. The images themselves are `track.png`,
/// `thumb.png` and, optionally, `thumb-busy.png`, each with a `@2x` variant that is used
/// at a scale of 1.5 or more.
package struct ThemeConfig: Equatable, Sendable {
    /// How much of each edge of an image stays as it is when it is stretched (nine-slice):
    /// corners as they are, edges stretched along one axis, the middle both ways. In the
    /// 1x image's pixels.
    package struct Caps: Equatable, Sendable {
        package var left = 0, top = 0, right = 0, bottom = 0

        package init(left: Int = 0, top: Int = 0, right: Int = 0, bottom: Int = 0) {
            (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
        }

        /// Whether the caps leave a middle in an image of this size.
        package func fit(width: Int, height: Int) -> Bool {
            left + right < width && top + bottom < height
        }

        package func scaled(by factor: Int) -> Caps {
            Caps(left: left * factor, top: top * factor, right: right * factor, bottom: bottom * factor)
        }
    }

    package var trackCaps = Caps()
    package var thumbCaps = Caps()
    /// The label's colour (unless `--foreground` is given).
    package var foreground: Color?
    /// A Pango font description for the label, such as "Serif Italic".
    package var labelFont: String?
    /// The colour of what the renderer draws on the theme's thumb (the padlock, and the busy
    /// dots without a busy image); the label's colour without it.
    package var glyph: Color?
    /// The lock's background colour (unless `--background` is given).
    package var background: Color?
    /// The label's alpha between the shimmer's sweeps, as a fraction of its colour's
    /// (0.3 to 1; the built-in look's is 0.5): a theme that must keep its contrast raises it.
    package var labelDim: Double?

    package init() {}

    /// Reads `theme.conf`; an error names the file and the line.
    package init(parsing text: String, path: String) throws(UserError) {
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.filter { $0 != "\r" }.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            func problem(_ what: String) -> UserError { UserError("\(path):\(number + 1): \(what)", status: .usage) }
            guard let equals = line.firstIndex(of: "=") else { throw problem("expected name=value, got \"\(line)\"") }
            let name = String(line[..<equals]).trimmingBlanks
            let value = String(line[line.index(after: equals)...]).trimmingBlanks
            switch name {
            case "track-caps", "thumb-caps":
                let numbers = value.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingBlanks, radix: 10) }
                guard numbers.count == 4, let l = numbers[0], let t = numbers[1], let r = numbers[2], let b = numbers[3],
                    [l, t, r, b].allSatisfy({ $0 >= 0 && $0 <= 4096 })
                else { throw problem("\(name): expected four whole numbers L,T,R,B, got \"\(value)\"") }
                let caps = Caps(left: l, top: t, right: r, bottom: b)
                if name == "track-caps" { trackCaps = caps } else { thumbCaps = caps }
            case "foreground":
                guard let color = Color(hex: value) else { throw problem("foreground: expected a colour as #RGB, #RRGGBB or #RRGGBBAA, got \"\(value)\"") }
                foreground = color
            case "background":
                guard let color = Color(hex: value), color.alpha == 1 else {
                    throw problem("background: expected an opaque colour as #RGB or #RRGGBB, got \"\(value)\"")
                }
                background = color
            case "glyph":
                guard let color = Color(hex: value) else { throw problem("glyph: expected a colour as #RGB, #RRGGBB or #RRGGBBAA, got \"\(value)\"") }
                glyph = color
            case "label-dim":
                guard let dim = Double(value), dim >= 0.3, dim <= 1 else { throw problem("label-dim: expected a number from 0.3 to 1, got \"\(value)\"") }
                labelDim = dim
            case "label-font":
                guard !value.isEmpty else { throw problem("label-font: expected a Pango font such as \"Serif Italic\", got nothing") }
                labelFont = value
            default:
                throw problem("unknown setting \"\(name)\"")
            }
        }
    }
}

extension StringProtocol {
    fileprivate var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
