import Glibc

/// The inputs kept for each target: `fuzz/corpus/TARGET/` holds the seeds and every input
/// that once broke a property, and the corpus tests run them all again.
package enum FuzzCorpus {
    /// A file's bytes, or nil when it cannot be read.
    package static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "re") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[..<n]
            if n < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }

    /// The regular files in `directory` whose names do not start with a dot, by name.
    package static func files(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if entry.pointee.d_type == DT_REG && !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { directory + "/" + $0 }
    }
}

/// Writes one line to standard error.
package func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
