import CGraphics
import SlidegateCore
import SlidegateRender
import Testing

/// The PIN wheels (seed 003's drums), painted offscreen with the pinned fonts.
@Suite struct WheelGoldenTests {
    static let width = 480
    static let height = 192

    func renderer(count: Int = 4) throws -> WheelRenderer {
        WheelRenderer(
            row: WheelRow(area: Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)), count: count),
            background: Color(hex: "#15171c")!, foreground: Color(hex: "#ffffff")!,
            fontMap: try FontMap(files: GoldenImage.fontFiles), family: GoldenImage.family)
    }

    /// The wheels above a 480x72 slider, as lock mode places them (`slider` nil: wheels alone).
    func check(_ name: String, _ wheels: Scene.WheelsView, count: Int = 4, slider: Scene? = nil) throws {
        let sliderHeight = slider == nil ? 0 : 72 + 24
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(Self.width), Int32(Self.height + sliderHeight))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        try renderer(count: count).draw(wheels, into: cr)
        if let slider {
            cairo_rectangle(cr, 0, Double(Self.height), Double(Self.width), 24)
            cairo_set_source_rgb(cr, 0x15 / 255.0, 0x17 / 255.0, 0x1c / 255.0)
            cairo_fill(cr)
            cairo_translate(cr, 0, Double(Self.height + 24))
            try GoldenImage.renderer().draw(slider, into: cr)
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        try GoldenImage.compare(name, surface, sourceLocation: #_sourceLocation)
    }

    @Test func atRest() throws {
        try check("wheels-rest", Scene.WheelsView(positions: [3, 1, 4, 1], focus: nil, enabled: true))
    }

    @Test func midTurnTheNeighboursRollAwayOnTheDrum() throws {
        try check("wheels-turning", Scene.WheelsView(positions: [3.5, 11.25, -5.2, 0.1], focus: nil, enabled: true))
    }

    @Test func theFocusedWheelIsRinged() throws {
        try check("wheels-focus", Scene.WheelsView(positions: [2, 5, 8, 0], focus: 2, enabled: true))
    }

    @Test func scrambledAndWaitingOutADelay() throws {
        try check("wheels-blocked", Scene.WheelsView(positions: [7, 0, 9, 6, 2, 4], focus: 0, enabled: false), count: 6)
    }

    @Test func besideAJapaneseLabel() throws {
        let label = Scene.Label(text: "スライドでロック解除", placement: .afterThumb, emphasis: .shimmer(band: 0.4), alpha: 1)
        try check(
            "wheels-japanese", Scene.WheelsView(positions: [9, 9.5, 0, 4], focus: 0, enabled: true),
            slider: Scene(thumbValue: 0, label: label, busy: false))
    }

    @Test func twelveWheelsFitTheRow() throws {
        let row = WheelRow(area: Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)), count: 12)
        #expect(row.wheel(0).x >= 0 && row.wheel(11).maxX <= Double(Self.width))
        try check("wheels-twelve", Scene.WheelsView(positions: (0..<12).map(Double.init), focus: nil, enabled: true), count: 12)
    }
}
