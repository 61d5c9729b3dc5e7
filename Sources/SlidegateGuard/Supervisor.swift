import CSystem
import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// Lock mode's first process, the one a person or xss-lock starts and waits for: it runs the
/// lock in a child, `slidegate-guard` (forked, not executed again: it starts with the options
/// read and shares their pages), and when that child dies without
/// the lock ending as asked (a trap, a signal, its X connection killed) it locks again at
/// once, in the safe mode after `GuardRestarts.deathsForSafeMode` deaths. The guard's windows
/// outlive it (close-down mode RetainTemporary: the server keeps them until the next guard's
/// cover is up), and input in the gap goes to this process: passive grabs of every key and
/// button on the root while a guard holds the lock, active grabs from its death until the
/// next guard takes them. It holds the sleep lock until a guard has locked, and passes the
/// terminating signals on. It draws nothing and parses nothing but the guard's report lines.
package final class Supervisor {
    private let signals: SignalWatch
    /// Runs the lock in the forked child; returns its status.
    private let lock: (GuardLaunch) -> ExitStatus
    private var restarts = GuardRestarts()
    private var reader = GuardReportReader()
    private var running: (process: ChildProcess, reports: FileDescriptor?)?
    private var sleepLock: SleepLock?
    /// `--fork`: the first process, waiting to hear that the screen is locked.
    private var waitingParent: FileDescriptor?
    private var holder: GrabHolder?
    /// When to take the X connection that holds input between guards (and to try again
    /// after losing it). Not while the first guard's UI starts: making it then slowed the
    /// UI's first frame by about 1.4 ms on two cores. It comes with that frame
    /// (`GuardReport.shown`), `connectAtTheLatest` after the lock if no frame is said.
    private var connectAt = -Double.infinity
    /// How long after the lock the connection waits for the first frame at most.
    static let connectAtTheLatest = 0.25
    /// When to start the next guard, and which.
    private var relock: (at: Double, mode: GuardLaunch.Mode)?

    /// Locks with the guard `lock` runs, relocking as needed; returns the status the lock
    /// ended with.
    package static func run(fork: Bool, lock: @escaping (GuardLaunch) -> ExitStatus) -> ExitStatus {
        // First of all, before this process opens any descriptor that could take its number.
        let sleepLock = SleepLock.fromEnvironment()
        OutOfMemoryProtection.set(-1000)
        let supervisor: Supervisor
        do {
            supervisor = try Supervisor(sleepLock: sleepLock, lock: lock)
        } catch {
            report(error.message)
            return error.status
        }
        if fork {
            do {
                let notice = try FileDescriptor.pipe()
                switch Glibc.fork() {
                case -1:
                    throw SystemError("fork")
                case 0:
                    notice.read.close()
                    supervisor.waitingParent = notice.write
                case let child:
                    notice.write.close()
                    return waitForLock(notice.read, child: child)
                }
            } catch {
                report("--fork: cannot fork: \(error)")
                return .internalError
            }
        }
        return supervisor.run()
    }

    private init(sleepLock: SleepLock?, lock: @escaping (GuardLaunch) -> ExitStatus) throws(UserError) {
        self.sleepLock = sleepLock
        self.lock = lock
        signals = try SignalWatch()
    }

    /// `--fork`'s first process: exits 0 once the screen is locked, or as the lock did when
    /// it ended before.
    private static func waitForLock(_ notice: FileDescriptor, child: pid_t) -> ExitStatus {
        var byte = [UInt8](repeating: 0, count: 1)
        if let n = try? notice.read(into: &byte), n == 1 { return .completed }
        var status: Int32 = 0
        // Not a status to pass on when the guard's end cannot be known: never "locked".
        guard (try? retryingInterrupts("waitpid", { waitpid(child, &status, 0) })) != nil else { return .internalError }
        let signal = status & 0x7f
        return signal == 0 ? ExitStatus(code: (status >> 8) & 0xff) : .internalError
    }

    private func run() -> ExitStatus {
        if let status = start(.first) { return status }
        while true {
            let now = boottimeNow()
            if let next = relock, now >= next.at {
                relock = nil
                if let status = start(next.mode) { return status }
            }
            if let held = holder, !held.drain() {
                report("lost the X connection that holds input between guards; connecting again")
                holder = nil
                connectAt = now + 1
            }
            if holder == nil && restarts.locked && now >= connectAt { connect(at: now) }
            var polled = [pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if let reports = running?.reports { polled.append(pollfd(fd: reports.rawValue, events: Int16(POLLIN), revents: 0)) }
            if let held = holder { polled.append(pollfd(fd: held.connection, events: Int16(POLLIN), revents: 0)) }
            var deadline = Earliest()
            deadline.consider(relock?.at)
            if holder == nil && restarts.locked { deadline.consider(connectAt) }
            let timeout = deadline.time.map { max(0, $0 - boottimeNow()) } ?? -1
            if sg_ppoll(&polled, UInt(clamping: polled.count), timeout) < 0 && errno != EINTR {
                report("cannot wait: \(String(cString: strerror(errno)))")
                usleep(10_000)
            }
            readReports()
            for signal in signals.pending() {
                if signal == SIGCHLD {
                    if let status = guardMayHaveEnded() { return status }
                    continue
                }
                restarts.terminate(by: signal)
                if let guarding = running {
                    guarding.process.signal(signal)
                } else if let status = restarts.terminatingStatus {
                    return finish(ExitStatus(code: status))
                }
            }
        }
    }

    /// Starts a guard; a status when the lock is over (the first cannot start).
    private func start(_ mode: GuardLaunch.Mode) -> ExitStatus? {
        reader = GuardReportReader()
        do {
            let pipe = try FileDescriptor.pipe()
            if mode != .first { unsetenv("XSS_SLEEP_LOCK_FD") }
            let child = Glibc.fork()
            if child == 0 { becomeGuard(mode, reports: pipe) }
            pipe.write.close()
            guard child > 0 else {
                pipe.read.close()
                throw SystemError("fork")
            }
            running = (ChildProcess(forked: child), pipe.read)
            try pipe.read.setNonBlocking()
            return nil
        } catch {
            guard restarts.locked else {
                report("cannot lock: cannot start the guard: \(error)")
                return .noDisplayOrLock
            }
            report("cannot start a guard: \(error); trying again")
            relock = (boottimeNow() + GuardRestarts.safeModeDelay, mode)
            return nil
        }
    }

    /// The forked child: keeps the report pipe's writing end and the sleep lock and closes
    /// every other descriptor (the supervisor's X connection and signals, and whatever
    /// slidegate inherited), then runs the lock; never returns.
    private func becomeGuard(_ mode: GuardLaunch.Mode, reports pipe: (read: FileDescriptor, write: FileDescriptor)) -> Never {
        let keep = ([pipe.write.rawValue] + (mode == .first ? [sleepLock?.descriptor.rawValue].compactMap { $0 } : [])).sorted()
        sg_close_others(keep, Int32(clamping: keep.count))
        _ = sg_name_process("slidegate-guard")
        _exit(lock(GuardLaunch(reportDescriptor: pipe.write.rawValue, mode: mode)).code)
    }

    /// Reads what the guard reported; the pipe is let go at its end.
    private func readReports() {
        guard let reports = running?.reports else { return }
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n: Int?
            do {
                n = try reports.read(into: &buffer)
            } catch {
                n = 0
            }
            guard let count = n else { return }
            guard count > 0 else {
                reports.close()
                running?.reports = nil
                return
            }
            for heard in reader.take(buffer[..<count]) { handle(heard) }
        }
    }

    private func handle(_ heard: GuardReport) {
        restarts.heard(heard)
        switch heard {
        case .grabbing:
            holder?.letGo()
        case .locked:
            sleepLock?.release()
            sleepLock = nil
            if let parent = waitingParent {
                _ = try? parent.write([1])
                parent.close()
                waitingParent = nil
            }
            if holder == nil { connectAt = boottimeNow() + Self.connectAtTheLatest }
        case .shown:
            if holder == nil { connect(at: boottimeNow()) }
        case .shed:
            // The guard let go of its copies of the pages both had since the fork: the
            // supervisor's are its own now, and what start-up needed of them can go.
            shedStartupPages()
        case .ending:
            break
        }
    }

    /// The guard ended, if it has: a status when the lock is over, else it is taken again.
    private func guardMayHaveEnded() -> ExitStatus? {
        guard let guarding = running, let exit = guarding.process.poll() else { return nil }
        // What it said before it ended decides: read it all first.
        readReports()
        running?.reports?.close()
        running = nil
        let end: GuardEnd =
            switch exit {
            case .exited(let code): .exited(code)
            case .killed(let signal): .killed(signal: signal)
            }
        switch restarts.guardEnded(end, at: boottimeNow()) {
        case .exit(let code):
            if case .killed(let signal) = end, !restarts.locked {
                report("the guard ended by signal \(signal) before the screen was locked")
            }
            return finish(ExitStatus(code: code))
        case .relock(let safe, let delay):
            // Input is held at once: by the connection made since the first frame, or by one
            // made now (the guard died before its first frame showed).
            if let holder { holder.holdActively() } else { connect(at: boottimeNow()) }
            report("the lock's guard ended (\(exit)); locking again\(safe ? " in the safe mode" : "")")
            relock = (boottimeNow() + delay, safe ? .safe : .relock)
            return nil
        }
    }

    /// Ends the supervisor: a lock a guard left behind (its windows kept by the server) goes.
    private func finish(_ status: ExitStatus) -> ExitStatus {
        if restarts.locked && status != .completed {
            (holder ?? GrabHolder()).map { $0.freeRetained() }
        }
        holder = nil
        return status
    }

    private func connect(at now: Double) {
        holder = GrabHolder()
        connectAt = now + 1
        if running == nil || relock != nil { holder?.holdActively() }
    }
}

