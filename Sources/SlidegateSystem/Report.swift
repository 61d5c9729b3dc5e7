import Glibc
import SlidegateCore

/// Writes one line, prefixed with "slidegate: ", to standard error.
/// The directory of the running program's executable (from /proc/self/exe, else from how
/// it was called).
package func programDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let exe = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    return exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
}

package func report(_ message: String) {
    let line = "slidegate: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// Runs a slidegate program: parses `arguments` over the configuration file's options,
/// answers --help and --version, resolves
/// where the PIN file is, hands `--set-pin` to `setPin`, `--check` (before the configuration
/// file is read: it reads it itself) to `check` and other options to `body`, and
/// exits with the status that comes back, or with the usage error's status after printing it.
package func runCommandLine(
    _ arguments: [String], setPin: (_ pinFile: String) -> ExitStatus, check: ([String]) -> ExitStatus,
    _ body: (Options) -> ExitStatus
) -> Never {
    let status: ExitStatus
    do {
        let tokens = try Options.tokenize(arguments)
        // --help, --version and --set-pin answer whatever the configuration file says.
        let own = tokens.contains { ["help", "version", "set-pin"].contains($0.option.name) }
        if !own && tokens.contains(where: { $0.option.name == "check" }) { exit(check(arguments).code) }
        let files = own ? (config: [], enforced: []) : try ConfigFile.load(for: arguments)
        switch try Options.parse(arguments, config: files.config, enforced: files.enforced) {
        case .help:
            print(Options.help, terminator: "")
            status = .completed
        case .version:
            print(Options.version)
            status = .completed
        case .setPin(let given):
            status = setPin(try PinFile.path(given: given))
        case .run(let options):
            status = body(try options.prepared())
        }
    } catch {
        report(error.message)
        status = error.status
    }
    exit(status.code)
}

extension Options {
    /// The options as a run uses them: in the person's language, with the PIN file's place
    /// resolved, and the tests' idle limit.
    package func prepared() throws(UserError) -> Options {
        var options = self
        options.idleLimit = testIdleLimit() ?? options.idleLimit
        options.speak(Translation.strings())
        if options.auth.usesPin { options.pinFile = try PinFile.path(given: options.pinFile) }
        return options
    }
}

/// `SLIDEGATE_TEST_IDLE_LIMIT`: seconds, for the tests only, after which an idle password
/// stage closes instead of 30 (docs/TESTING.md); nil when unset or not a number > 0.
package func testIdleLimit() -> Double? {
    guard let text = getenv("SLIDEGATE_TEST_IDLE_LIMIT").map({ String(cString: $0) }), let seconds = Double(text),
        seconds > 0
    else { return nil }
    return seconds
}

/// `--set-pin`: runs `slidegate-auth --set-pin PATH` in this process's place (it links
/// libxcrypt, which makes the hash); returns only if it cannot.
package func execSetPin(helper: String, pinFile: String) -> ExitStatus {
    let words: [String] = [helper, "--set-pin", pinFile]
    var argv = words.map { strdup($0) } + [nil]
    execv(helper, &argv)
    report("--set-pin: cannot start \(helper): \(String(cString: strerror(errno)))")
    return .internalError
}
