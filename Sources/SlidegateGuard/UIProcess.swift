import Glibc
import SlidegateCore
import SlidegateXlib

/// The lock-mode UI process and the pipe the guard talks to it through (its descriptor 3).
/// A UI that stops reading (the pipe fills) is taken for hung and killed, so it restarts.
final class UIProcess {
    private let process: ChildProcess
    private let pipeEnd: Int32
    let started: Double

    init(path: String, arguments: [String]) throws(ChildProcessError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ChildProcessError(path: "pipe", code: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        do {
            process = try ChildProcess(path, [path, "--lock-ui"] + arguments, descriptors: [3: fds[0]])
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[0])
        pipeEnd = fds[1]
        _ = fcntl(pipeEnd, F_SETFL, O_NONBLOCK)
        started = monotonicNow()
    }

    deinit {
        close(pipeEnd)
    }

    func send(_ message: GuardMessage) {
        let line = message.line + "\n"
        let written = line.withCString { write(pipeEnd, $0, strlen($0)) }
        if written < 0 && errno == EAGAIN {
            report("the slider's drawing program stopped reading; restarting it")
            process.signal(SIGKILL)
        }
    }

    func poll() -> Int32? { process.poll() }

    /// Ends the UI and waits briefly for it, so no drawing outlives the lock.
    func stop() {
        process.signal(SIGTERM)
        for _ in 0..<50 {
            if process.poll() != nil { return }
            usleep(2_000)
        }
        process.signal(SIGKILL)
        _ = waitpid(process.pid, nil, 0)
    }
}
