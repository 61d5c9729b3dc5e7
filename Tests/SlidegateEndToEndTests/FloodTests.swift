import CX11
import Glibc
import Testing

/// CVE-2014-7300: GNOME Shell's lock screen kept what a flood of keys made until the kernel
/// killed it, and the session was open. Floods of keys, motion and PAM messages here: each
/// of the lock's processes (the guard, the UI, the helper) stays within 1 MiB of the
/// resident memory it had once the flood was under way, and the lock holds. Same slider
/// placement as `LockModeTests`.
@Suite(.serialized) struct FloodTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: PamStack
    static let seconds = 60.0

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try PamStack()
    }

    /// Resident memory in KiB (VmRSS), nil once the process has gone.
    static func residentKiB(_ pid: pid_t) -> Int? {
        for line in contents(of: "/proc/\(pid)/status").split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.filter(\.isNumber))
        }
        return nil
    }

    /// The guard and its children (the UI, the helper), each with its resident memory now;
    /// a failed test when there is none to read, unless the lock may have ended.
    func memory(of gate: Child, mayHaveEnded: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> [pid_t: Int] {
        let guarding = guardOf(gate.pid)
        var kept: [pid_t: Int] = [:]
        for pid in [guarding] + children(of: guarding) { kept[pid] = Self.residentKiB(pid) }
        if !mayHaveEnded {
            #expect(kept[guarding] != nil && kept.count >= 2, "the guard's and the UI's memory: \(kept)", sourceLocation: sourceLocation)
        }
        return kept
    }

    /// Each process of `start` that still runs is within 1 MiB of where it started.
    func expectWithin1MiB(of start: [pid_t: Int], _ gate: Child, sourceLocation: SourceLocation = #_sourceLocation) {
        let end = memory(of: gate)
        #expect(Set(end.keys) == Set(start.keys), "the same processes: \(start) → \(end): \(gate.standardError)", sourceLocation: sourceLocation)
        for (pid, before) in start {
            guard let after = end[pid] else { continue }
            #expect(after - before <= 1024, "\(pid) grew from \(before) to \(after) KiB", sourceLocation: sourceLocation)
        }
    }

    /// Runs `body` over and over for `seconds`.
    func repeatFor(_ seconds: Double, _ body: () -> Void) {
        let end = now() + seconds
        while now() < end { body() }
    }

    /// Keys as fast as a held key repeats many times over, into the password field, which
    /// fills and then refuses them; a key up and down about once a millisecond.
    @Test func aMinuteOfKeysIntoThePasswordField() throws {
        let gate = try lock(["--auth", "pam", "--pam-service", "slidegate"], environment: pam.environment)
        client.type("x", enter: false)
        #expect(eventually { stageOpen() })
        repeatFor(3) { client.key(0x61) }
        let start = memory(of: gate)
        repeatFor(Self.seconds) {
            client.key(0x61)
            usleep(500)
        }
        expectWithin1MiB(of: start, gate)
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "\(gate.standardError)")
        client.key(0xff1b)
        sleep(seconds: 1.2)
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// A 1000 Hz mouse with the thumb held, back and forth for a minute.
    @Test func aMinuteOf1000HzMotionWithTheThumbHeld() throws {
        let gate = try lock()
        client.move(140, 140)
        client.button(true)
        for _ in 0..<3 { client.backAndForth(rate: 1000, y: 140) }
        let start = memory(of: gate)
        for _ in 0..<Int(Self.seconds) { client.backAndForth(rate: 1000, y: 140) }
        expectWithin1MiB(of: start, gate)
        client.button(false)
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "\(gate.standardError)")
        #expect(eventually { thumbShown(at: 0) }, "the thumb sprang back")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// 10,000 PAM messages before each prompt for the password: a wrong one after the
    /// first flood, the right one after the second. Each process's highest resident memory
    /// in the second is within 1 MiB of its highest in the first (a process that gave pages
    /// back between them takes them again, which is not growth; a leak grows past it).
    @Test func tenThousandPamMessagesTwice() throws {
        let gate = try lock(["--auth", "pam", "--pam-service", "flood"], environment: pam.environment)
        func highest(until done: () -> Bool, within seconds: Double) -> [pid_t: Int] {
            var peak: [pid_t: Int] = [:]
            let end = now() + seconds
            repeat {
                for (pid, kib) in memory(of: gate, mayHaveEnded: true) { peak[pid] = max(peak[pid] ?? 0, kib) }
                usleep(20_000)
            } while !done() && now() < end
            return peak
        }
        client.type("wrong")
        let first = highest(until: { errorBannerShows() }, within: 60)
        #expect(errorBannerShows(), "the first flood, then the refusal: \(gate.standardError)")
        sleep(seconds: 1.2)
        client.type(AuthTests.password)
        let second = highest(until: { !gate.isRunning }, within: 60)
        for (pid, before) in first {
            guard let after = second[pid] else { continue }
            #expect(after - before <= 1024, "\(pid) peaked at \(before) KiB in the first flood, \(after) in the second")
        }
        #expect(gate.wait(timeout: 60) == 0, "the password after the second flood: \(gate.standardError)")
    }

    /// cinnamon-screensaver #480: under memory pressure the kernel killed the locker, and
    /// the session was open. A memory cgroup with no room left is put round the UI: the
    /// kernel's OOM killer ends it when it draws the next drags, the guard starts another
    /// (outside that cgroup) and the lock holds. (The guard and the supervisor ask for
    /// `oom_score_adj` −1000 as well.)
    @Test(.enabled(if: MemoryCgroup.usable, "this machine has no memory cgroup to write"))
    func theUIKilledByTheOOMKillerLeavesTheLockHeld() throws {
        let gate = try lock()
        let ui = try #require(uiChild(of: gate.pid))
        let cgroup = try #require(MemoryCgroup(), "a memory cgroup")
        defer { cgroup.remove() }
        #expect(cgroup.confine(ui), "the UI is in it, with no room: \(cgroup.path)")
        for _ in 0..<20 where Glibc.kill(ui, 0) == 0 && !cgroup.killed {
            client.drag(from: (140, 140), to: (500, 140))
            sleep(seconds: 0.3)
        }
        #expect(eventually { cgroup.killed }, "the OOM killer ended the UI")
        #expect(eventually { gate.standardError.contains("the slider's drawing program ended (signal 9)") }, "\(gate.standardError)")
        #expect(eventually { uiChild(of: gate.pid).map { $0 != ui } ?? false }, "another UI")
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard())
        #expect(eventually { thumbShown(at: 0) })
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }
}

