import CGraphics
import SlidegateCore
import SlidegateRender
import Testing

/// Renders scenes offscreen with pinned fonts and compares them with PNGs kept beside the
/// tests. `SLIDEGATE_RECORD_GOLDENS=1 swift test` rewrites the PNGs (and fails, so a
/// recording run is never mistaken for a passing one).
enum GoldenImage {
    static let fontFiles = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
        "/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ]
    static let family = "DejaVu Sans,Noto Sans Arabic,VL Gothic,Noto Color Emoji"
    static let directory = String(#filePath.dropLast("GoldenImage.swift".count)) + "Goldens/"

    static func renderer(width: Int = 480, height: Int = 72, background: String = "#15171c", foreground: String = "#ffffff")
        throws -> Renderer
    {
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        return Renderer(
            layout: layout, background: Color(hex: background)!, foreground: Color(hex: foreground)!,
            fontMap: try FontMap(files: fontFiles), family: family)
    }

    /// An ARGB image surface with `scene` painted on it; the caller destroys it.
    static func render(_ scene: Scene, with renderer: Renderer) throws -> OpaquePointer {
        let b = renderer.layout.bounds
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(b.width), Int32(b.height))!
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        try renderer.draw(scene, into: cr!)
        cairo_surface_flush(surface)
        return surface
    }

    /// The largest per-channel difference between two same-sized ARGB32 surfaces, or nil
    /// when their sizes differ.
    static func maxDifference(_ a: OpaquePointer, _ b: OpaquePointer) -> Int? {
        let w = cairo_image_surface_get_width(a)
        let h = cairo_image_surface_get_height(a)
        guard w == cairo_image_surface_get_width(b), h == cairo_image_surface_get_height(b) else { return nil }
        let strideA = Int(cairo_image_surface_get_stride(a))
        let strideB = Int(cairo_image_surface_get_stride(b))
        let pa = cairo_image_surface_get_data(a)!
        let pb = cairo_image_surface_get_data(b)!
        var worst = 0
        for y in 0..<Int(h) {
            for x in 0..<Int(w) * 4 {
                worst = max(worst, abs(Int(pa[y * strideA + x]) - Int(pb[y * strideB + x])))
            }
        }
        return worst
    }

    /// Compares `scene` rendered with `renderer` against `Goldens/NAME.png`, allowing a
    /// difference of 2 per channel (rounding in Cairo's compositing paths).
    static func check(_ name: String, _ scene: Scene, with renderer: Renderer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = try render(scene, with: renderer)
        defer { cairo_surface_destroy(actual) }
        try compare(name, actual, sourceLocation: sourceLocation)
    }

    /// A banner strip of `width`x`height` painted by a `NoticeRenderer` with the pinned fonts.
    static func checkBanner(
        _ name: String, _ banner: Scene.BannerView?, width: Int = 480, height: Int = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let renderer = NoticeRenderer(
            width: Double(width), height: Double(height), background: Color(hex: "#15171c")!, foreground: Color(hex: "#ffffff")!,
            fontMap: try FontMap(files: fontFiles), family: family, textSize: (Double(height) * 0.28).rounded())
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        try renderer.drawBanner(banner, into: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        try compare(name, surface, sourceLocation: sourceLocation)
    }

    /// The switch-user button, `width`x`height`, painted by a `NoticeRenderer` as lock mode's
    /// UI paints it (text 0.42 of the height).
    static func checkButton(_ name: String, _ text: String, width: Int = 144, height: Int = 40, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let renderer = NoticeRenderer(
            width: Double(width), height: Double(height), background: Color(hex: "#15171c")!, foreground: Color(hex: "#ffffff")!,
            fontMap: try FontMap(files: fontFiles), family: family, textSize: (Double(height) * 0.42).rounded())
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        try renderer.drawButton(text, into: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        try compare(name, surface, sourceLocation: sourceLocation)
    }

    /// Compares an image with `Goldens/NAME.png` (or records it).
    static func compare(_ name: String, _ actual: OpaquePointer, sourceLocation: SourceLocation) throws {
        let path = directory + name + ".png"
        if Environment.recording {
            #expect(cairo_surface_write_to_png(actual, path) == CAIRO_STATUS_SUCCESS, sourceLocation: sourceLocation)
            Issue.record("recorded \(path); run again without SLIDEGATE_RECORD_GOLDENS", sourceLocation: sourceLocation)
            return
        }
        let expected = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(expected) }
        try #require(
            cairo_surface_status(expected) == CAIRO_STATUS_SUCCESS, "cannot read the golden image \(path)",
            sourceLocation: sourceLocation)
        let difference = maxDifference(actual, expected)
        if difference == nil || difference! > 2 {
            let failed = "/tmp/slidegate-golden-\(name).png"
            cairo_surface_write_to_png(actual, failed)
            Issue.record(
                "\(name): differs from \(path) by \(difference.map(String.init) ?? "size"); actual image in \(failed)",
                sourceLocation: sourceLocation)
        }
    }

    /// The pixel at (x, y) as (red, green, blue, alpha), un-premultiplied to 0...255.
    static func pixel(_ surface: OpaquePointer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let p = cairo_image_surface_get_data(surface)!.advanced(by: y * stride + x * 4)
        let a = Int(p[3])
        func channel(_ v: UInt8) -> Int { a == 0 ? 0 : min(255, Int(v) * 255 / a) }
        return (channel(p[2]), channel(p[1]), channel(p[0]), a)
    }
}

enum Environment {
    static var recording: Bool { getenv("SLIDEGATE_RECORD_GOLDENS").map { String(cString: $0) == "1" } ?? false }
}
