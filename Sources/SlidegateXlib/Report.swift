import Glibc

/// Writes one line, prefixed with "slidegate: ", to standard error.
public func report(_ message: String) {
    let line = "slidegate: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