/// A memory cgroup of the tests' own, below the one they run in: cgroup v2's memory
/// controller, else v1's.
final class MemoryCgroup {
    let path: String
    private let v2: Bool

    /// Where the tests' process is in the v2 hierarchy, or in v1's memory one.
    private static var base: (path: String, v2: Bool)? {
        for line in contents(of: "/proc/self/cgroup").split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[1] == "memory" { return ("/sys/fs/cgroup/memory" + fields[2], false) }
        }
        if contents(of: "/sys/fs/cgroup/cgroup.controllers").contains("memory"),
            let own = contents(of: "/proc/self/cgroup").split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        {
            return ("/sys/fs/cgroup" + own.dropFirst(3), true)
        }
        return nil
    }

    static var usable: Bool {
        guard let base else { return false }
        return access(base.path, W_OK) == 0
    }

    init?() {
        guard let base = Self.base else { return nil }
        path = base.path + "/slidegate-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        v2 = base.v2
        guard mkdir(path, 0o755) == 0 else { return nil }
    }

    private func write(_ name: String, _ value: String) -> Bool {
        guard let f = fopen(path + "/" + name, "w") else { return false }
        let written = fputs(value, f) >= 0
        return fclose(f) == 0 && written
    }

    /// Moves `pid` in and leaves it a page more than it has (v1 refuses a limit below
    /// what is charged, so the limit follows the usage until it holds).
    func confine(_ pid: pid_t) -> Bool {
        if !v2 { _ = write("memory.move_charge_at_immigrate", "0") }
        guard write("cgroup.procs", "\(pid)") else { return false }
        if v2 { _ = write("memory.swap.max", "0") }
        for _ in 0..<50 {
            let usage = Int(contents(of: path + (v2 ? "/memory.current" : "/memory.usage_in_bytes")).filter { $0.isNumber }) ?? 0
            if write(v2 ? "memory.max" : "memory.limit_in_bytes", "\(usage + 4096)") { return true }
        }
        return false
    }

    /// Whether the kernel's OOM killer ended a process in it.
    var killed: Bool {
        let counters = contents(of: path + (v2 ? "/memory.events" : "/memory.oom_control"))
        return counters.split(separator: "\n").contains { $0.hasPrefix("oom_kill ") && !$0.hasSuffix(" 0") }
    }

    func remove() {
        for _ in 0..<100 where rmdir(path) != 0 { usleep(20_000) }
    }
}