/// The supervisor's X connection: passive grabs of every key and button on the root
/// window (which a guard's active grabs supersede while it lives; the keys a window
/// manager binds there excepted), active grabs between
/// guards, and the freeing of what a dead guard left. Another client may end it; it is then
/// dead and dropped, and its memory is not freed (Xlib cannot close a lost connection).
final class GrabHolder {
    private let display: OpaquePointer
    private let root: Window
    private var lost = false
    let connection: Int32

    init?() {
        guard let display = XOpenDisplay(nil) else { return nil }
        self.display = display
        sg_survive_lost_connection(display)
        root = XDefaultRootWindow(display)
        connection = XConnectionNumber(display)
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        _ = sg_take_x_error()
        XGrabKey(display, Int32(clamping: AnyKey), UInt32(clamping: AnyModifier), root, 0, GrabModeAsync, GrabModeAsync)
        XSync(display, 0)
        if sg_take_x_error() != Success {
            // A window manager binds keys on the root, and a grab of every key then fails
            // whole: each key is grabbed alone, and only the ones it binds are left out.
            var lowest: Int32 = 0
            var highest: Int32 = 0
            XDisplayKeycodes(display, &lowest, &highest)
            for keycode in max(lowest, 8)...max(min(highest, 255), 8) {
                XGrabKey(display, keycode, UInt32(clamping: AnyModifier), root, 0, GrabModeAsync, GrabModeAsync)
            }
        }
        XGrabButton(
            display, UInt32(clamping: AnyButton), UInt32(clamping: AnyModifier), root, 0, UInt32(clamping: ButtonPressMask | ButtonReleaseMask), GrabModeAsync, GrabModeAsync,
            0, 0)
        XSync(display, 0)
        _ = sg_take_x_error()
    }

