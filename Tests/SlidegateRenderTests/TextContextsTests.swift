import CGraphics
import SlidegateRender
import Testing

@Suite struct TextContextsTests {
    static let strings = [
        "slide to unlock", "Entsperren – ÄÖÜ ß", "Сдвиньте, чтобы разблокировать", "スライドでロック解除", "اسحب لفتح القفل",
        "\u{25CF}\u{25CF}\u{25CF}", "\u{1F513} open", "e\u{301}cran", "",
    ]

    /// `string` shaped and drawn with `context` on an image the caller destroys.
    func drawn(_ string: String, with context: OpaquePointer) -> OpaquePointer {
        let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 640, 64)!
        let cr = cairo_create(image)
        defer { cairo_destroy(cr) }
        let layout = pango_layout_new(context)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_text(layout, string, -1)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        cairo_move_to(cr, 4, 4)
        cairo_set_source_rgb(cr, 1, 1, 1)
        pango_cairo_update_context(cr, context)
        pango_cairo_show_layout(cr, layout)
        // The extents are part of what must not change: the label is placed by them.
        cairo_rectangle(cr, Double(ink.x + 4), Double(ink.y + 4), Double(ink.width), Double(ink.height))
        cairo_rectangle(cr, Double(logical.x + 4), Double(logical.y + 4), Double(logical.width), Double(logical.height))
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        cairo_surface_flush(image)
        return image
    }

    /// Whatever the family, style and language, a string draws the same pixels, and has the
    /// same extents, with the context it is given as with the family as asked.
    @Test(arguments: [
        ("Sans", nil), ("Sans", "en-us"), ("Sans Bold", "en-us"), ("Serif Italic", "en-us"), ("Monospace", "de"), ("Sans", "ja"),
        ("Sans", "ar"), ("Sans Condensed", "ru"), ("DejaVu Sans,VL Gothic", "ja"),
    ])
    func theFontsOwnFamilyDrawsTheSame(family: String, language: String?) throws {
        let contexts = TextContexts(fontMap: FontMap(), family: family, size: 24, language: language)
        for string in Self.strings {
            let given = drawn(string, with: contexts.general)
            let chosen = drawn(string, with: contexts.context(for: string))
            defer { [given, chosen].forEach { cairo_surface_destroy($0) } }
            #expect(GoldenImage.maxDifference(given, chosen) == 0, "\(family), \(language ?? "the environment's language"): \(string)")
        }
    }

    /// The label in a family of aliases is shaped with the font's own family; a string the
    /// first font lacks a character of, with the family as asked.
    @Test func aGenericFamilyIsAskedByTheFontsOwnNameWhenThatFontDrawsAll() throws {
        let contexts = TextContexts(fontMap: FontMap(), family: "Sans", size: 24)
        let own = try #require(contexts.ownFamily)
        #expect(own != "Sans")
        #expect(contexts.context(for: "slide to unlock") != contexts.general)
        #expect(contexts.context(for: "\u{1F513}") == contexts.general)
        #expect(contexts.context(for: "スライド") == contexts.general)
    }
}
