import Glibc
import SlidegateCore

/// Writes one line, prefixed with "slidegate: ", to standard error.
package func report(_ message: String) {
    let line = "slidegate: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// Runs a slidegate program: parses `arguments`, answers --help and --version, hands the
/// options to `body`, and exits with the status that comes back, or with the usage error's
/// status after printing it.
package func runCommandLine(_ arguments: [String], _ body: (Options) -> ExitStatus) -> Never {
    let status: ExitStatus
    do {
        switch try Options.parse(arguments) {
        case .help:
            print(Options.help, terminator: "")
            status = .completed
        case .version:
            print(Options.version)
            status = .completed
        case .run(var options):
            options.idleLimit = testIdleLimit() ?? options.idleLimit
            status = body(options)
        }
    } catch {
        report(error.message)
        status = error.status
    }
    exit(status.code)
}

/// `SLIDEGATE_TEST_IDLE_LIMIT`: seconds, for the tests only, after which an idle password
/// stage closes instead of 30 (README: testing notes); nil when unset or not a number > 0.
package func testIdleLimit() -> Double? {
    guard let text = getenv("SLIDEGATE_TEST_IDLE_LIMIT").map({ String(cString: $0) }), let seconds = Double(text),
        seconds > 0
    else { return nil }
    return seconds
}
