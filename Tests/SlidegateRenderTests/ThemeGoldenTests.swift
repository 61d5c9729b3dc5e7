import Glibc
import CGraphics
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import Testing

/// The classic theme (resources/themes/classic): track and thumb images stretched
/// nine-slice, at rest, mid-drag, busy, at two widths and at scale 2 (the @2x images).
@Suite struct ThemeGoldenTests {
    static let directory = String(#filePath.dropLast("Tests/SlidegateRenderTests/ThemeGoldenTests.swift".count))
        + "resources/themes/classic"

    func renderer(width: Int, height: Int, scale: Double = 1) throws -> Renderer {
        let files = try ThemeFiles(directory: Self.directory, scale: scale)
        let images = try ThemeImages(
            track: files.track, thumb: files.thumb, busy: files.busy, trackCaps: files.trackCaps, thumbCaps: files.thumbCaps,
            capScale: scale / (files.doubled ? 2 : 1))
        return Renderer(
            layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: Double(width), height: Double(height))),
            background: Color(hex: "#15171c")!, foreground: files.config.foreground!,
            fontMap: try FontMap(files: GoldenImage.fontFiles), family: GoldenImage.family, theme: images)
    }

    func label(_ value: Double, band: Double? = nil) -> Scene.Label {
        Scene.Label(text: "slide to unlock", placement: .afterThumb, emphasis: .shimmer(band: band), alpha: Presenter.labelAlpha(forValue: value))
    }

    @Test func atRestMidDragAndBusy() throws {
        let r = try renderer(width: 480, height: 72)
        try GoldenImage.check("theme-rest", Scene(thumbValue: 0, label: label(0, band: 0.5), busy: false), with: r)
        try GoldenImage.check("theme-drag", Scene(thumbValue: 0.45, label: label(0.45), busy: false), with: r)
        let busy = Scene.Label(text: "unlocking…", placement: .beforeEnd, emphasis: .solid, alpha: 1)
        try GoldenImage.check("theme-busy", Scene(thumbValue: 1, label: busy, busy: true), with: r)
    }

    @Test func nineSliceAtTwoWidthsAndTwice() throws {
        try GoldenImage.check("theme-wide", Scene(thumbValue: 0, label: label(0), busy: false), with: try renderer(width: 900, height: 60))
        try GoldenImage.check(
            "theme-scale-200", Scene(thumbValue: 0.2, label: label(0.2), busy: false), with: try renderer(width: 960, height: 144, scale: 2))
    }
}

/// `--theme NAME`: a shipped theme found by its name, a path kept as given.
@Suite(.serialized) struct ThemeNameTests {
    static let themes = String(#filePath.dropLast("Tests/SlidegateRenderTests/ThemeGoldenTests.swift".count)) + "resources/themes"

    @Test func aNameIsFoundInTheDataDirectoriesOrBesideTheProgram() throws {
        var template = Array("/tmp/slidegate-data.XXXXXX".utf8CString)
        let data = String(cString: try #require(mkdtemp(&template)))
        defer { _ = system("rm -rf '\(data)'") }
        mkdir(data + "/slidegate", 0o755)
        mkdir(data + "/slidegate/themes", 0o755)
        #expect(symlink(Self.themes + "/classic", data + "/slidegate/themes/mine") == 0)
        setenv("XDG_DATA_DIRS", "/nonexistent:" + data, 1)
        defer { unsetenv("XDG_DATA_DIRS") }
        #expect(ThemeFiles.locate("mine") == data + "/slidegate/themes/mine")
        // Not in the data directories: the source tree the tests were built in has it.
        #expect(ThemeFiles.locate("high-contrast").hasSuffix("/resources/themes/high-contrast"))
        #expect(try ThemeFiles(directory: "high-contrast", scale: 1).config.background == Color(hex: "#000000"))
        #expect(ThemeFiles.locate(Self.themes + "/classic") == Self.themes + "/classic", "a path")
        #expect(ThemeFiles.locate("no-such-theme") == "no-such-theme")
        #expect(ThemeFiles.locate("../classic") == "../classic", "not a name")
    }
}
