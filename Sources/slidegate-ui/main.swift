import Glibc
import SlidegateCore
import SlidegateUI
import SlidegateSystem
import SlidegateXlib

// slidegate's drawing program. `slidegate` runs it: in windowed mode in its place (with
// slidegate's options), and in lock mode as `slidegate-ui --lock-ui`, drawing inside the
// guard's window with the settings and messages the guard sends on descriptor 3.
useOneMallocArena()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--lock-ui"] {
    exit(LockUI.run().code)
}
if arguments.first == "--check-looks" {
    exit(LooksCheck.run(Array(arguments.dropFirst())).code)
}
runCommandLine(arguments, setPin: { _ in
    report("--set-pin is slidegate's (run slidegate --set-pin)")
    return .usage
}, check: { _ in
    report("--check is slidegate's (run slidegate --check)")
    return .usage
}) { options in
    guard case .windowed = options.mode else {
        report("lock mode is slidegate's; slidegate-ui only draws (run slidegate)")
        return .usage
    }
    return WindowedApp.run(options)
}
