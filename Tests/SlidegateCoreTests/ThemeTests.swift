import SlidegateCore
import Testing

@Suite struct ThemeConfigTests {
    @Test func capsColourAndFont() throws {
        let c = try ThemeConfig(
            parsing: "# classic\ntrack-caps = 16,16,16,16\nthumb-caps=14, 12, 14, 12\nforeground=#f2f4f8\nlabel-font=Serif Italic\n",
            path: "/t/theme.conf")
        #expect(c.trackCaps == ThemeConfig.Caps(left: 16, top: 16, right: 16, bottom: 16))
        #expect(c.thumbCaps == ThemeConfig.Caps(left: 14, top: 12, right: 14, bottom: 12))
        #expect(c.foreground == Color(hex: "#f2f4f8") && c.labelFont == "Serif Italic")
        #expect(try ThemeConfig(parsing: "", path: "x") == ThemeConfig(), "every setting is optional")
    }

    @Test(arguments: [
        ("track-caps=1,2,3", #"/t/theme.conf:1: track-caps: expected four whole numbers L,T,R,B, got "1,2,3""#),
        ("\nthumb-caps=1,-2,3,4", #"/t/theme.conf:2: thumb-caps: expected four whole numbers L,T,R,B, got "1,-2,3,4""#),
        ("foreground=white", #"/t/theme.conf:1: foreground: expected a colour as #RGB, #RRGGBB or #RRGGBBAA, got "white""#),
        ("label-font=", "/t/theme.conf:1: label-font: expected a Pango font such as \"Serif Italic\", got nothing"),
        ("shadow=2", #"/t/theme.conf:1: unknown setting "shadow""#),
        ("background=#00000080", ##"/t/theme.conf:1: background: expected an opaque colour as #RGB or #RRGGBB, got "#00000080""##),
        ("label-dim=0.2", #"/t/theme.conf:1: label-dim: expected a number from 0.3 to 1, got "0.2""#),
        ("glyph=black", #"/t/theme.conf:1: glyph: expected a colour as #RGB, #RRGGBB or #RRGGBBAA, got "black""#),
        ("caps", #"/t/theme.conf:1: expected name=value, got "caps""#),
    ])
    func aBadLineNamesTheFileAndLine(_ text: String, _ message: String) {
        #expect(throws: UserError(message, status: .usage)) { try ThemeConfig(parsing: text, path: "/t/theme.conf") }
    }

    @Test func aThemeMaySetTheBackgroundTheLabelsDimAndTheGlyph() throws {
        let c = try ThemeConfig(parsing: "background=#000\nlabel-dim=0.8\nglyph=#000000\n", path: "/t/theme.conf")
        #expect(c.background == Color(hex: "#000000") && c.labelDim == 0.8 && c.glyph == Color(hex: "#000000"))
    }

    @Test func capsMustLeaveAMiddle() {
        let caps = ThemeConfig.Caps(left: 16, top: 16, right: 16, bottom: 16)
        #expect(caps.fit(width: 40, height: 40) && !caps.fit(width: 32, height: 40) && !caps.fit(width: 40, height: 30))
        #expect(caps.scaled(by: 2).fit(width: 80, height: 80) && !caps.scaled(by: 2).fit(width: 40, height: 40))
    }
}
