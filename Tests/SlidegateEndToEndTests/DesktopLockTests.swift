import CX11
import Glibc
import Testing

/// Where desktops lock the screen, each with the desktop's own program: Xfce's `xflock4`
/// runs xfconf's `/general/LockCommand` (set with `xfconf-query`, as the README says), and
/// LXQt's `lxqt-leave --lockscreen` runs `lock_command` from `lxqt.conf`'s `[Screensaver]`.
/// Each starts slidegate, which locks, and opens with the slide.
@Suite(.serialized) struct DesktopLockTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let scratch: Scratch

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        scratch = try Scratch()
    }

    /// The lock command a desktop is given: slidegate with the suites' slider and colours.
    /// xflock4 runs it with /bin/sh, where "#" starts a comment: each word is quoted there.
    /// LXQt cuts it at spaces and runs the words as they are, quotes and all.
    func lockCommand(quoted: Bool) -> String {
        ([slidegatePath] + LockModeTests.arguments).map { quoted ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    /// A desktop program's environment: this screen, a session bus of its own, the
    /// configuration in the scratch directory.
    func desktop(_ bus: PrivateBus) -> [String: String?] {
        [
            "DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": scratch.path,
            "XDG_CONFIG_HOME": scratch.path + "/config", "XDG_CACHE_HOME": freshCacheHome(),
            "XDG_RUNTIME_DIR": scratch.path, "QT_QPA_PLATFORM": "xcb",
        ]
    }

    func unlock(_ locker: Child) {
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.canGrabKeyboard() && !covered() }, "the desktop is back: \(locker.standardError)")
    }

    @Test func xflock4RunsTheLockCommandSetThroughXfconf() throws {
        // xfconfd is started by the bus, with the bus's environment: its files go to scratch.
        let bus = try PrivateBus(environment: ["XDG_CONFIG_HOME": scratch.path + "/config", "HOME": scratch.path])
        let set = try Child(
            "/usr/bin/xfconf-query", ["-c", "xfce4-session", "-p", "/general/LockCommand", "-n", "-t", "string", "-s", lockCommand(quoted: true)],
            environment: desktop(bus))
        #expect(set.wait(timeout: 10) == 0, "xfconf took the lock command: \(set.standardError)")
        let xflock4 = try Child("/usr/bin/xflock4", [], environment: desktop(bus))
        #expect(eventually { covered() && thumbShown(at: 0) && !client.canGrabKeyboard() }, "xflock4 locked: \(xflock4.standardError)")
        #expect(xflock4.isRunning, "it waits for the lock")
        unlock(xflock4)
        #expect(xflock4.wait() == 0, "and ends with it: \(xflock4.standardError)")
    }

    @Test func lxqtLeaveRunsTheLockCommandOfLxqtConf() throws {
        let bus = try PrivateBus()
        mkdir(scratch.path + "/config", 0o700)
        mkdir(scratch.path + "/config/lxqt", 0o700)
        guard let file = fopen(scratch.path + "/config/lxqt/lxqt.conf", "w") else { throw Child.SpawnError(path: "lxqt.conf", code: errno) }
        fputs("[Screensaver]\nlock_command=\(lockCommand(quoted: false))\n", file)
        fclose(file)
        let leave = try Child("/usr/bin/lxqt-leave", ["--lockscreen"], environment: desktop(bus))
        #expect(eventually(within: 10) { covered() && thumbShown(at: 0) && !client.canGrabKeyboard() }, "lxqt-leave locked: \(leave.standardError)")
        unlock(leave)
        leave.signal(SIGTERM)
    }
}
