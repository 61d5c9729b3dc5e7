import CGraphics
import SlidegateCore
@testable import SlidegateRender
import Testing

/// Text that fits its line is shaped without a `PangoLayout` (`GlyphLine`): it must be the
/// same image, at the same place, as the layout makes.
@Suite struct ShapedTextTests {
    static let strings = [
        "slide to unlock", "Zum Entsperren schieben", "Сдвиньте для разблокировки", "fi ffl AVAWAY", "e\u{301}te\u{301} 1234",
        "Ελληνικά", "   ",
    ]

    @Test(arguments: strings)
    func aLineWithoutALayoutIsTheLayoutsImage(_ string: String) throws {
        let fonts = try FontMap(files: GoldenImage.fontFiles)
        let contexts = TextContexts(fontMap: fonts, family: GoldenImage.family, size: 24)
        #expect(GlyphLine(string, fitting: 400 * PANGO_SCALE, context: contexts.general) != nil)
        let white = Color(red: 1, green: 1, blue: 1, alpha: 1)
        let line = try ShapedText(string, width: 400, contexts: contexts, color: white)
        let layout = try ShapedText(string, width: 400, contexts: contexts, color: white, throughLayout: true)
        #expect(line.imageX == layout.imageX && line.imageY == layout.imageY)
        #expect(line.logicalX == layout.logicalX && line.logicalY == layout.logicalY)
        #expect(line.width == layout.width && line.height == layout.height)
        #expect(GoldenImage.maxDifference(line.image, layout.image) == 0)
    }

    @Test(arguments: ["slide to unlock", "مرر لفتح القفل", "a\tb", "", "→ unlock"])
    func textALayoutTreatsOtherwiseIsLeftToIt(_ string: String) throws {
        let fonts = try FontMap(files: GoldenImage.fontFiles)
        let context = makePangoContext(fonts, family: GoldenImage.family, size: 24)
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        // Too wide to fit (ellipsized), right to left, a tab, nothing, past U+058F.
        let fits = string == "slide to unlock" ? Int32(40) : 400
        #expect(GlyphLine(string, fitting: fits * PANGO_SCALE, context: context) == nil)
    }
}
