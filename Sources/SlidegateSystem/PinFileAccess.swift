import Glibc
import SlidegateCore

extension PinFile {
    /// `--pin-file`, or the default place from `XDG_CONFIG_HOME` or `HOME` (else the
    /// account's home directory).
    package static func path(given: String?) throws(UserError) -> String {
        if let given { return given }
        let directories = userDirectories()
        guard let path = defaultPath(configHome: directories.configHome, home: directories.home) else {
            throw UserError("--pin-file: no default place for the PIN file (neither XDG_CONFIG_HOME nor HOME is set); give one", status: .usage)
        }
        return path
    }

    /// Reads and checks the PIN file at `path`: a regular file of the user's own that no one
    /// else may read or write, holding one well-formed line. The error names the file and
    /// what is wrong (exit 2).
    package static func load(_ path: String) throws(UserError) -> PinFile {
        func problem(_ text: String) -> UserError { UserError("PIN file \(path): \(text)", status: .usage) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: throw problem("does not exist; set a PIN with slidegate --set-pin")
            case EACCES: throw problem("cannot be read (permission denied)")
            default: throw problem("cannot be opened (\(String(cString: strerror(errno))))")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw problem("cannot be examined (\(String(cString: strerror(errno))))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw problem("is not a regular file") }
        guard info.st_uid == getuid() else { throw problem("is owned by uid \(info.st_uid), not by uid \(getuid()) who runs slidegate") }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw problem("is readable or writable by group or others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        let read: [UInt8]?
        do {
            read = try FileDescriptor(rawValue: fd).readToEnd(limit: 4096)
        } catch {
            throw problem("cannot be read (\(String(cString: strerror(error.code))))")
        }
        guard let bytes = read else { throw problem("is longer than one line") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw problem("is not text") }
        do {
            return try PinFile(parsing: text)
        } catch {
            throw problem(error.message)
        }
    }
}
