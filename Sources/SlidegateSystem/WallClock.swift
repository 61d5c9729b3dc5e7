import CSystem
import Glibc
import SlidegateCore

/// The lock screen clock's text: strftime with the locale of the environment (LC_ALL,
/// LC_TIME, LANG), and the moment the text next changes. Owns its locale object.
package final class WallClock {
    private let locale: locale_t?
    package let timeFormat: String
    package let dateFormat: String

    /// `time` and `date`: strftime formats, nil for the locale's ("" for none); `localeName`
    /// "" for the environment's (LC_ALL, LC_TIME, LANG).
    package init(time: String?, date: String?, localeName: String = "") {
        locale = newlocale(LC_TIME_MASK | LC_CTYPE_MASK, localeName, nil) ?? newlocale(LC_TIME_MASK | LC_CTYPE_MASK, "C.UTF-8", nil)
        timeFormat = time ?? Self.localeTimeFormat(locale)
        dateFormat = date ?? "%A %-d %B"
    }

    deinit {
        if let locale { freelocale(locale) }
    }

    /// Hours and minutes in the locale's 12- or 24-hour style: 12-hour where its own time
    /// format uses %I, %l or %r (en_US), else 24-hour.
    private static func localeTimeFormat(_ locale: locale_t?) -> String {
        guard let locale, let format = nl_langinfo_l(nl_item(T_FMT), locale).map({ String(cString: $0) }) else { return "%H:%M" }
        return ["%I", "%l", "%r"].contains(where: format.includes) ? "%-I:%M %p" : "%H:%M"
    }

    /// The time and date lines for `time` (seconds since the epoch).
    package func text(at time: time_t) -> (time: String, date: String) {
        var t = time
        var parts = tm()
        localtime_r(&t, &parts)
        return (format(timeFormat, parts), format(dateFormat, parts))
    }

    private func format(_ format: String, _ parts: tm) -> String {
        guard !format.isEmpty else { return "" }
        var parts = parts
        var buffer = [CChar](repeating: 0, count: 256)
        let n = locale.map { strftime_l(&buffer, buffer.count, format, &parts, $0) } ?? strftime(&buffer, buffer.count, format, &parts)
        return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    /// Whether a format shows seconds (then the text changes every second, else every minute).
    private var showsSeconds: Bool {
        ["%S", "%T", "%r", "%s", "%c", "%X", "%+"].contains { timeFormat.includes($0) || dateFormat.includes($0) }
    }

    /// The wall-clock moment after `time` when the text next changes: the next whole minute
    /// (or second); nil when both formats are empty, so the text never changes.
    package func nextChange(after time: timespec) -> timespec? {
        if timeFormat.isEmpty && dateFormat.isEmpty { return nil }
        if showsSeconds { return timespec(tv_sec: time.tv_sec + 1, tv_nsec: 0) }
        var t = time.tv_sec
        var parts = tm()
        localtime_r(&t, &parts)
        return timespec(tv_sec: time.tv_sec + 60 - Int(clamping: parts.tm_sec), tv_nsec: 0)
    }
}

/// Wakes the lock screen's clock on the wall clock (CLOCK_REALTIME), not the monotonic one:
/// at the minute it waits for even when the machine slept through it (the monotonic clock
/// stops in suspend), and at once when the clock is set (NTP, by hand). Owns a timerfd.
package final class WallClockTimer {
    package let descriptor: Int32

    package init() throws(UserError) {
        descriptor = timerfd_create(CLOCK_REALTIME, Int32(clamping: TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { throw SystemError("timerfd_create").userError(.internalError, "the clock's timer") }
    }

    deinit {
        close(descriptor)
    }

    /// Fires at `moment` on the wall clock, or as soon as the clock is set.
    package func arm(at moment: timespec) {
        var spec = itimerspec(it_interval: timespec(), it_value: moment)
        timerfd_settime(descriptor, Int32(clamping: TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil)
    }

    /// Fires no more (while the screen is blank).
    package func disarm() {
        var spec = itimerspec()
        timerfd_settime(descriptor, 0, &spec, nil)
    }

    /// Takes the timer's news (it fired, or the clock was set) so it is not readable again.
    package func drain() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, 8)
    }
}
