import Glibc
import SlidegateCore
import SlidegateGuard
import SlidegateSystem
import SlidegateXlib

// slidegate: parses the command line; windowed mode becomes slidegate-ui (which draws and
// decides). Lock mode is the supervisor, which forks the guard (slidegate-guard), which
// starts slidegate-ui to draw.

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
        return Supervisor.run(fork: options.fork) { supervised in
            Guard.run(options, Guard.Launch(uiPath: helperPath("slidegate-ui"), authPath: helperPath("slidegate-auth"), supervised: supervised))
        }
    }
    let path = helperPath("slidegate-ui")
    var argv = ([path] + arguments).map { strdup($0) } + [nil]
    execv(path, &argv)
    report("cannot start \(path): \(String(cString: strerror(errno)))")
    return .internalError
}
