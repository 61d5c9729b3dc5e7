import CGraphics
import Glibc

/// The fonts text is drawn with. Owns a Pango font map, which may still be loading in a
/// thread of its own (`loadingInBackground`): the first use waits for it.
package final class FontMap: @unchecked Sendable {
    /// Written by the loading thread; read only after it was joined (`wait`).
    private var made: UnsafeMutablePointer<PangoFontMap>?
    private var thread: pthread_t?

    /// The system's fonts, as fontconfig is configured, loaded in the caller's thread.
    package init() {
        made = Self.systemFonts()
    }

    /// fontconfig's set-up (reading its configuration and caches, a few milliseconds) runs
    /// here, in the caller's thread, so that Pango finds it done and starts no thread of its
    /// own for it. If it fails, Pango meets the failure again and draws with what fontconfig
    /// gives.
    private static func systemFonts() -> UnsafeMutablePointer<PangoFontMap> {
        _ = FcInit()
        return pango_cairo_font_map_new()
    }

    private init(loading: ()) {}

    /// The system's fonts, loaded in a thread of its own (fontconfig's set-up: most of a
    /// cold start), while the caller talks to its peers and draws what needs no text; the
    /// first use waits. If no thread can be started, the first use loads them.
    package static func loadingInBackground() -> FontMap {
        let map = FontMap(loading: ())
        var started = pthread_t()
        let context = Unmanaged.passRetained(map).toOpaque()
        let status = pthread_create(&started, nil, { context in
            guard let context else { return nil }
            let map = Unmanaged<FontMap>.fromOpaque(context).takeRetainedValue()
            map.made = FontMap.systemFonts()
            return nil
        }, context)
        if status == 0 {
            map.thread = started
        } else {
            Unmanaged<FontMap>.fromOpaque(context).release()
        }
        return map
    }

    /// Waits until the loading thread is done (at once when there is none).
    package func wait() {
        // The thread itself may hold the last reference: it does not wait for itself.
        if let thread, pthread_equal(thread, pthread_self()) == 0 {
            pthread_join(thread, nil)
            self.thread = nil
        }
    }

    var pointer: UnsafeMutablePointer<PangoFontMap> {
        wait()
        if let made { return made }
        let map = Self.systemFonts()
        made = map
        return map
    }

    /// Scales bitmap fonts (colour emoji) to the size asked for, as fontconfig's stock
    /// 10-scale-bitmap-fonts.conf does for the system configuration.
    private static let scaleBitmapFonts = """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <edit name="pixelsizefixupfactor" mode="assign">
              <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
            </edit>
          </match>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
            <edit name="matrix" mode="assign">
              <times><name>matrix</name><matrix><name>pixelsizefixupfactor</name><double>0</double>
                <double>0</double><name>pixelsizefixupfactor</name></matrix></times>
            </edit>
            <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
          </match>
        </fontconfig>
        """

    /// Only the given font files, so drawing does not depend on what is installed.
    package init(files: [String]) throws(RenderError) {
        guard let config = FcConfigCreate() else { throw RenderError("fontconfig could not create a configuration") }
        defer { FcConfigDestroy(config) }
        guard FcConfigParseAndLoadFromMemory(config, Self.scaleBitmapFonts, FcTrue) == FcTrue else {
            throw RenderError("fontconfig rejected the bitmap-scaling rule")
        }
        for file in files {
            guard FcConfigAppFontAddFile(config, file) == FcTrue else {
                throw RenderError("cannot load the font file \(file)")
            }
        }
        let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        made = map
    }

    deinit {
        wait()
        made.map { g_object_unref($0) }
    }

    /// The characters of `text` that no font of the map has a glyph for in `family` (Pango
    /// falls back to any font that has one, so these would show as boxes), each once.
    package func uncovered(_ text: String, family: String) -> [Character] {
        let context = makePangoContext(self, family: family, size: 20)
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        guard let layout = pango_layout_new(context) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var seen = Set<Character>()
        var missing: [Character] = []
        for character in text where !character.isWhitespace && seen.insert(character).inserted {
            pango_layout_set_text(layout, String(character), -1)
            if pango_layout_get_unknown_glyphs_count(layout) > 0 { missing.append(character) }
        }
        return missing
    }
}

/// A drawing failure, with Cairo's or Pango's reason.
package struct RenderError: Error, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }

    init(status: cairo_status_t, _ what: String) {
        description = "\(what): \(String(cString: cairo_status_to_string(status)))"
    }
}
