import Glibc
import SlidegateCore
import SlidegateUI
import SlidegateXlib

// slidegate's drawing program. `slidegate` runs it: in windowed mode in its place, and in
// lock mode as `slidegate-ui --lock-ui OPTION...`, drawing inside the guard's window, with
// the guard's messages on descriptor 3. It takes slidegate's options.
var arguments = Array(CommandLine.arguments.dropFirst())
let lockUI = arguments.first == "--lock-ui"
if lockUI { arguments.removeFirst() }

let status: ExitStatus
do {
    switch try Options.parse(arguments) {
    case .help:
        print(Options.help, terminator: "")
        status = .completed
    case .version:
        print(Options.version)
        status = .completed
    case .run(let options):
        if lockUI {
            status = Runner.runLockUI(options)
        } else if case .windowed = options.mode {
            status = Runner.runWindowed(options)
        } else {
            report("lock mode is slidegate's; slidegate-ui only draws (run slidegate)")
            status = .usage
        }
    }
} catch {
    report(error.message)
    status = error.status
}
exit(status.code)
