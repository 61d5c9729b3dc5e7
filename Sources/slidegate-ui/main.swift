import SlidegateCore
import SlidegateUI
import SlidegateXlib

// slidegate's drawing program. `slidegate` runs it: in windowed mode in its place, and in
// lock mode as `slidegate-ui --lock-ui OPTION...`, drawing inside the guard's window, with
// the guard's messages on descriptor 3. It takes slidegate's options.
var arguments = Array(CommandLine.arguments.dropFirst())
let lockUI = arguments.first == "--lock-ui"
if lockUI { arguments.removeFirst() }

runCommandLine(arguments) { options in
    if lockUI { return Runner.runLockUI(options) }
    guard case .windowed = options.mode else {
        report("lock mode is slidegate's; slidegate-ui only draws (run slidegate)")
        return .usage
    }
    return Runner.runWindowed(options)
}
