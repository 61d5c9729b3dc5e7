import Glibc

/// A process slidegate started: the unlock command or the lock-mode UI. It starts with an
/// empty signal mask and default dispositions (slidegate blocks the signals it reads from a
/// signalfd, and a blocked mask survives exec), no descriptors but 0-2 and the ones given,
/// and an `oom_score_adj` of 0 even when the guard protects itself with -1000.
public final class ChildProcess {
    public let pid: pid_t

    /// Starts `path` with `arguments` (argv[0] first); `descriptors` maps a descriptor in
    /// the child to one here. Throws the errno text when it cannot start.
    public init(_ path: String, _ arguments: [String], descriptors: [Int32: Int32] = [:]) throws(ChildProcessError) {
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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var moved: [Int32] = []
        defer { moved.forEach { close($0) } }
        for (child, var parent) in descriptors {
            if parent == child {
                // dup2 onto itself would keep close-on-exec set: go through a copy.
                parent = fcntl(parent, F_DUPFD_CLOEXEC, 10)
                moved.append(parent)
            }
            posix_spawn_file_actions_adddup2(&actions, parent, child)
        }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let result = OutOfMemoryProtection.withChildDefault {
            posix_spawn(&child, path, &actions, &attributes, &argv, environ)
        }
        guard result == 0 else { throw ChildProcessError(path: path, code: result) }
        pid = child
    }

    /// `/bin/sh -c command`.
    public convenience init(shell command: String) throws(ChildProcessError) {
        try self.init("/bin/sh", ["sh", "-c", command])
    }

    /// Starts `--unlock-command`; nil, after saying why on stderr, when it cannot start
    /// (which counts as a failed unlock).
    public static func unlockCommand(_ command: String) -> ChildProcess? {
        do {
            return try ChildProcess(shell: command)
        } catch {
            report("--unlock-command: \(error.description)")
            return nil
        }
    }

    /// How it ended, once it has: its exit code, or 128 + the signal that killed it.
    public func poll() -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    public func signal(_ n: Int32) {
        kill(pid, n)
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public var path: String
    public var code: Int32

    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    public var description: String { "cannot start \(path): \(String(cString: strerror(code)))" }
}

/// The guard asks the kernel's OOM killer to spare it (`oom_score_adj` -1000) where it may;
/// its children must not inherit that.
public enum OutOfMemoryProtection {
    private static let path = "/proc/self/oom_score_adj"

    /// Sets this process's `oom_score_adj`; false when the kernel refuses.
    @discardableResult
    public static func set(_ value: Int) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let text = "\(value)\n"
        return text.withCString { write(fd, $0, strlen($0)) } == text.utf8.count
    }

    public static func current() -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(fd, &buffer, 15)
        guard n > 0 else { return nil }
        return Int(String(decoding: buffer[..<n].filter { $0 > 32 }, as: UTF8.self))
    }

    /// Runs `body` (which starts a child) with this process's score at 0, so the child
    /// inherits 0, then puts the score back.
    static func withChildDefault<T>(_ body: () -> T) -> T {
        guard let saved = current(), saved < 0 else { return body() }
        set(0)
        defer { set(saved) }
        return body()
    }
}
