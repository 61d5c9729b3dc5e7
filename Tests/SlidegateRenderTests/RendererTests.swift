import CGraphics
import Glibc
import SlidegateCore
import SlidegateRender
import Testing

private func label(_ text: String, band: Double? = nil, alpha: Double = 1) -> Scene.Label {
    Scene.Label(text: text, placement: .afterThumb, emphasis: .shimmer(band: band), alpha: alpha)
}

@Suite struct RendererGoldenTests {
    @Test func thumbAtStartMiddleAndEnd() throws {
        let renderer = try GoldenImage.renderer()
        for value in [0.0, 0.5, 1.0] {
            let scene = Scene(
                thumbValue: value, label: label("slide to unlock", alpha: Presenter.labelAlpha(forValue: value)), busy: false)
            try GoldenImage.check("thumb-\(Int(value * 100))", scene, with: renderer)
        }
    }

    /// The lock's UI draws the track and the thumb while its fonts load (`prepare`): the
    /// frame is the same as one drawn at once.
    @Test func aPreparedRendererDrawsTheSameFrame() throws {
        let renderer = try GoldenImage.renderer()
        let scene = Scene(thumbValue: 0, label: label("slide to unlock", alpha: Presenter.labelAlpha(forValue: 0)), busy: false)
        try renderer.prepare(scene)
        try GoldenImage.check("thumb-0", scene, with: renderer)
    }

    /// Fonts loaded in a thread of their own draw what fonts loaded in the caller's thread do.
    @Test func fontsLoadedInTheBackgroundDrawTheSame() throws {
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 480, height: 72))
        let scene = Scene(thumbValue: 0, label: label("slide to unlock", band: 0.5), busy: false)
        let frames = try [FontMap.loadingInBackground(), FontMap()].map { fonts in
            try GoldenImage.render(
                scene, with: Renderer(layout: layout, background: Color(hex: "#15171c")!, foreground: Color(hex: "#ffffff")!, fontMap: fonts))
        }
        defer { frames.forEach { cairo_surface_destroy($0) } }
        #expect(GoldenImage.maxDifference(frames[0], frames[1]) == 0)
        #expect(Renderer.ink(of: frames[0]) != nil)
    }

    @Test func shimmerPhases() throws {
        let renderer = try GoldenImage.renderer()
        let shimmer = Shimmer()
        for elapsed in [0.0, 0.25, 0.5, 0.9, 1.5] {
            let scene = Scene(thumbValue: 0, label: label("slide to unlock", band: shimmer.bandCentre(elapsed: elapsed)), busy: false)
            try GoldenImage.check("shimmer-\(Int(elapsed * 100))", scene, with: renderer)
        }
    }

    @Test func japaneseAndArabicLabels() throws {
        let renderer = try GoldenImage.renderer()
        try GoldenImage.check("japanese", Scene(thumbValue: 0, label: label("スライドでロック解除", band: 0.5), busy: false), with: renderer)
        try GoldenImage.check("arabic", Scene(thumbValue: 0, label: label("اسحب لفتح القفل", band: 0.5), busy: false), with: renderer)
    }

    @Test func emojiAndCombiningMarks() throws {
        let renderer = try GoldenImage.renderer()
        try GoldenImage.check("emoji", Scene(thumbValue: 0, label: label("slide 🔓 to go 🚀", band: 0.3), busy: false), with: renderer)
        let combining = "Ze\u{301}\u{327}ro n\u{303} a\u{308}\u{304} \u{1E9B}\u{323}"
        try GoldenImage.check("combining", Scene(thumbValue: 0, label: label(combining, band: 0.6), busy: false), with: renderer)
    }

    @Test func busyAndFailureMessages() throws {
        let renderer = try GoldenImage.renderer()
        let busy = Scene.Label(text: "unlocking…", placement: .beforeEnd, emphasis: .solid, alpha: 1)
        try GoldenImage.check("busy", Scene(thumbValue: 1, label: busy, busy: true), with: renderer)
        let failed = Scene.Label(text: "unlock failed", placement: .afterThumb, emphasis: .solid, alpha: 1)
        try GoldenImage.check("failed", Scene(thumbValue: 0, label: failed, busy: false), with: renderer)
    }

    @Test func scaledOneAndAHalfAndTwice() throws {
        // What --scale 1.5 and 2 (or Xft.dpi 144 and 192) make of the default 480x72 slider.
        for (name, width, height) in [("scale-150", 720, 108), ("scale-200", 960, 144)] {
            let renderer = try GoldenImage.renderer(width: width, height: height)
            try GoldenImage.check(name, Scene(thumbValue: 0.3, label: label("slide to unlock", band: 0.5, alpha: Presenter.labelAlpha(forValue: 0.3)), busy: false), with: renderer)
        }
    }

    @Test func largeSliderStaysCrisp() throws {
        let renderer = try GoldenImage.renderer(width: 900, height: 160, background: "#f4f4f4", foreground: "#202428")
        try GoldenImage.check("large-light", Scene(thumbValue: 0.2, label: label("slide to cancel", alpha: Presenter.labelAlpha(forValue: 0.2)), busy: false), with: renderer)
    }
}

