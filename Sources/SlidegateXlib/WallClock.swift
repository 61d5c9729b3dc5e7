import Glibc

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
        return ["%I", "%l", "%r"].contains(where: format.contains) ? "%-I:%M %p" : "%H:%M"
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
        ["%S", "%T", "%r", "%s", "%c", "%X", "%+"].contains { timeFormat.contains($0) || dateFormat.contains($0) }
    }

    /// Seconds from `time` until the text next changes: the next whole minute (or second).
    package func secondsToNextChange(from time: timespec) -> Double {
        let fraction = Double(time.tv_nsec) / 1e9
        if showsSeconds { return 1 - fraction }
        var t = time.tv_sec
        var parts = tm()
        localtime_r(&t, &parts)
        return Double(60 - Int(parts.tm_sec)) - fraction
    }
}
