import Glibc

/// The unlock command, running through `/bin/sh -c` with slidegate's stdout and stderr.
final class UnlockCommand {
    let pid: pid_t

    /// Starts `command`; nil (after saying why on stderr) if it cannot be started.
    init?(_ command: String) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in SignalWatch.terminating + [SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = ["sh", "-c", command]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let result = posix_spawn(&child, "/bin/sh", nil, &attributes, &argv, environ)
        guard result == 0 else {
            report("--unlock-command: cannot start /bin/sh: \(String(cString: strerror(result)))")
            return nil
        }
        pid = child
    }

    /// Whether it has ended, and if so whether it exited 0; nil while it runs.
    func poll() -> Bool? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0
    }
}