@Suite struct PasswordStageGoldenTests {
    func field(_ prompt: String = "Password:", count: Int = 0, notice: String? = nil) -> Scene.Field {
        Scene.Field(prompt: prompt, count: count, notice: notice)
    }

    @Test func emptyTypedBusyAndCapsLock() throws {
        let renderer = try GoldenImage.renderer()
        try GoldenImage.check("field-empty", Scene(thumbValue: 1, label: nil, busy: false, field: field()), with: renderer)
        try GoldenImage.check("field-5", Scene(thumbValue: 1, label: nil, busy: false, field: field(count: 5)), with: renderer)
        var layout = field(count: 5)
        layout.layout = "de"
        try GoldenImage.check("field-layout", Scene(thumbValue: 1, label: nil, busy: false, field: layout), with: renderer)
        layout.failedAttempts = 3
        try GoldenImage.check("field-failed-attempts", Scene(thumbValue: 1, label: nil, busy: false, field: layout), with: renderer)
        try GoldenImage.check("field-busy", Scene(thumbValue: 1, label: nil, busy: true, field: field()), with: renderer)
        try GoldenImage.check(
            "field-caps", Scene(thumbValue: 1, label: nil, busy: false, field: field(notice: "Caps Lock is on")), with: renderer)
    }

    @Test func japaneseAndArabicPrompts() throws {
        let renderer = try GoldenImage.renderer()
        try GoldenImage.check("field-japanese", Scene(thumbValue: 1, label: nil, busy: false, field: field("パスワード:")), with: renderer)
        try GoldenImage.check("field-arabic", Scene(thumbValue: 1, label: nil, busy: false, field: field("كلمة المرور:")), with: renderer)
    }

    @Test func aBannerOfEachKindAndOneSlidingIn() throws {
        try GoldenImage.checkBanner("banner-info", Scene.BannerView(kind: .info, text: "Last login: Mon Nov 30 09:12 on tty1", shown: 1))
        try GoldenImage.checkBanner("banner-warning", Scene.BannerView(kind: .warning, text: "Caps Lock is on", shown: 1))
        try GoldenImage.checkBanner(
            "banner-error",
            Scene.BannerView(kind: .error, text: "The account is locked due to 3 failed logins. (298 seconds left to unlock)", shown: 1))
        try GoldenImage.checkButton("switch-user", "switch user")
        try GoldenImage.checkButton("switch-user-long", "Benutzer wechseln und abmelden")
        try GoldenImage.checkBanner("banner-sliding", Scene.BannerView(kind: .error, text: "wrong password", shown: 0.5))
        try GoldenImage.checkBanner("banner-none", nil)
    }
}

@Suite struct RendererPixelTests {
    @Test func aLongLabelIsEllipsizedInsideTheTrack() throws {
        let renderer = try GoldenImage.renderer()
        let long = String(repeating: "slide all the way to the right to unlock this screen ", count: 4)
        let extent = try renderer.textExtent(long, width: renderer.layout.labelArea.width)
        #expect(extent.width <= renderer.layout.labelArea.width)
        let withText = try GoldenImage.render(Scene(thumbValue: 0, label: label(long), busy: false), with: renderer)
        defer { cairo_surface_destroy(withText) }
        let without = try GoldenImage.render(Scene(thumbValue: 0, label: nil, busy: false), with: renderer)
        defer { cairo_surface_destroy(without) }
        let area = renderer.layout.labelArea
        var inside = 0
        for y in 0..<72 {
            for x in 0..<480 {
                let differs = GoldenImage.pixel(withText, x, y) != GoldenImage.pixel(without, x, y)
                if Double(x) < area.x || Double(x) >= area.maxX {
                    #expect(!differs, "text drawn outside the label area at \(x),\(y)")
                } else if differs {
                    inside += 1
                }
            }
        }
        #expect(inside > 500, "the text is drawn")
    }

