import Glibc

/// `SLIDEGATE_STARTUP_TRACE=FILE`: each process appends a line per start-up step — the
/// step's name, then seconds on CLOCK_MONOTONIC — for the benchmark's `--verbose`
/// breakdown of the time from exec to the first frame. Unset, a step costs one getenv.
package enum StartupTrace {
    package static func mark(_ step: String) {
        guard let path = getenv("SLIDEGATE_STARTUP_TRACE") else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let line = Array("\(step) \(Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9)\n".utf8)
        _ = write(fd, line, line.count)
    }
}
