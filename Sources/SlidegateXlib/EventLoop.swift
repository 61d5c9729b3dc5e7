import CX11
import CXShim
import Glibc
import SlidegateCore

/// The one event loop of both programs. It owns the waiting: descriptors mapped to
/// handlers, a deadline from the owner, and the X connection, whose events it hands over
/// one by one after dropping the synthetic ones (`send_event` set: another client made them
/// with XSendEvent; the server never does). It checks Xlib's own queue before every wait,
/// because XFlush and other calls can read events into it, which ppoll on the socket would
/// never see. Every call must come from the thread that made it.
package final class EventLoop {
    /// Which synthetic events a program takes.
    package enum SyntheticEvents {
        /// None: the lock believes only the server.
        case ignored
        /// Only client messages (WM_DELETE_WINDOW), which window managers can only send
        /// with XSendEvent; every other synthetic event is dropped.
        case clientMessagesOnly
    }

    /// What the owner says after each pass.
    package enum Turn {
        /// Wait for input, a handler's descriptor, or the deadline (nil: no limit).
        case wait(until: Double?)
        case exit(ExitStatus)
    }

    package typealias Handler = () throws(UserError) -> ExitStatus?

    private let display: XDisplay
    private let synthetic: SyntheticEvents
    private let owner = pthread_self()
    private var watched: [(descriptor: Int32, name: String, peer: Bool, handler: Handler)] = []

    package init(display: XDisplay, synthetic: SyntheticEvents) {
        self.display = display
        self.synthetic = synthetic
    }

    private func checkThread() {
        precondition(pthread_equal(pthread_self(), owner) != 0, "the event loop was used off the thread that made it")
    }

    /// Calls `handler` whenever `descriptor` is readable or hung up. `name` says what it is
    /// if it ever turns invalid, which is fatal. For a `peer` (a socket to a child process)
    /// an error condition is the child going away, and goes to the handler too; on any
    /// other descriptor it is fatal.
    package func watch(_ descriptor: Int32, name: String, peer: Bool = false, _ handler: @escaping Handler) {
        checkThread()
        watched.removeAll { $0.descriptor == descriptor }
        watched.append((descriptor, name, peer, handler))
    }

    package func unwatch(_ descriptor: Int32) {
        checkThread()
        watched.removeAll { $0.descriptor == descriptor }
    }

    /// Runs until `event` or a handler returns a status or `pass` says exit. `event` gets
    /// each X event the server sent; `pass` runs once the queue is empty, does the pass's
    /// work (painting, timers) and says how long to wait.
    package func run(event: (inout XEvent) throws(UserError) -> ExitStatus?, pass: () throws(UserError) -> Turn)
        throws(UserError) -> ExitStatus
    {
        checkThread()
        let dpy = display.pointer
        while true {
            while XPending(dpy) > 0 {
                var e = XEvent()
                XNextEvent(dpy, &e)
                if e.xany.send_event != 0 && !(synthetic == .clientMessagesOnly && e.type == ClientMessage) { continue }
                if let status = try event(&e) { return status }
            }
            display.reportErrors()
            let deadline: Double?
            switch try pass() {
            case .exit(let status): return status
            case .wait(let until): deadline = until
            }
            XFlush(dpy)
            if XEventsQueued(dpy, QueuedAlready) > 0 { continue }
            if let status = try wait(until: deadline) { return status }
        }
    }

    private func wait(until deadline: Double?) throws(UserError) -> ExitStatus? {
        var polled = [pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        polled += watched.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        let timeout = deadline.map { max(0, $0 - monotonicNow()) } ?? -1
        if sg_ppoll(&polled, UInt(polled.count), timeout) < 0 {
            if errno == EINTR { return nil }
            throw UserError("waiting for events failed: \(String(cString: strerror(errno)))", status: .internalError)
        }
        if polled[0].revents & Int16(POLLNVAL | POLLERR) != 0 {
            throw UserError("internal error: the X connection's descriptor failed", status: .internalError)
        }
        // Handlers may watch and unwatch; go by a copy of the list that was polled.
        for (entry, result) in zip(watched, polled.dropFirst()) where result.revents != 0 {
            let bad = Int16(entry.peer ? POLLNVAL : POLLNVAL | POLLERR)
            if result.revents & bad != 0 {
                throw UserError(
                    "internal error: the descriptor of \(entry.name) (\(entry.descriptor)) is invalid or failed",
                    status: .internalError)
            }
            if let status = try entry.handler() { return status }
        }
        return nil
    }
}