    /// A row of full blocks with the band at its middle over `background`: the image, the
    /// pixel at a fraction of the text's width along the middle row, and the track's colour
    /// right of the text. The caller destroys the image.
    func bandAcrossBlocks(background: String) throws -> (surface: OpaquePointer, at: (Double) -> (r: Int, g: Int, b: Int, a: Int), track: Int) {
        let renderer = try GoldenImage.renderer(background: background, foreground: "#ffffff")
        let text = "████████████"
        let extent = try renderer.textExtent(text, width: renderer.layout.labelArea.width)
        let area = renderer.layout.labelArea
        let left = (area.midX - extent.x - extent.width / 2).rounded() + extent.x
        let surface = try GoldenImage.render(Scene(thumbValue: 0, label: label(text, band: 0.5), busy: false), with: renderer)
        let at = { (fraction: Double) in GoldenImage.pixel(surface, Int(left + fraction * extent.width), 36) }
        return (surface, at, GoldenImage.pixel(surface, Int(area.maxX) - 2, 36).r)
    }

    @Test func shimmerBandIsBrightestAtItsCentre() throws {
        let (surface, at, track) = try bandAcrossBlocks(background: "#000000")
        defer { cairo_surface_destroy(surface) }
        let centre = at(0.5).r
        let dim = at(0.2).r
        let edge = at(0.55).r
        #expect(centre > 240, "full brightness at the band's centre: \(centre)")
        #expect(abs(dim - (track + (255 - track) / 2)) <= 3, "half alpha outside the band: \(dim) over \(track)")
        #expect(edge > dim + 30 && edge < centre - 30, "falling off towards the band's edge: \(edge)")
    }

    /// Without looks (a translucent background) the band is the same: brightest at its centre.
    @Test func overATranslucentBackgroundTheBandIsBrightestAtItsCentre() throws {
        let (surface, at, _) = try bandAcrossBlocks(background: "#00000080")
        defer { cairo_surface_destroy(surface) }
        let (dim, edge, centre) = (at(0.2).a, at(0.55).a, at(0.5).a)
        #expect(centre > 250, "opaque text at the band's centre: \(centre)")
        #expect(edge > dim + 8 && edge < centre - 8, "falling off towards its edge: \(dim), \(edge), \(centre)")
    }

    @Test func emptyLabelDrawsNoText() throws {
        let renderer = try GoldenImage.renderer()
        let a = try GoldenImage.render(Scene(thumbValue: 0, label: label(""), busy: false), with: renderer)
        defer { cairo_surface_destroy(a) }
        let b = try GoldenImage.render(Scene(thumbValue: 0, label: nil, busy: false), with: renderer)
        defer { cairo_surface_destroy(b) }
        #expect(GoldenImage.maxDifference(a, b) == 0)
    }
}

