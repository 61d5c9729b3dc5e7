import CGraphics
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import Testing

/// The lock screen's clock in three languages, at a fixed moment: Monday 30 November 2026,
/// 09:05 (and 17:42) local time, whatever the machine's zone.
@Suite struct ClockGoldenTests {
    func render(_ name: String, _ locale: String, time: String? = nil, date: String? = nil, hour: Int32 = 9, minute: Int32 = 5) throws {
        var parts = tm()
        parts.tm_year = 2026 - 1900
        parts.tm_mon = 10
        parts.tm_mday = 30
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_isdst = -1
        let moment = mktime(&parts)
        let clock = WallClock(time: time, date: date, localeName: locale)
        let text = clock.text(at: moment)
        let renderer = ClockRenderer(
            width: 480, height: 158, background: Color(hex: "#15171c")!, foreground: Color(hex: "#ffffff")!,
            fontMap: try FontMap(files: GoldenImage.fontFiles), family: GoldenImage.family)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 480, 158)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        try renderer.draw(time: text.time, date: text.date, into: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        try GoldenImage.compare(name, surface, sourceLocation: #_sourceLocation)
    }

    @Test func theLocalesWordsAndHourStyle() throws {
        // en_US is not generated here: C.UTF-8, 24-hour, English names.
        try render("clock-english", "C.UTF-8")
        try render("clock-german", "de_DE.UTF-8", hour: 17, minute: 42)
        try render("clock-japanese", "ja_JP.UTF-8", date: "%B%-d日 %A")
        try render("clock-formats", "C.UTF-8", time: "%-I:%M %p", date: "")
    }

    @Test func theLocaleDecidesTheWords() {
        var parts = tm()
        parts.tm_year = 126
        parts.tm_mon = 10
        parts.tm_mday = 30
        parts.tm_hour = 17
        parts.tm_min = 42
        parts.tm_isdst = -1
        let moment = mktime(&parts)
        #expect(WallClock(time: nil, date: nil, localeName: "de_DE.UTF-8").text(at: moment) == ("17:42", "Montag 30 November"))
        #expect(WallClock(time: nil, date: nil, localeName: "ja_JP.UTF-8").text(at: moment).date == "月曜日 30 11月")
        #expect(WallClock(time: "", date: "%Y", localeName: "C.UTF-8").text(at: moment) == ("", "2026"))
        let later = timespec(tv_sec: moment + 30, tv_nsec: 500_000_000)
        #expect(WallClock(time: nil, date: nil, localeName: "C.UTF-8").nextChange(after: later)?.tv_sec == moment + 60, "the next minute")
        #expect(WallClock(time: "%T", date: "", localeName: "C.UTF-8").nextChange(after: later)?.tv_sec == moment + 31, "the next second")
        #expect(WallClock(time: "", date: "%A", localeName: "C.UTF-8").nextChange(after: later)?.tv_sec == moment + 60, "the date alone")
        #expect(WallClock(time: "", date: "", localeName: "C.UTF-8").nextChange(after: later) == nil, "--no-clock: never")
    }

    /// The clock's timer runs on the wall clock: armed for the next whole second, it is
    /// readable then and not before; drained, it is quiet; disarmed, it never fires.
    @Test func theTimerFiresAtAWallClockMoment() throws {
        let timer = try WallClockTimer()
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        timer.arm(at: timespec(tv_sec: now.tv_sec + 2, tv_nsec: 0))
        var watched = pollfd(fd: timer.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&watched, 1, 900) == 0, "not a second early")
        #expect(poll(&watched, 1, 2500) == 1, "at the moment")
        timer.drain()
        #expect(poll(&watched, 1, 0) == 0, "drained")
        clock_gettime(CLOCK_REALTIME, &now)
        timer.arm(at: timespec(tv_sec: now.tv_sec + 1, tv_nsec: 0))
        timer.disarm()
        #expect(poll(&watched, 1, 1500) == 0, "disarmed")
    }
}
