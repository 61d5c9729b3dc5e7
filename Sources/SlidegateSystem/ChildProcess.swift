import CSystem
import Glibc
import SlidegateCore

/// How a child process ended.
package enum ChildExit: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case killed(signal: Int32)

    package var succeeded: Bool { self == .exited(0) }

    package var description: String {
        switch self {
        case .exited(let code): "status \(code)"
        case .killed(let signal): "signal \(signal)"
        }
    }
}

/// A process slidegate started: the unlock command, the lock-mode UI or the authentication
/// helper. It starts with an empty signal mask and default dispositions (slidegate blocks
/// the signals it reads from a signalfd, and a blocked mask survives exec), no descriptors
/// but 0-2 and the ones given — every other is closed in the spawn, close-on-exec or not —
/// and an `oom_score_adj` of 0 even when the guard protects itself with -1000.
package final class ChildProcess {
    package let pid: pid_t
    package let started: Double
    package private(set) var exit: ChildExit?

    /// Starts `path` with `arguments` (argv[0] first); `descriptors` maps a descriptor in
    /// the child to one here. `executing`: the descriptor `path` names (/proc/self/fd/N),
    /// which stays open until the exec (it is close-on-exec). `ownGroup`: in a process group
    /// of its own, which `signalGroup` reaches with whatever it started.
    package init(
        _ path: String, _ arguments: [String], descriptors: [Int32: Int32] = [:], executing: Int32? = nil, ownGroup: Bool = false
    ) throws(SystemError) {
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
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(clamping: POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var moved: [Int32] = []
        defer { moved.forEach { close($0) } }
        for (child, var parent) in descriptors {
            if parent == child {
                // dup2 onto itself would keep close-on-exec set: go through a copy.
                parent = try retryingInterrupts("fcntl F_DUPFD_CLOEXEC") { fcntl(parent, F_DUPFD_CLOEXEC, 10) }
                moved.append(parent)
            }
            posix_spawn_file_actions_adddup2(&actions, parent, child)
        }
        // Then nothing else: a descriptor this process inherited without close-on-exec (from
        // whoever started slidegate) must not reach a key command, the UI or a helper.
        let kept = Set(descriptors.keys).union([0, 1, 2]).union(executing.map { [$0] } ?? [])
        let top = kept.max() ?? 2
        for fd in 3..<max(top, 3) where !kept.contains(fd) && fcntl(fd, F_GETFD) >= 0 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let closing = sg_spawn_close_from(&actions, top + 1)
        guard closing == 0 else { throw SystemError("cannot start \(arguments.first ?? path)", code: closing) }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let result = OutOfMemoryProtection.withChildDefault {
            posix_spawn(&child, path, &actions, &attributes, &argv, environ)
        }
        guard result == 0 else { throw SystemError("cannot start \(arguments.first ?? path)", code: result) }
        pid = child
        started = boottimeNow()
    }

    /// A child this process forked itself (the supervisor's guard).
    package init(forked pid: pid_t) {
        self.pid = pid
        started = boottimeNow()
    }

    /// `/bin/sh -c command`, with `arguments` as `$1`…; `descriptors` and `ownGroup` as in `init`.
    package convenience init(
        shell command: String, arguments: [String] = [], descriptors: [Int32: Int32] = [:], ownGroup: Bool = false
    ) throws(SystemError) {
        try self.init(
            "/bin/sh", ["sh", "-c", command] + (arguments.isEmpty ? [] : ["sh"] + arguments), descriptors: descriptors, ownGroup: ownGroup)
    }

    /// Starts `--unlock-command`; nil, after saying why on stderr, when it cannot start
    /// (which counts as a failed unlock).
    package static func unlockCommand(_ command: String) -> ChildProcess? {
        do {
            return try ChildProcess(shell: command)
        } catch {
            report("--unlock-command: \(error.description)")
            return nil
        }
    }

    /// How it ended, once it has (reaped at most once).
    @discardableResult
    package func poll() -> ChildExit? {
        if let exit { return exit }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7f
        exit = signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
        return exit
    }

    package func signal(_ n: Int32) {
        if exit == nil { kill(pid, n) }
    }

    /// Signals its process group (started with `ownGroup`): it and what it started, even
    /// once it has ended itself.
    package func signalGroup(_ n: Int32) {
        kill(-pid, n)
    }

    /// Ends it: SIGTERM, up to 0.1 s to go, then SIGKILL; reaps it.
    package func stop() {
        signal(SIGTERM)
        // A process that ends on SIGTERM does so in a millisecond or two: it is looked at
        // often, so whoever waits for it (the lock's end) waits no longer than that.
        for _ in 0..<400 {
            if poll() != nil { return }
            usleep(250)
        }
        signal(SIGKILL)
        var status: Int32 = 0
        if exit == nil, waitpid(pid, &status, 0) == pid { exit = .killed(signal: SIGKILL) }
    }
}

/// An executable opened once, at start: every process started from it runs exactly the
/// file that was checked then, even if the path is replaced later (a package upgrade while
/// the screen is locked never pairs an old guard with a new UI). Owns the descriptor.
package final class Executable {
    package let path: String
    private let descriptor: FileDescriptor
    /// The file's device, inode, size and modification time: another build or a
    /// reinstalled package is another identity.
    package let identity: [UInt64]
    /// Its size, modification and change times when opened: a file rewritten in place since
    /// (the same inode, other contents) is not run.
    private let contents: [Int]

    /// Opens `path` (O_PATH: nothing is read); throws when it is missing or not executable.
    package init(_ path: String) throws(SystemError) {
        self.path = path
        descriptor = try FileDescriptor.openPath(path)
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else {
            descriptor.close()
            throw SystemError("stat \(path)")
        }
        guard info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
            descriptor.close()
            throw SystemError(path, code: EACCES)
        }
        identity = [
            UInt64(clamping: info.st_dev), UInt64(clamping: info.st_ino), UInt64(clamping: info.st_size), UInt64(bitPattern: Int64(clamping: info.st_mtim.tv_sec)),
            UInt64(clamping: info.st_mtim.tv_nsec),
        ]
        contents = Self.contents(info)
    }

    private static func contents(_ info: stat) -> [Int] {
        [info.st_size, info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
    }

    deinit {
        descriptor.close()
    }

    /// Starts the opened file (through /proc/self/fd, which names exactly it) with
    /// `arguments` after argv[0], which is the path; refuses (EPERM) once the file has
    /// changed since it was opened.
    package func start(_ arguments: [String], descriptors: [Int32: Int32]) throws(SystemError) -> ChildProcess {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else { throw SystemError("stat \(path)") }
        guard Self.contents(info) == contents else { throw SystemError("\(path) changed since the lock began", code: EPERM) }
        // The child's descriptors are set before it executes the file: one that lands on this
        // descriptor's number would be executed instead, so the file goes through a copy above them.
        guard let highest = descriptors.keys.max(), highest >= descriptor.rawValue else {
            return try ChildProcess(
                "/proc/self/fd/\(descriptor.rawValue)", [path] + arguments, descriptors: descriptors, executing: descriptor.rawValue)
        }
        let copy = try retryingInterrupts("fcntl F_DUPFD_CLOEXEC") { fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, highest + 1) }
        defer { close(copy) }
        return try ChildProcess("/proc/self/fd/\(copy)", [path] + arguments, descriptors: descriptors, executing: copy)
    }
}

/// The guard asks the kernel's OOM killer to spare it (`oom_score_adj` -1000) where it may;
/// its children must not inherit that.
package enum OutOfMemoryProtection {
    private static let path = "/proc/self/oom_score_adj"

    /// Sets this process's `oom_score_adj`; false when the kernel refuses.
    @discardableResult
    package static func set(_ value: Int) -> Bool {
        guard let fd = try? FileDescriptor.open(path, O_WRONLY) else { return false }
        defer { fd.close() }
        return (try? fd.writeAll(Array("\(value)\n".utf8))) != nil
    }

    package static func current() -> Int? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        guard let n = try? fd.read(into: &buffer), n > 0 else { return nil }
        return Int(String(decoding: buffer[..<n].filter { $0 > 32 }, as: UTF8.self), radix: 10)
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
