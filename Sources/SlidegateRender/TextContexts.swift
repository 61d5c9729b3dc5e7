import CGraphics

/// The Pango contexts a renderer shapes its strings with: `general` asks for the family as
/// given, and shapes every line that fits without a layout (`GlyphLine`); a string drawn
/// through a layout that the one font fontconfig picks first for that family draws whole is
/// shaped with a context that asks for that font's own family instead.
///
/// Why: Pango sets a font up inside a layout's first line breaking by laying out a sample
/// text in the font's own family. Asked for a generic family ("Sans"), that is a second
/// family, and fontconfig matches and sorts every installed font a second time
/// (docs/PERFORMANCE.md has the figures). Asked for the font's own family, the two lookups
/// are one. The pixels are the same: the same one font draws the string either way.
package final class TextContexts {
    package let general: OpaquePointer
    private let fontMap: FontMap
    /// Looked up at the first string.
    private lazy var firstFont: FirstFont? = FirstFont(for: general, in: fontMap)
    private var own: OpaquePointer?

    /// - Parameter language: the strings' language (an RFC 3066 tag); the environment's when nil.
    package init(fontMap: FontMap, family: String, size: Double, language: String? = nil) {
        general = makePangoContext(fontMap, family: family, size: size)
        if let language { pango_context_set_language(general, pango_language_from_string(language)) }
        self.fontMap = fontMap
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(general))
        own.map { g_object_unref(UnsafeMutableRawPointer($0)) }
    }

    /// The family the own-family context asks for, if there is one.
    package var ownFamily: String? { firstFont?.family }

    /// The context to shape `string` with.
    package func context(for string: String) -> OpaquePointer {
        guard let firstFont, firstFont.drawsWhole(string) else { return general }
        if let own { return own }
        let description = pango_font_description_copy(pango_context_get_font_description(general))
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, firstFont.family)
        let made = makePangoContext(fontMap, description: description)
        pango_context_set_language(made, pango_context_get_language(general))
        own = made
        return made
    }
}

/// The font fontconfig matches first for a context's font description and language, asked
/// as Pango asks (`pango_fc_make_pattern`, then the configuration's and Cairo's
/// substitutions): the font Pango draws every character with that it has a glyph for.
private final class FirstFont {
    let family: String
    private let match: OpaquePointer
    private let charset: OpaquePointer
    private let language: OpaquePointer

    init?(for context: OpaquePointer, in fontMap: FontMap) {
        guard let description = pango_context_get_font_description(context),
            let families = pango_font_description_get_family(description).map({ String(cString: $0) }),
            let language = pango_context_get_language(context) ?? pango_language_get_default(),
            let pattern = FcPatternCreate()
        else { return nil }
        defer { FcPatternDestroy(pattern) }
        let dpi = pango_cairo_font_map_get_resolution(OpaquePointer(fontMap.pointer))
        let pixels = Double(pango_font_description_get_size(description)) / Double(PANGO_SCALE)
        FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(pango_font_description_get_weight(description).rawValue)))
        FcPatternAddInteger(pattern, FC_SLANT, Self.slant(pango_font_description_get_style(description)))
        FcPatternAddInteger(pattern, FC_WIDTH, Self.width(pango_font_description_get_stretch(description)))
        FcPatternAddBool(pattern, FC_VARIABLE, FcDontCare)
        FcPatternAddDouble(pattern, FC_DPI, dpi)
        FcPatternAddDouble(pattern, FC_SIZE, pixels * 72 / dpi)
        FcPatternAddDouble(pattern, FC_PIXEL_SIZE, pixels)
        for name in families.split(separator: ",") { Self.add(String(name), as: FC_FAMILY, to: pattern) }
        Self.add(String(cString: pango_language_to_string(language)), as: FC_LANG, to: pattern)
        let config = pango_fc_font_map_get_config(OpaquePointer(fontMap.pointer))
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        cairo_ft_font_options_substitute(pango_cairo_context_get_font_options(context), pattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        var name: UnsafeMutablePointer<FcChar8>?
        var charset: OpaquePointer?
        guard FcPatternGetString(match, FC_FAMILY, 0, &name) == FcResultMatch, let name,
            FcPatternGetCharSet(match, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
            case let family = String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)),
            // A comma would make the one family a list of families in a Pango description.
            !family.contains(",")
        else {
            FcPatternDestroy(match)
            return nil
        }
        self.family = family
        self.match = match
        self.charset = charset
        self.language = language
    }

    deinit {
        FcPatternDestroy(match)
    }

    /// Whether this font has every character of `string`, and Pango asks for fonts for each
    /// of them in the context's language (a script the language is not written in has its
    /// own sample language, and so maybe another first font).
    func drawsWhole(_ string: String) -> Bool {
        string.unicodeScalars.allSatisfy { scalar in
            let script = g_unichar_get_script(scalar.value)
            let anyLanguage = script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED || script == G_UNICODE_SCRIPT_UNKNOWN
            return FcCharSetHasChar(charset, scalar.value) == FcTrue
                && (anyLanguage || pango_language_includes_script(language, PangoScript(script.rawValue)) != 0)
        }
    }

    private static func add(_ value: String, as object: String, to pattern: OpaquePointer) {
        value.withCString { text in
            text.withMemoryRebound(to: FcChar8.self, capacity: value.utf8.count + 1) { _ = FcPatternAddString(pattern, object, $0) }
        }
    }

    private static func slant(_ style: PangoStyle) -> Int32 {
        switch style {
        case PANGO_STYLE_ITALIC: FC_SLANT_ITALIC
        case PANGO_STYLE_OBLIQUE: FC_SLANT_OBLIQUE
        default: FC_SLANT_ROMAN
        }
    }

    private static func width(_ stretch: PangoStretch) -> Int32 {
        switch stretch {
        case PANGO_STRETCH_ULTRA_CONDENSED: FC_WIDTH_ULTRACONDENSED
        case PANGO_STRETCH_EXTRA_CONDENSED: FC_WIDTH_EXTRACONDENSED
        case PANGO_STRETCH_CONDENSED: FC_WIDTH_CONDENSED
        case PANGO_STRETCH_SEMI_CONDENSED: FC_WIDTH_SEMICONDENSED
        case PANGO_STRETCH_SEMI_EXPANDED: FC_WIDTH_SEMIEXPANDED
        case PANGO_STRETCH_EXPANDED: FC_WIDTH_EXPANDED
        case PANGO_STRETCH_EXTRA_EXPANDED: FC_WIDTH_EXTRAEXPANDED
        case PANGO_STRETCH_ULTRA_EXPANDED: FC_WIDTH_ULTRAEXPANDED
        default: FC_WIDTH_NORMAL
        }
    }
}