@Suite struct IncrementalRenderingTests {
    /// A run of frames as the gate produces them: shimmer sweeping, a drag, a spring-back.
    func frames() -> [Scene] {
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: 480, height: 72))
        var gate = Gate(settings: Gate.Settings(text: "slide to unlock"), layout: layout, start: 0)
        var scenes = stride(from: 0.0, through: 1.05, by: 1.0 / 60).map { gate.scene(at: $0) }
        _ = gate.handle(.press(x: 30, y: 36), at: 2)
        for (i, x) in [40.0, 90, 91, 160, 230].enumerated() {
            _ = gate.handle(.motion(x: x, y: 36), at: 2 + Double(i) * 0.02)
            scenes.append(gate.scene(at: 2 + Double(i) * 0.02))
        }
        _ = gate.handle(.release, at: 2.2)
        scenes += stride(from: 2.2, through: 2.7, by: 1.0 / 60).map { gate.scene(at: $0) }
        return scenes
    }

    /// Over an opaque background the shimmer is drawn from its two looks; over a translucent
    /// one, from the text through the band's gradient.
    @Test(arguments: ["#15171c", "#15171c80"])
    func repaintingOnlyWhatChangedGivesTheSamePixelsAsRepaintingEverything(background: String) throws {
        let renderer = try GoldenImage.renderer(background: background)
        let incremental = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 480, 72)!
        defer { cairo_surface_destroy(incremental) }
        let cr = cairo_create(incremental)!
        defer { cairo_destroy(cr) }
        var previous: Scene?
        var smallRepaints = 0
        for scene in frames() {
            let dirty = try renderer.draw(scene, after: previous, into: cr)
            if !dirty.isEmpty, dirty.map({ $0.width * $0.height }).reduce(0, +) < 480 * 72 / 4 { smallRepaints += 1 }
            previous = scene
            cairo_surface_flush(incremental)
            let full = try GoldenImage.render(scene, with: renderer)
            defer { cairo_surface_destroy(full) }
            #expect(GoldenImage.maxDifference(incremental, full) == 0, "frame \(scene)")
        }
        #expect(smallRepaints > 40, "shimmer frames repaint a small band, not the slider")
    }

    /// While the thumb moves and the text fades, the thumb's path and the text are sent as
    /// two rectangles, not as the one around both; with the thumb over the text, the text's
    /// parts either side of it.
    @Test func aDragRepaintsTheThumbAndTheFadingTextApart() throws {
        let renderer = try GoldenImage.renderer()
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 480, 72)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        func scene(_ value: Double) -> Scene {
            Scene(thumbValue: value, label: label("slide to unlock", alpha: Presenter.labelAlpha(forValue: value)), busy: false)
        }
        let apart = try renderer.draw(scene(0.11), after: scene(0.1), into: cr)
        #expect(apart.count == 2)
        let around = apart.dropFirst().reduce(apart[0]) { $0.union($1) }
        #expect(apart.map { $0.width * $0.height }.reduce(0, +) < around.width * around.height * 0.7)
        let over = try renderer.draw(scene(0.5), after: scene(0.49), into: cr)
        #expect(over.count == 3, "the thumb, and the text left and right of it: \(over)")
        #expect(!over[1].overlaps(over[0]) && !over[2].overlaps(over[0]))
    }

    @Test func anUnchangedSceneRepaintsNothing() throws {
        let renderer = try GoldenImage.renderer()
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 480, 72)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        let scene = Scene(thumbValue: 0, label: nil, busy: false)
        #expect(try renderer.draw(scene, after: nil, into: cr) == [Rect(x: 0, y: 0, width: 480, height: 72)])
        #expect(try renderer.draw(scene, after: scene, into: cr).isEmpty)
    }
}

@Suite struct RightToLeftGoldenTests {
    func renderer() throws -> Renderer {
        Renderer(
            layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: 480, height: 72), rightToLeft: true),
            background: Color(hex: "#15171c")!, foreground: Color(hex: "#ffffff")!,
            fontMap: try FontMap(files: GoldenImage.fontFiles), family: GoldenImage.family)
    }

    @Test func atRestAndMidDrag() throws {
        let renderer = try renderer()
        let text = "اسحب لفتح القفل"
        try GoldenImage.check(
            "rtl-rest", Scene(thumbValue: 0, label: label(text, band: 0.7), busy: false), with: renderer)
        try GoldenImage.check(
            "rtl-drag", Scene(thumbValue: 0.4, label: label(text, alpha: Presenter.labelAlpha(forValue: 0.4)), busy: false),
            with: renderer)
        let busy = Scene.Label(text: "unlocking…", placement: .beforeEnd, emphasis: .solid, alpha: 1)
        try GoldenImage.check("rtl-busy", Scene(thumbValue: 1, label: busy, busy: true), with: renderer)
    }
}

/// `--image`: the slider and the clock drawn over the part of the picture under their
/// windows (a diagonal gradient here), which shows in the slider's rounded corners and all
/// around the clock's text.
@Suite struct BackdropGoldenTests {
    /// A `width`×`height` gradient from deep blue to orange, as the picture under a window.
    func backdrop(_ width: Int32, _ height: Int32) -> Backdrop {
        let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)!
        let cr = cairo_create(image)!
        let gradient = cairo_pattern_create_linear(0, 0, Double(width), Double(height))!
        cairo_pattern_add_color_stop_rgb(gradient, 0, 0.11, 0.21, 0.34)
        cairo_pattern_add_color_stop_rgb(gradient, 1, 0.91, 0.44, 0.32)
        cairo_set_source(cr, gradient)
        cairo_paint(cr)
        cairo_pattern_destroy(gradient)
        cairo_destroy(cr)
        cairo_surface_flush(image)
        return Backdrop(color: Color(hex: "#15171c")!, image: image)
    }

    @Test func theSliderOverAPicture() throws {
        let renderer = Renderer(
            layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: 480, height: 72)), background: Color(hex: "#15171c")!,
            foreground: Color(hex: "#ffffff")!, fontMap: try FontMap(files: GoldenImage.fontFiles), family: GoldenImage.family,
            backdrop: backdrop(480, 72))
        try GoldenImage.check("image-rest", Scene(thumbValue: 0, label: label("slide to unlock", band: 0.5), busy: false), with: renderer)
        try GoldenImage.check(
            "image-drag", Scene(thumbValue: 0.5, label: label("slide to unlock", alpha: Presenter.labelAlpha(forValue: 0.5)), busy: false),
            with: renderer)
    }

    @Test func theClockOverAPicture() throws {
        let renderer = ClockRenderer(
            width: 480, height: 158, background: Color(hex: "#15171c")!, backdrop: backdrop(480, 158),
            foreground: Color(hex: "#ffffff")!, fontMap: try FontMap(files: GoldenImage.fontFiles), family: GoldenImage.family)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 480, 158)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        try renderer.draw(time: "09:05", date: "Monday 30 November", into: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        try GoldenImage.compare("image-clock", surface, sourceLocation: #_sourceLocation)
    }
}

