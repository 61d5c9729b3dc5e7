import CX11
import Glibc
import Testing

/// `--auth pam,fingerprint` against the real fprintd and pam_fprintd: fprintd drives
/// libfprint's virtual device (`FP_VIRTUAL_DEVICE`, a socket a test writes "SCAN finger"
/// into, as a finger on a reader), on a D-Bus system bus of the test's own, with
/// python-dbusmock's polkitd allowing what fprintd asks. A finger is enrolled through
/// fprintd itself (`fprintd-enroll`) before each lock.
@Suite(.serialized) struct FprintdTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: PamStack
    let reader: Fprintd

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try PamStack()
        reader = try Fprintd()
        let f = fopen(pam.directory + "/fprint", "w")!
        fputs("auth required pam_fprintd.so\naccount required pam_permit.so\n", f)
        fclose(f)
        try reader.enroll("right-index-finger", by: "right-index")
    }

    func lockWithFprintd() throws -> Child {
        var environment = pam.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = reader.bus
        return try lock(
            ["--auth", "pam,fingerprint", "--pam-service", "slidegate", "--fingerprint-service", "fprint"], environment: environment)
    }

    @Test func theEnrolledFingerOpensTheLock() throws {
        let gate = try lockWithFprintd()
        #expect(reader.awaitVerification(), "pam_fprintd started a verification: \(gate.standardError)")
        #expect(reader.scan("right-index"))
        #expect(eventually { infoBannerShows() }, "fingerprint recognised — slide to unlock: \(gate.standardError)")
        #expect(gate.isRunning, "not before the slide")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "no password asked: \(gate.standardError)")
        #expect(client.canGrabKeyboard())
    }

    @Test func anotherFingerIsRefusedAndThePasswordStillWorks() throws {
        let gate = try lockWithFprintd()
        #expect(reader.awaitVerification(), "pam_fprintd started a verification: \(gate.standardError)")
        #expect(reader.scan("left-thumb"))
        #expect(eventually { errorBannerShows() }, "pam_fprintd's \"Failed to match fingerprint\": \(gate.standardError)")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "still locked: the password is asked")
        #expect(gate.isRunning)
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }
}

/// fprintd on a private system bus (`PrivateBus`), with python-dbusmock's polkitd allowing
/// every action, and only libfprint's virtual device, keeping its prints in a directory of
/// its own. All go with it.
final class Fprintd {
    let directory: String
    private let privateBus: PrivateBus
    var bus: String { privateBus.address }
    private var socket: String { directory + "/reader" }
    private var processes: [Child] = []

    init() throws {
        var template = Array("/tmp/slidegate-fprintd.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Child.SpawnError(path: "mkdtemp", code: errno) }
        directory = String(cString: made)
        mkdir(directory + "/state", 0o700)
        mkdir(directory + "/run", 0o700)
        privateBus = try PrivateBus()
        processes.append(
            try Child(
                "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "polkitd"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus]))
        let allowed = eventually(within: 10) { [privateBus] in
            privateBus.call(
                "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority", "org.freedesktop.DBus.Mock.AllowUnknown",
                "boolean:true")
        }
        guard allowed else { throw Failure("python-dbusmock's polkitd did not answer") }
        processes.append(
            try Child(
                "/usr/libexec/fprintd", ["--no-timeout"],
                environment: [
                    "DBUS_SYSTEM_BUS_ADDRESS": bus, "FP_VIRTUAL_DEVICE": socket, "FP_DRIVERS_WHITELIST": "virtual_device",
                    "G_MESSAGES_DEBUG": "all", "STATE_DIRECTORY": directory + "/state", "RUNTIME_DIRECTORY": directory + "/run",
                ], stdout: directory + "/fprintd.log"))
        guard eventually(within: 10, { privateBus.owns("net.reactivated.Fprint") }) else { throw Failure("fprintd did not take its name on the bus") }
    }

    /// Waits until fprintd says a verification started (its debug log), and a moment more
    /// for pam_fprintd to hear it: a finger that came sooner would find pam_fprintd not yet
    /// listening for the result, which it then drops (a real finger comes later).
    func awaitVerification() -> Bool {
        guard eventually(within: 5, { contents(of: directory + "/fprintd.log").contains("start verification") }) else { return false }
        sleep(seconds: 0.3)
        return true
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Enrolls `finger` (fprintd's name, such as right-index-finger) for the user the tests
    /// run as, the virtual device scanning the print `print` at each stage.
    func enroll(_ finger: String, by print: String) throws {
        let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
        let log = directory + "/enroll.log"
        let enrolling = try Child(
            "/usr/bin/stdbuf", ["-oL", "/usr/bin/fprintd-enroll", "-f", finger, user], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus],
            stdout: log)
        // One scan a stage: each is answered by a line before the next goes, so none is
        // left queued in the device for a later test's lock.
        let end = now() + 20
        while enrolling.isRunning && now() < end {
            let lines = contents(of: log).split(separator: "\n").count
            if scan(print) { _ = eventually(within: 2) { !enrolling.isRunning || contents(of: log).split(separator: "\n").count > lines } }
            sleep(seconds: 0.05)
        }
        guard enrolling.wait(timeout: 1) == 0, contents(of: log).contains("enroll-completed") else {
            throw Failure("fprintd-enroll: \(contents(of: log)) \(enrolling.standardError)")
        }
    }

    /// A finger whose print is `print` on the reader; false when the device is not open
    /// (no one claimed it), so its socket does not listen.
    @discardableResult
    func scan(_ print: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard connect(to: fd) else { return false }
        let command = Array("SCAN \(print)\n".utf8)
        _ = command.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        // The device reads the command once the connection is whole: wait for its close.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        _ = read(fd, &byte, 1)
        return true
    }

    private func connect(to fd: Int32) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socket.utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, c) in path.prefix(raw.count - 1).enumerated() { raw[i] = UInt8(bitPattern: c) }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    deinit {
        processes.reversed().forEach { $0.signal(SIGTERM) }
        processes.removeAll()
        _ = system("rm -rf '\(directory)'")
    }
}
