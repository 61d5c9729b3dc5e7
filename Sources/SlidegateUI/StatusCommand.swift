import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// `--status-command`: runs the command with `/bin/sh -c` every `--status-interval` seconds
/// (standard input /dev/null, no descriptor but 0-2, in a process group of its own), and
/// keeps the first line it printed (`StatusLine.clean`). One run at a time; a run that takes
/// longer than `StatusLine.timeLimit` or writes more than `StatusLine.maximumOutput` is
/// killed with all it started. A run that fails shows nothing new, is said on stderr once
/// until a run succeeds again, and the next waits a whole interval after its end.
final class StatusCommand {
    private let command: String
    private let interval: Double
    private let loop: EventLoop
    private struct Run {
        let process: ChildProcess
        var output: FileDescriptor?
        var watch: EventLoop.Watch?
        var bytes: [UInt8] = []
        var stopped: StatusLine.Outcome?

        /// When the run is killed if it has not ended.
        var limit: Double { process.started + Double(StatusLine.timeLimit) }
    }
    private var run: Run?
    /// When the next run starts.
    private var nextRun: Double
    /// What the last run that succeeded printed ("" until one has).
    private(set) var line = ""
    private var failureSaid = false
    /// The line changed: the clock panel repaints.
    var changed: () -> Void = {}

    /// The first run starts `firstDelay` after `now`: a lock's first frame, and its settling,
    /// do not share the machine with a shell starting.
    init(command: String, interval: Double, loop: EventLoop, now: Double) {
        self.command = command
        self.interval = interval
        self.loop = loop
        nextRun = now + Self.firstDelay
    }

    static let firstDelay = 0.3

    deinit {
        if let run {
            run.watch.map(loop.unwatch)
            run.output?.close()
            run.process.signalGroup(SIGKILL)
        }
    }

    /// When `advance` has something to do: the next run (not while `blank`: the screen
    /// shows nothing and nothing wakes for it), or the time limit of the one running.
    func deadline(blank: Bool) -> Double? {
        guard let run else { return blank ? nil : nextRun }
        return run.stopped == nil ? run.limit : nil
    }

    /// Starts a run when one is due (not while `blank`); kills one past its time limit.
    func advance(to now: Double, blank: Bool) {
        if let running = run {
            if running.stopped == nil, now >= running.limit { stop(.timedOut) }
            return
        }
        guard !blank, now >= nextRun else { return }
        nextRun = now + interval
        start()
    }

    /// Starts `command` as a run does; returns it and the reading end of its output
    /// (non-blocking), which the caller closes.
    private static func spawn(_ command: String) throws(SystemError) -> (ChildProcess, FileDescriptor) {
        let output = try FileDescriptor.pipe()
        let nothing = try FileDescriptor.open("/dev/null", O_RDONLY)
        defer {
            nothing.close()
            output.write.close()
        }
        do {
            let process = try ChildProcess(shell: command, descriptors: [0: nothing.rawValue, 1: output.write.rawValue], ownGroup: true)
            try output.read.setNonBlocking()
            return (process, output.read)
        } catch {
            output.read.close()
            throw error
        }
    }

    /// How a run that ended as `exit` having written `bytes` is judged (`stopped`: killed).
    private static func judge(_ exit: ChildExit, _ bytes: [UInt8], stopped: StatusLine.Outcome?) -> StatusLine.Outcome {
        if let stopped { return stopped }
        switch exit {
        case .exited(0): return .line(StatusLine.clean(bytes))
        case .exited(let code): return .failed("exited with status \(code)")
        case .killed(let signal): return .failed("was ended by signal \(signal)")
        }
    }

    /// `--check`: one run, waited for, with the same limits.
    static func once(_ command: String) -> StatusLine.Outcome {
        let process: ChildProcess
        let output: FileDescriptor
        do {
            (process, output) = try spawn(command)
        } catch {
            return .failed("cannot start: \(error.description)")
        }
        defer { output.close() }
        let limit = process.started + Double(StatusLine.timeLimit)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var stopped: StatusLine.Outcome?
        var open = true
        while stopped == nil, open || process.poll() == nil {
            let left = limit - boottimeNow()
            guard left > 0 else {
                stopped = .timedOut
                break
            }
            var polled = pollfd(fd: open ? output.rawValue : -1, events: Int16(POLLIN), revents: 0)
            _ = poll(&polled, 1, Int32(clamping: Int((min(left, 0.05) * 1000).rounded(.up))))
            guard open, polled.revents != 0 else { continue }
            let count = Glibc.read(output.rawValue, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[..<count]
                if bytes.count > StatusLine.maximumOutput { stopped = .flooded }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                open = false
            }
        }
        if stopped != nil { process.signalGroup(SIGKILL) }
        process.stop()
        return judge(process.exit ?? .killed(signal: SIGKILL), bytes, stopped: stopped)
    }

    private func start() {
        do {
            let (process, output) = try Self.spawn(command)
            run = Run(process: process, output: output)
            run?.watch = loop.watch(output.rawValue, name: "--status-command's output") { [unowned self] () throws(UserError) in
                read()
                return nil
            }
        } catch {
            finish(.failed("cannot start: \(error.description)"))
        }
    }

    /// Reads what the command wrote; at its end, or past the limit, the output is let go.
    private func read() {
        guard let output = run?.output else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(output.rawValue, &buffer, buffer.count)
            if count > 0 {
                run?.bytes += buffer[..<count]
                if (run?.bytes.count ?? 0) > StatusLine.maximumOutput {
                    stop(.flooded)
                    return
                }
                continue
            }
            if count < 0 && (errno == EINTR) { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            closeOutput()
            reap()
            return
        }
    }

    private func closeOutput() {
        guard let output = run?.output else { return }
        run?.watch.map(loop.unwatch)
        output.close()
        run?.output = nil
        run?.watch = nil
    }

    /// Kills the run and all it started; it is judged `outcome` once reaped.
    private func stop(_ outcome: StatusLine.Outcome) {
        run?.stopped = outcome
        run?.process.signalGroup(SIGKILL)
        closeOutput()
        reap()
    }

    /// A child ended (SIGCHLD), or the output did: a run whose process is gone and whose
    /// output has ended is judged.
    func reap() {
        guard let running = run, running.output == nil, let exit = running.process.poll() else { return }
        finish(Self.judge(exit, running.bytes, stopped: running.stopped))
    }

    private func finish(_ outcome: StatusLine.Outcome) {
        run = nil
        if case .line(let shown) = outcome {
            failureSaid = false
            if shown != line {
                line = shown
                changed()
            }
        } else {
            // A run that failed (a hang took its whole time) is not followed at once.
            nextRun = max(nextRun, boottimeNow() + interval)
            if !failureSaid, let problem = StatusLine.problem(outcome) {
                failureSaid = true
                report(problem)
            }
        }
    }
}
