import CSystem
import Glibc
import SlidegateCore

/// A failed system call: which one, and errno.
package struct SystemError: Error, Equatable, CustomStringConvertible {
    package var call: String
    package var code: Int32

    package init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    package var description: String { "\(call): \(String(cString: strerror(code)))" }

    /// The same failure as a user-facing error with the given status.
    package func userError(_ status: ExitStatus, _ context: String) -> UserError {
        UserError("\(context): \(description)", status: status)
    }
}

/// Runs a system call until it is not interrupted; throws errno when it fails.
@discardableResult
package func retryingInterrupts<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        if errno != EINTR { throw SystemError(call) }
    }
}

/// An open file descriptor as a value: the raw number with the calls made on it, errno and
/// EINTR handled here once. Whoever holds it closes it, once.
package struct FileDescriptor: Hashable, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// A connected pair of Unix stream sockets, both close-on-exec.
    package static func socketPair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try retryingInterrupts("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// A pipe, both ends close-on-exec: (read end, write end).
    package static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try retryingInterrupts("pipe2") { sg_pipe_cloexec(&fds) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Opens `path` with `flags` (O_CLOEXEC is added), creating it with `mode` if asked to.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingInterrupts("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    /// Opens `path` as a location only (O_PATH: nothing is read, the file can still be
    /// executed through it), close-on-exec.
    package static func openPath(_ path: String) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingInterrupts("open \(path)") { sg_open_path(path) })
    }

    package func close() {
        _ = Glibc.close(rawValue)
    }

    package func setNonBlocking() throws(SystemError) {
        let flags = try retryingInterrupts("fcntl F_GETFL") { fcntl(rawValue, F_GETFL) }
        try retryingInterrupts("fcntl F_SETFL") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Reads what is there into `buffer`, up to its size: 0 at end of file, nil when a
    /// non-blocking descriptor has nothing yet.
    package func read(into buffer: inout [UInt8]) throws(SystemError) -> Int? {
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN: return nil
            default: throw SystemError("read")
            }
        }
    }

    /// Writes as much of `bytes` as goes without blocking; returns how much went.
    package func write(_ bytes: [UInt8]) throws(SystemError) -> Int {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { $0.baseAddress.map { Glibc.write(rawValue, $0 + done, bytes.count - done) } ?? 0 }
            if n > 0 {
                done += n
            } else if n < 0 && errno == EAGAIN {
                break
            } else if n == 0 || errno != EINTR {
                throw SystemError("write")
            }
        }
        return done
    }

    /// Writes all of `bytes` from where they are (a secret's locked memory), blocking if it
    /// must: a non-blocking descriptor is waited on with poll.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.baseAddress.map { Glibc.write(rawValue, $0 + done, bytes.count - done) } ?? 0
            if n > 0 {
                done += n
            } else if n < 0 && errno == EAGAIN {
                var polled = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&polled, 1, 1000)
            } else if n == 0 || errno != EINTR {
                throw SystemError("write")
            }
        }
    }

    /// Reads to the end of a small file: its bytes, or nil when it holds more than `limit`.
    package func readToEnd(limit: Int) throws(SystemError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let n = try retryingInterrupts("read") { bytes.withUnsafeMutableBytes { raw in raw.baseAddress.map { Glibc.read(rawValue, $0 + count, raw.count - count) } ?? 0 } }
            if n == 0 { break }
            count += n
        }
        return count > limit ? nil : Array(bytes[..<count])
    }

    /// Fills `buffer` from the file; false when the file ends first.
    package func readFully(into buffer: inout [UInt8]) throws(SystemError) -> Bool {
        var count = 0
        while count < buffer.count {
            let n = try retryingInterrupts("read") { buffer.withUnsafeMutableBytes { raw in raw.baseAddress.map { Glibc.read(rawValue, $0 + count, raw.count - count) } ?? 0 } }
            if n == 0 { return false }
            count += n
        }
        return true
    }

    /// Writes all of `bytes`, blocking if it must.
    package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            done += try retryingInterrupts("write") {
                bytes.withUnsafeBytes { $0.baseAddress.map { Glibc.write(rawValue, $0 + done, bytes.count - done) } ?? 0 }
            }
        }
    }
}

/// `path` with its symbolic links and `..` resolved, or as it is when it cannot be.
package func resolvedPath(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
}

/// The text of a small regular file (a configuration file, a theme's settings): its UTF-8
/// contents of at most `limit` bytes; what is wrong with it says "FILE: problem" when it
/// follows the path.
package func readTextFile(_ path: String, limit: Int = 1 << 16) throws(UserError) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else { throw UserError("cannot be read (\(String(cString: strerror(errno))))", status: .usage) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw UserError("is not a regular file", status: .usage) }
    let read: [UInt8]?
    do {
        read = try FileDescriptor(rawValue: fd).readToEnd(limit: limit)
    } catch {
        throw UserError("cannot be read (\(String(cString: strerror(error.code))))", status: .usage)
    }
    guard let bytes = read else { throw UserError("is larger than \(limit / 1024) KiB", status: .usage) }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw UserError("is not UTF-8 text", status: .usage) }
    return text
}

/// `XDG_CONFIG_HOME` and the home directory (`HOME`, else the account's), where the
/// configuration and PIN files are looked for.
package func userDirectories() -> (configHome: String?, home: String?) {
    func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    return (variable("XDG_CONFIG_HOME"), variable("HOME") ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) })
}
