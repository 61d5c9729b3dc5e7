import Glibc
import SlidegateCore

extension ConfigFile {
    /// The configuration file's options for `arguments`: those of `--config PATH` (which
    /// must be readable), of the standard file if there is one, or none (`--no-config`).
    package static func load(for arguments: [String]) throws(UserError) -> [Options.Given] {
        let path: String
        switch choice(in: arguments) {
        case .none:
            return []
        case .given(let given):
            path = given
        case .standard:
            func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
            let home = variable("HOME") ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) }
            guard let standard = standardPath(configHome: variable("XDG_CONFIG_HOME"), home: home) else { return [] }
            guard access(standard, F_OK) == 0 || errno != ENOENT else { return [] }
            path = standard
        }
        return try parse(try contents(of: path), path: path)
    }

    /// The file's text; an error names it (exit 2).
    private static func contents(of path: String) throws(UserError) -> String {
        func problem(_ text: String) -> UserError { UserError("--config: \(path): \(text)", status: .usage) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw problem("cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw problem("is not a regular file") }
        let read: [UInt8]?
        do {
            read = try FileDescriptor(rawValue: fd).readToEnd(limit: 1 << 16)
        } catch {
            throw problem("cannot be read (\(String(cString: strerror(error.code))))")
        }
        guard let bytes = read else { throw problem("is larger than 64 KiB") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw problem("is not UTF-8 text") }
        return text
    }
}
