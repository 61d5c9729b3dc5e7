import CX11
import CSystem
import Glibc
import SlidegateCore
import SlidegateHost
import SlidegateSystem

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
        /// Wait for input, a handler's descriptor, or the deadline (nil: no limit). Before
        /// `readingXAfter` the X socket is not read: what the server sends meanwhile waits
        /// there and is read at that time in one go (the guard takes a fast pointer's motion
        /// once a frame this way, without a wake-up per motion event). A hang-up still wakes.
        case wait(until: Double?, readingXAfter: Double? = nil)
        case exit(ExitStatus)
    }

    package typealias Handler = DescriptorHandler
    package typealias Watch = DescriptorWatch

    private let display: XDisplay
    private let synthetic: SyntheticEvents
    private let owner = pthread_self()
    private var watched: [(watch: Watch, descriptor: Int32, name: String, peer: Bool, events: (() -> Int16)?, handler: Handler)] = []
    private var lastWatch: UInt64 = 0
    /// What ppoll is given, kept between waits so a wait allocates nothing.
    private var polled: [pollfd] = []
    /// Wakes the loop at its deadline on CLOCK_BOOTTIME (ppoll's own timeout runs on the
    /// monotonic clock, which stops in suspend: a deadline a sleep passed would come that
    /// much late). Owned here.
    private let timer: Int32
    /// The moment the timer is armed for; nil while disarmed.
    private var armedFor: Double?

    package init(display: XDisplay, synthetic: SyntheticEvents) throws(UserError) {
        self.display = display
        self.synthetic = synthetic
        timer = timerfd_create(CLOCK_BOOTTIME, Int32(clamping: TFD_NONBLOCK | TFD_CLOEXEC))
        guard timer >= 0 else { throw SystemError("timerfd_create").userError(.internalError, "the event loop's timer") }
    }

    deinit {
        close(timer)
    }

    /// Arms the timer for `moment` (nil: disarms it), unless it is armed for that already.
    private func arm(for moment: Double?) {
        guard moment != armedFor else { return }
        armedFor = moment
        var spec = itimerspec()
        if let moment {
            // 0 would disarm: a moment already past fires at once.
            let at = max(moment, 1e-9)
            let whole = at.rounded(.down)
            spec.it_value = timespec(tv_sec: Int(exactly: whole) ?? Int.max, tv_nsec: Int(exactly: ((at - whole) * 1e9).rounded(.down)) ?? 0)
        }
        timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    private func checkThread() {
        precondition(pthread_equal(pthread_self(), owner) != 0, "the event loop was used off the thread that made it")
    }

    /// Calls `handler` whenever `descriptor` is readable or hung up. `name` says what it is
    /// if it ever turns invalid, which is fatal. For a `peer` (a socket to a child process)
    /// an error condition is the child going away, and goes to the handler too; on any
    /// other descriptor it is fatal. The newest watch of a descriptor replaces any earlier one.
    @discardableResult
    package func watch(_ descriptor: Int32, name: String, peer: Bool = false, _ handler: @escaping Handler) -> Watch {
        watch(descriptor, name: name, peer: peer, events: nil, handler)
    }

    /// `watch`, waiting for what `events` says before each wait (a connection with
    /// something to write waits for POLLOUT too) instead of POLLIN.
    package func watch(_ descriptor: Int32, name: String, peer: Bool, events: (() -> Int16)?, _ handler: @escaping Handler) -> Watch {
        checkThread()
        lastWatch &+= 1
        let watch = Watch(id: lastWatch)
        watched.removeAll { $0.descriptor == descriptor }
        watched.append((watch, descriptor, name, peer, events, handler))
        return watch
    }

    /// Ends `watch`; nothing when a newer watch of its descriptor replaced it.
    package func unwatch(_ watch: Watch) {
        checkThread()
        watched.removeAll { $0.watch == watch }
    }

    /// Runs until `event` or a handler returns a status or `pass` says exit. `event` gets
    /// each X event the server sent; `pass` runs once the queue is empty, does the pass's
    /// work (painting, timers) and says how long to wait.
    package func run(event: (inout XEvent) throws(UserError) -> ExitStatus?, pass: () throws(UserError) -> Turn)
        throws(UserError) -> ExitStatus
    {
        checkThread()
        let dpy = display.pointer
        // The socket is read only when ppoll said it is readable (a wait that timed out
        // leaves nothing new there): XFlush before each wait reads what the server sent
        // so far and moves every event into Xlib's queue, and the check after it and this
        // one see that queue.
        var readable = true
        while true {
            while XEventsQueued(dpy, readable ? QueuedAfterReading : QueuedAlready) > 0 {
                var e = XEvent()
                XNextEvent(dpy, &e)
                if e.xany.send_event != 0 && !(synthetic == .clientMessagesOnly && e.type == ClientMessage) { continue }
                if let status = try event(&e) { return status }
            }
            display.reportErrors()
            let deadline: Double?
            let readingX: Double?
            switch try pass() {
            case .exit(let status): return status
            case .wait(let until, let after): (deadline, readingX) = (until, after)
            }
            XFlush(dpy)
            readable = false
            if XEventsQueued(dpy, QueuedAlready) > 0 { continue }
            switch try wait(until: deadline, readingXAfter: readingX) {
            case .status(let status): return status
            case .woken(let socket): readable = socket
            }
        }
    }

    private enum Waited {
        case status(ExitStatus)
        /// Whether the X socket was readable (or the wait was interrupted).
        case woken(xSocket: Bool)
    }

    private func wait(until deadline: Double?, readingXAfter: Double?) throws(UserError) -> Waited {
        let now = boottimeNow()
        let resting = readingXAfter.map { $0 > now } ?? false
        polled.removeAll(keepingCapacity: true)
        polled.append(pollfd(fd: display.fileDescriptor, events: resting ? 0 : Int16(POLLIN), revents: 0))
        for entry in watched { polled.append(pollfd(fd: entry.descriptor, events: entry.events?() ?? Int16(POLLIN), revents: 0)) }
        polled.append(pollfd(fd: timer, events: Int16(POLLIN), revents: 0))
        let wakeAt = resting ? min(deadline ?? .infinity, readingXAfter ?? .infinity) : deadline
        if let wakeAt, wakeAt <= now {
            // Due already: look at the descriptors without waiting.
            arm(for: nil)
        } else {
            arm(for: wakeAt.flatMap { $0.isFinite ? $0 : nil })
        }
        let timeout: Double = wakeAt.map { $0 <= now ? 0 : -1 } ?? -1
        if sg_ppoll(&polled, UInt(clamping: polled.count), timeout) < 0 {
            if errno == EINTR { return .woken(xSocket: true) }
            throw UserError("waiting for events failed: \(String(cString: strerror(errno)))", status: .internalError)
        }
        if polled[0].revents & Int16(clamping: POLLNVAL | POLLERR) != 0 {
            throw UserError("internal error: the X connection's descriptor failed", status: .internalError)
        }
        if polled[polled.count - 1].revents != 0 {
            var expirations: UInt64 = 0
            _ = read(timer, &expirations, 8)
            armedFor = nil
        }
        // After a rest the socket is read whatever ppoll said of it.
        let socket = resting || polled[0].revents != 0
        // Handlers may watch and unwatch; go by a copy of the list that was polled.
        let entries = watched
        for i in entries.indices where polled[i + 1].revents != 0 {
            let (entry, result) = (entries[i], polled[i + 1])
            let bad = Int16(clamping: entry.peer ? POLLNVAL : POLLNVAL | POLLERR)
            if result.revents & bad != 0 {
                throw UserError(
                    "internal error: the descriptor of \(entry.name) (\(entry.descriptor)) is invalid or failed",
                    status: .internalError)
            }
            if let status = try entry.handler() { return .status(status) }
        }
        return .woken(xSocket: socket)
    }
}
