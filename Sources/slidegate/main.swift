import Glibc
import SlidegateCore
import SlidegateGuard
import SlidegateXlib

// slidegate: parses the command line; windowed mode becomes slidegate-ui (which draws and
// decides). Lock mode is the supervisor, which runs this program again as the guard
// (slidegate-guard, told so by SLIDEGATE_GUARD), which starts slidegate-ui to draw.

/// Where a helper program (slidegate-ui, slidegate-auth) is: beside this executable (a build
/// directory), or in ../libexec/slidegate (an installation: /usr/bin and
/// /usr/libexec/slidegate).
func helperPath(_ name: String) -> String {
    let directory = programDirectory()
    let candidates = [directory + "/" + name, directory + "/../libexec/slidegate/" + name]
    return candidates.first { access($0, X_OK) == 0 } ?? candidates[0]
}

let arguments = Array(CommandLine.arguments.dropFirst())
runCommandLine(
    arguments, setPin: { execSetPin(helper: helperPath("slidegate-auth"), pinFile: $0) },
    check: { SetupCheck.run($0, uiPath: helperPath("slidegate-ui"), authPath: helperPath("slidegate-auth")) }
) { options in
    guard case .windowed = options.mode else {
        guard let value = getenv(GuardLaunch.variable).map({ String(cString: $0) }) else {
            return Supervisor.run(arguments, fork: options.fork)
        }
        unsetenv(GuardLaunch.variable)
        guard let supervised = GuardLaunch(value: value) else {
            report("\(GuardLaunch.variable): expected \"descriptor:mode\" from slidegate's supervisor, got \"\(value)\"")
            return .usage
        }
        return Guard.run(
            options, Guard.Launch(uiPath: helperPath("slidegate-ui"), authPath: helperPath("slidegate-auth"), supervised: supervised))
    }
    let path = helperPath("slidegate-ui")
    var argv = ([path] + arguments).map { strdup($0) } + [nil]
    execv(path, &argv)
    report("cannot start \(path): \(String(cString: strerror(errno)))")
    return .internalError
}