    deinit {
        if !lost { XCloseDisplay(display) }
    }

    /// Reads and drops what came; false once the connection is lost.
    func drain() -> Bool {
        var event = XEvent()
        while !noticedLoss() && XPending(display) > 0 && !noticedLoss() { XNextEvent(display, &event) }
        return !noticedLoss()
    }

    /// Whether the connection is lost (closing its descriptor the first time).
    private func noticedLoss() -> Bool {
        if !lost && sg_take_lost_connection() != 0 {
            lost = true
            close(connection)
        }
        return lost
    }

    /// Takes the keyboard and pointer: no guard holds them now.
    func holdActively() {
        guard !noticedLoss() else { return }
        XGrabKeyboard(display, root, 0, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
        XGrabPointer(display, root, 0, UInt32(clamping: ButtonPressMask | ButtonReleaseMask), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
        XSync(display, 0)
    }

    /// Lets go of them for a guard about to take them.
    func letGo() {
        guard !noticedLoss() else { return }
        XUngrabKeyboard(display, UInt(CurrentTime))
        XUngrabPointer(display, UInt(CurrentTime))
        XSync(display, 0)
    }

    /// Frees the windows of every client that ended in close-down mode RetainTemporary: a
    /// dead guard's cover, once nothing is to replace it.
    func freeRetained() {
        guard !noticedLoss() else { return }
        XKillClient(display, UInt(AllTemporary))
        XSync(display, 0)
    }
}