/// What an Arabic locale shows without any option: the catalogue's words (read from
/// resources/locale/ar.po), which make the gate slide right to left by themselves.
@Suite struct ArabicLocaleGoldenTests {
    /// The msgstr of each one-line entry in the Arabic catalogue, by its msgctxt.
    static func catalogue() throws -> [String: String] {
        let path = String(#filePath.dropLast("Tests/SlidegateRenderTests/RendererTests.swift".count)) + "resources/locale/ar.po"
        let file = try #require(fopen(path, "r"))
        defer { fclose(file) }
        var entries: [String: String] = [:]
        var id: String?
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line).trimmingSuffix("\n")
            if text.hasPrefix("msgctxt \"") { id = String(text.dropFirst(9).dropLast()) }
            if text.hasPrefix("msgstr \""), let key = id, !key.isEmpty { entries[key] = String(text.dropFirst(8).dropLast()) }
        }
        return entries
    }

    @Test func restBusyAndRefusedInArabic() throws {
        let catalogue = try Self.catalogue()
        let strings = Strings.translated { catalogue[$0.rawValue] }
        #expect(strings[.label] == "اسحب لفتح القفل")
        let rightToLeft = Direction.auto.isRightToLeft(for: strings[.label])
        #expect(rightToLeft)
        let renderer = Renderer(
            layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: 480, height: 72), rightToLeft: rightToLeft),
            background: Color(hex: "#15171c")!, foreground: Color(hex: "#ffffff")!,
            fontMap: try FontMap(files: GoldenImage.fontFiles), family: GoldenImage.family)
        try GoldenImage.check("arabic-locale-rest", Scene(thumbValue: 0, label: label(strings[.label], band: 0.3), busy: false), with: renderer)
        let busy = Scene.Label(text: strings[.busy], placement: .beforeEnd, emphasis: .solid, alpha: 1)
        try GoldenImage.check("arabic-locale-busy", Scene(thumbValue: 1, label: busy, busy: true), with: renderer)
        let refused = Scene.Label(text: strings[.refusal], placement: .afterThumb, emphasis: .solid, alpha: 1)
        try GoldenImage.check("arabic-locale-refused", Scene(thumbValue: 0, label: refused, busy: false), with: renderer)
    }
}

/// A drag's label is lent cropped to its ink: the smallest rectangle holding every pixel
/// that is not wholly transparent.
@Suite struct InkTests {
    @Test func theInkIsTheRectangleAroundEveryVisiblePixel() throws {
        let image = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 10, 6))
        defer { cairo_surface_destroy(image) }
        #expect(Renderer.ink(of: image) == nil, "a transparent image has none")
        let cr = try #require(cairo_create(image))
        defer { cairo_destroy(cr) }
        cairo_set_source_rgba(cr, 1, 1, 1, 0.01)
        cairo_rectangle(cr, 3, 2, 1, 1)
        cairo_rectangle(cr, 7, 4, 1, 1)
        cairo_fill(cr)
        #expect(Renderer.ink(of: image) == Rect(x: 3, y: 2, width: 5, height: 3))
    }

    @Test func aDragsLabelIsItsInk() throws {
        let renderer = try GoldenImage.renderer()
        let scene = Scene(thumbValue: 0.2, label: label("slide to unlock", alpha: Presenter.labelAlpha(forValue: 0.2)), busy: false)
        let shown = try #require(try renderer.dragParts(for: scene)?.label)
        let width = Double(cairo_image_surface_get_width(shown.image))
        let height = Double(cairo_image_surface_get_height(shown.image))
        #expect(shown.ink.width > 0 && shown.ink.height > 0)
        #expect(shown.ink.width * shown.ink.height < width * height, "the text's image has transparent margins")
        #expect(shown.ink == Renderer.ink(of: shown.image))
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
