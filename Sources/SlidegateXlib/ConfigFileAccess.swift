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
            let directories = userDirectories()
            guard let standard = standardPath(configHome: directories.configHome, home: directories.home) else { return [] }
            guard access(standard, F_OK) == 0 || errno != ENOENT else { return [] }
            path = standard
        }
        let text: String
        do {
            text = try readTextFile(path)
        } catch {
            throw UserError("--config: \(path): \(error)", status: .usage)
        }
        return try parse(text, path: path)
    }
}
