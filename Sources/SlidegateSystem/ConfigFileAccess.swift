import Glibc
import SlidegateCore

extension ConfigFile {
    /// What the files say for `arguments`: the system file's options then the user's (or
    /// `--config PATH`'s, which must be readable; `--no-config` skips the user's file only),
    /// and the administrator's enforced ones.
    package static func load(for arguments: [String]) throws(UserError) -> (config: [Options.Given], enforced: [Options.Given]) {
        var config: [Options.Given] = []
        if let system = systemFile() { config += try parse(try readConfig(system), path: system, layer: .system) }
        if let path = try userFile(for: arguments) { config += try parse(try readConfig(path), path: path) }
        let enforced = try enforcedText().map { (text) throws(UserError) in try parse(text, path: enforcedPath, layer: .enforced) } ?? []
        return (config, enforced)
    }

    /// The first `slidegate/config` of `$XDG_CONFIG_DIRS` that exists, if any.
    package static func systemFile() -> String? {
        systemCandidates(configDirs: getenv("XDG_CONFIG_DIRS").map { String(cString: $0) }).first { access($0, F_OK) == 0 }
    }

    /// The user's file the command line picks: `--config PATH`, the standard one if it
    /// exists, or none.
    package static func userFile(for arguments: [String]) throws(UserError) -> String? {
        switch choice(in: arguments) {
        case .none:
            return nil
        case .given(let given):
            return given
        case .standard:
            let directories = userDirectories()
            guard let standard = standardPath(configHome: directories.configHome, home: directories.home) else { return nil }
            return access(standard, F_OK) == 0 || errno != ENOENT ? standard : nil
        }
    }

    package static func readConfig(_ path: String) throws(UserError) -> String {
        do {
            return try readTextFile(path)
        } catch {
            throw UserError("--config: \(path): \(error.message)", status: .usage)
        }
    }

    /// The enforced file's text, or nil when there is none. It counts only as root keeps it:
    /// the file and its directory owned by root and writable by no one else, the file not a
    /// symbolic link; anything else is exit 2 (a lock must not run on settings a user could
    /// have written).
    package static func enforcedText() throws(UserError) -> String? {
        func problem(_ text: String) -> UserError { UserError("\(enforcedPath): \(text)", status: .usage) }
        let fd = open(enforcedPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return nil
            case ELOOP: throw problem("is a symbolic link; enforced settings must be in a file of root's own")
            default: throw problem("cannot be opened (\(String(cString: strerror(errno))))")
            }
        }
        let file = FileDescriptor(rawValue: fd)
        defer { file.close() }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw problem("is not a regular file") }
        func owned(_ info: stat, _ what: String) throws(UserError) {
            guard info.st_uid == 0, info.st_mode & 0o022 == 0 else {
                throw problem(
                    "\(what) must be owned by root and writable by no one else (owner uid \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8)))")
            }
        }
        try owned(info, "the file")
        var directory = stat()
        guard stat(enforcedDirectory, &directory) == 0 else {
            throw problem("its directory cannot be examined")
        }
        try owned(directory, "its directory")
        let bytes: [UInt8]?
        do {
            bytes = try file.readToEnd(limit: 1 << 16)
        } catch {
            throw problem("cannot be read (\(String(cString: strerror(error.code))))")
        }
        guard let bytes else { throw problem("is longer than 64 KiB") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw problem("is not UTF-8 text") }
        return text
    }
}
