import CGraphics

/// The fonts text is drawn with. Owns a Pango font map.
public final class FontMap {
    let pointer: UnsafeMutablePointer<PangoFontMap>

    /// The system's fonts, as fontconfig is configured.
    public init() {
        pointer = pango_cairo_font_map_new()
    }

    /// Only the given font files, so drawing does not depend on what is installed.
    public init(files: [String]) throws(RenderError) {
        guard let config = FcConfigCreate() else { throw RenderError("fontconfig could not create a configuration") }
        defer { FcConfigDestroy(config) }
        for file in files {
            guard FcConfigAppFontAddFile(config, file) == FcTrue else {
                throw RenderError("cannot load the font file \(file)")
            }
        }
        pointer = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        pango_fc_font_map_set_config(OpaquePointer(pointer), config)
    }

    deinit {
        g_object_unref(pointer)
    }
}

/// A drawing failure, with Cairo's or Pango's reason.
public struct RenderError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    init(status: cairo_status_t, _ what: String) {
        description = "\(what): \(String(cString: cairo_status_to_string(status)))"
    }
}
