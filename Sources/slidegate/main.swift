import Glibc
import SlidegateCore
import SlidegateX11

let status: ExitStatus
do {
    switch try Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(Options.help, terminator: "")
        status = .completed
    case .version:
        print(Options.version)
        status = .completed
    case .run(let options):
        status = Runner.run(options)
    }
} catch {
    report(error.message)
    status = error.status
}
exit(status.code)
