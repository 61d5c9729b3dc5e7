import Glibc
import SlidegateCore

// Writes what is made from the option table into the tree given as the only argument
// (`./dev docs` passes the checkout): the shell completions and the system-wide
// configuration file.

/// Says `message` on stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    let line = Array("slidegate-docs: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

guard CommandLine.arguments.count == 2 else { fail("usage: slidegate-docs TREE", status: 2) }
let tree = CommandLine.arguments[1]
for (path, text) in GeneratedFiles.all {
    guard let file = fopen(tree + "/" + path, "w") else { fail("cannot write \(tree)/\(path): \(String(cString: strerror(errno)))", status: 1) }
    let written = fputs(text, file) >= 0
    guard fclose(file) == 0, written else { fail("cannot write \(tree)/\(path)", status: 1) }
    print("wrote \(path)")
}
