import Glibc
import SlidegateSystem
import SlidegateXlib

/// xss-lock's `XSS_SLEEP_LOCK_FD`: a descriptor held open until the lock's first frame is on
/// the screen, so the system does not suspend before; never inherited by a child but the
/// guard, from the supervisor.
struct SleepLock {
    let descriptor: FileDescriptor

    /// Reads and checks the variable. Must run before slidegate opens any descriptor: a
    /// variable naming a closed one would otherwise name whatever slidegate opened there
    /// (its signal descriptor), and closing that would break the guard.
    static func fromEnvironment() -> SleepLock? {
        guard let value = getenv("XSS_SLEEP_LOCK_FD").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        guard let fd = Int32(value, radix: 10), fd > 2 else {
            report("XSS_SLEEP_LOCK_FD: expected a descriptor number above 2, got \"\(value)\"; ignoring it")
            return nil
        }
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
            report("XSS_SLEEP_LOCK_FD: descriptor \(fd) is not open; ignoring it")
            return nil
        }
        return SleepLock(descriptor: FileDescriptor(rawValue: fd))
    }

    /// The screen is locked: let the system sleep.
    func release() {
        descriptor.close()
    }
}
