import CX11
import CXShim
import CXScreenSaver
import CXTest
import Glibc
import Testing

/// In an environment change: remove the variable.
let unset: String? = nil

/// Seconds on the monotonic clock.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func sleep(seconds: Double) {
    usleep(UInt32(seconds * 1_000_000))
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass.
func eventually(within timeout: Double = 3, _ condition: () -> Bool) -> Bool {
    let end = now() + timeout
    while now() < end {
        if condition() { return true }
        sleep(seconds: 0.01)
    }
    return condition()
}

/// A child process with its standard error captured in a file.
final class Child {
    let pid: pid_t
    let errorPath: String
    private(set) var status: Int32?

    /// Starts `path` with `arguments`, the current environment changed by `environment`
    /// (nil values remove a variable), and default signal dispositions and mask.
    /// `keep` lists descriptors the child inherits (at the same numbers).
    init(
        _ path: String, _ arguments: [String], environment: [String: String?] = [:], stdin: String = "/dev/null",
        stdout: String = "/dev/null", keep: [Int32] = []
    ) throws {
        errorPath = "/tmp/slidegate-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
        var env: [String: String] = [:]
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { env[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            e += 1
        }
        for (key, value) in environment { env[key] = value }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        for fd in keep { _ = fcntl(fd, F_SETFD, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child = pid_t()
        let result = posix_spawn(&child, path, &actions, &attributes, &argv, &envp)
        guard result == 0 else { throw SpawnError(path: path, code: result) }
        pid = child
    }

    struct SpawnError: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String { "cannot start \(path): \(String(cString: strerror(code)))" }
    }

    /// The exit status if the process has ended; `128 + N` when killed by signal N.
    @discardableResult
    func poll() -> Int32? {
        if status != nil { return status }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return status
    }

    var isRunning: Bool { poll() == nil }

    /// Waits up to `timeout` seconds for the exit status.
    func wait(timeout: Double = 5) -> Int32? {
        _ = eventually(within: timeout) { poll() != nil }
        return status
    }

    func signal(_ n: Int32) { kill(pid, n) }

    var standardError: String { contents(of: errorPath) }

    deinit {
        if poll() == nil {
            kill(pid, SIGKILL)
            _ = wait(timeout: 2)
        }
        unlink(errorPath)
    }
}

extension String {
    /// The text of a C buffer up to its first NUL (which it must hold).
    init(terminated buffer: [CChar]) {
        self = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

/// The slidegate binary built beside this test bundle (by `swift build`, which ./dev test
/// runs first; the test target cannot depend on the static guard executable).
let slidegatePath: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, 4095)
    let exe = String(terminated: Array(buffer.prefix(max(n, 0))) + [0])
    let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return dir + "/slidegate"
}()

/// Where this test run's slidegates keep their first frames, each lock in a directory of
/// its own (`freshCacheHome`); removed when the run ends.
let testCacheHome: String = {
    var template = Array("/tmp/slidegate-tests-cache.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { return "/tmp/slidegate-tests-cache" }
    // atexit takes no context, but the closure may read this global once it is made. Not
    // through the environment: setenv while other tests' threads read `environ` (to start
    // a child) frees the array under them.
    atexit { _ = system("rm -rf '\(testCacheHome)'") }
    return String(cString: made)
}()

/// A new, empty cache directory inside `testCacheHome`.
func freshCacheHome() -> String {
    var template = Array((testCacheHome + "/lock.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { return "/dev/null" }
    return String(cString: made)
}

/// A lock's UI held back before its first frame: it reads its font configuration from a
/// FIFO (`FONTCONFIG_FILE`), and waits there until `release` writes the machine's into it.
/// Meanwhile what shows in the slider is the guard's alone.
struct HeldUI {
    let fifo: String

    /// Makes the FIFO in `directory`.
    init(in directory: String) throws {
        fifo = directory + "/fonts.conf"
        guard mkfifo(fifo, 0o600) == 0 else { throw Child.SpawnError(path: "mkfifo \(fifo)", code: errno) }
    }

    /// What the lock's environment needs.
    var environment: [String: String?] { ["FONTCONFIG_FILE": fifo] }

    /// Lets the UI go on, once it has opened the FIFO.
    func release(sourceLocation: SourceLocation = #_sourceLocation) {
        var fd: Int32 = -1
        #expect(eventually { fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC); return fd >= 0 }, "the UI opened the FIFO", sourceLocation: sourceLocation)
        let text = Array("<?xml version=\"1.0\"?>\n<fontconfig><include>/etc/fonts/fonts.conf</include></fontconfig>\n".utf8)
        #expect(write(fd, text, text.count) == text.count, sourceLocation: sourceLocation)
        close(fd)
    }
}

/// An X server of its own for one test, started with -displayfd so it is ready when its
/// number is known: Xvfb, or Xorg with the dummy driver (real RandR: monitors can be
/// plugged in, unplugged and made primary).
final class VirtualScreen {
    enum Kind {
        case xvfb(width: Int, height: Int)
        case dummy
    }

    let server: Child
    let name: String
    private let logDirectory: String?

    /// `arguments` go to the server after the ones every test server gets.
    init(_ kind: Kind = .xvfb(width: 1280, height: 720), arguments: [String] = []) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Child.SpawnError(path: "pipe", code: errno) }
        switch kind {
        case .xvfb(let width, let height):
            logDirectory = nil
            server = try Child(
                "/usr/bin/Xvfb",
                ["-displayfd", "\(fds[1])", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"] + arguments)
        case .dummy:
            var template = Array("/tmp/slidegate-xorg.XXXXXX".utf8CString)
            guard let dir = mkdtemp(&template) else { throw Child.SpawnError(path: "mkdtemp", code: errno) }
            let directory = String(cString: dir)
            logDirectory = directory
            let config = String(#filePath.dropLast("Support.swift".count)) + "xorg-dummy.conf"
            server = try Child(
                "/usr/lib/xorg/Xorg",
                ["-displayfd", "\(fds[1])", "-config", config, "-noreset", "-nolisten", "tcp", "-novtswitch", "-sharevts",
                    "-logfile", directory + "/Xorg.log"] + arguments)
        }
        close(fds[1])
        var text = ""
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { text.append(Character(UnicodeScalar(byte))) }
        close(fds[0])
        guard !text.isEmpty else { throw Child.SpawnError(path: "the X server (no display number; see its log)", code: EIO) }
        name = ":" + text
    }

    /// Runs an X client program (xrandr, xset) on this server and waits for it.
    @discardableResult
    func run(_ path: String, _ arguments: String...) throws -> Int32? {
        let child = try Child(path, arguments, environment: ["DISPLAY": name])
        return child.wait(timeout: 10)
    }

    /// Starts slidegate (`program`, the built one by default) on this screen, outside any
    /// Wayland session.
    func slidegate(
        _ arguments: [String], environment: [String: String?] = [:], keep: [Int32] = [], stdout: String = "/dev/null",
        program: String = slidegatePath
    ) throws -> Child {
        var env = environment
        env["DISPLAY"] = name
        if env.index(forKey: "WAYLAND_DISPLAY") == nil { env["WAYLAND_DISPLAY"] = unset }
        // No configuration file of the machine's user: a test says what it runs with.
        if env.index(forKey: "XDG_CONFIG_HOME") == nil { env["XDG_CONFIG_HOME"] = "/nonexistent/slidegate-tests" }
        // Nor a system-wide file of the machine's (/etc/xdg/slidegate/config).
        if env.index(forKey: "XDG_CONFIG_DIRS") == nil { env["XDG_CONFIG_DIRS"] = "/nonexistent/slidegate-tests" }
        // Each lock keeps its first frame in a cache directory of its own, so no lock shows
        // one kept by another: a slider on the screen means the UI has drawn it (the kept
        // frame's own tests give theirs).
        if env.index(forKey: "XDG_CACHE_HOME") == nil { env["XDG_CACHE_HOME"] = freshCacheHome() }
        return try Child(program, arguments, environment: env, stdout: stdout, keep: keep)
    }

    func slidegate(_ arguments: String...) throws -> Child {
        try slidegate(arguments)
    }

    deinit {
        server.signal(SIGTERM)
        if server.wait(timeout: 3) == nil {
            server.signal(SIGKILL)
            _ = server.wait(timeout: 2)
        }
        if let logDirectory {
            unlink(logDirectory + "/Xorg.log")
            unlink(logDirectory + "/Xorg.log.old")
            rmdir(logDirectory)
        }
    }
}

/// The slider every end-to-end test draws: 600x80 at (100, 100), given as `--geometry` or
/// `--slider`. Padding 6, so the 68 px thumb rests at x 106...174, y 106...174, and its left
/// edge travels 520 px to x 626 at the end.
extension Client {
    /// Whether the thumb's body covers the point 8 px inside its top-left corner at `value`:
    /// that pixel is brighter than `threshold` (the track around it is darker).
    func thumbShown(at value: Double, threshold: Int) -> Bool {
        brightness(106 + Int(value * 520) + 8, 114) > threshold
    }
}

/// What the lock-mode suites see: a cover of `--background #102030` and the thumb.
protocol LockScreenChecks {
    var screen: VirtualScreen { get }
    var client: Client { get }
}

extension LockScreenChecks {
    /// Starts the lock with the shared slider and waits until it is up and drawn.
    func lock(
        _ extra: [String] = [], environment: [String: String?] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Child {
        let gate = try screen.slidegate(LockModeTests.arguments + extra, environment: environment)
        #expect(
            eventually { covered() && thumbShown(at: 0) }, "locked; slidegate said: \(gate.standardError)",
            sourceLocation: sourceLocation)
        return gate
    }

    /// The password field is open: the thumb sits at the end (showing a lock).
    func stageOpen() -> Bool { thumbShown(at: 1) && !thumbShown(at: 0) }

    func covered() -> Bool {
        [(0, 0), (1279, 0), (0, 719), (1279, 719), (640, 360)].allSatisfy { client.pixel($0.0, $0.1) == (16, 32, 48) }
    }

    /// The small "locking…" notice a guard waiting for a grab shows.
    func lockingNoticeShown() -> Bool {
        client.mappedTopLevels().contains { client.geometry($0).width < 300 }
    }

    /// An error banner (a red icon) shows.
    func errorBannerShows() -> Bool {
        client.bannerIcon().map { $0.r > 180 && $0.g < 120 } ?? false
    }

    func thumbShown(at value: Double) -> Bool {
        client.thumbShown(at: value, threshold: 90)
    }
}

/// A positive barrier instead of a sleep before checking that nothing happened: a real
/// half drag that the thumb follows, then its spring back. Events are handled in order, so
/// once the thumb has moved, everything sent before it has been handled.
func barrier(_ client: Client, _ thumbShown: (Double) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    client.drag(from: (140, 140), to: (400, 140), release: false)
    #expect(eventually { thumbShown(0.5) }, "the thumb follows a real drag", sourceLocation: sourceLocation)
    client.button(false)
    #expect(eventually { thumbShown(0) && !thumbShown(0.5) }, "and springs back", sourceLocation: sourceLocation)
}

/// A text file's contents, or "" when it cannot be read.
func contents(of path: String) -> String {
    guard let f = fopen(path, "r") else { return "" }
    defer { fclose(f) }
    var text = ""
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, 4096, f) != nil { text += String(terminated: buffer) }
    return text
}

/// The drawing program among `pid`'s children (the guard has others: the helper, the
/// unlock command, logind's LockedHint call): by the file it runs, which names it from its
/// exec, before it names itself for `ps`.
func uiChild(of pid: pid_t) -> pid_t? {
    children(of: guardOf(pid)).first { executable(of: $0).hasSuffix("/slidegate-ui") }
}

/// The process that holds the lock: the supervisor `pid`'s child `slidegate-guard`, or `pid`
/// itself when it has none (a windowed slidegate).
func guardOf(_ pid: pid_t) -> pid_t {
    children(of: pid).first { contents(of: "/proc/\($0)/comm") == "slidegate-guard\n" } ?? pid
}

/// Where the file process `pid` runs is, or "" when it cannot be read.
func executable(of pid: pid_t) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/\(pid)/exe", &buffer, 4095)
    return n > 0 ? String(terminated: Array(buffer.prefix(n)) + [0]) : ""
}

/// The process ids of `pid`'s children.
func children(of pid: pid_t) -> [pid_t] {
    guard let f = fopen("/proc/\(pid)/task/\(pid)/children", "r") else { return [] }
    defer { fclose(f) }
    var buffer = [CChar](repeating: 0, count: 4096)
    guard fgets(&buffer, 4096, f) != nil else { return [] }
    return String(terminated: buffer).split(separator: " ").compactMap { pid_t($0.trimmingSpaces) }
}

/// The child of `pid`'s guard whose command line names `program` (a helper it started).
func child(of pid: pid_t, running program: String) -> pid_t? {
    children(of: guardOf(pid)).first { contents(of: "/proc/\($0)/cmdline").contains(program) }
}

/// Voluntary context switches of a process so far: its wake-ups (each time it sleeps it
/// has woken since). Involuntary ones are preemptions, which other tests running at the
/// same time make many of and which say nothing about the process.
func contextSwitches(of pid: pid_t) -> Int? {
    guard let f = fopen("/proc/\(pid)/status", "r") else { return nil }
    defer { fclose(f) }
    var total = 0
    var buffer = [CChar](repeating: 0, count: 512)
    while fgets(&buffer, 512, f) != nil {
        let line = String(terminated: buffer)
        if line.hasPrefix("voluntary_ctxt_switches:") {
            total += Int(line.split(separator: ":")[1].trimmingSpaces) ?? 0
        }
    }
    return total
}

/// The wake-ups (`contextSwitches`) of a lock's processes — slidegate, its guard and the
/// guard's children — over `seconds` from now, summed.
func wakeUps(ofTheLock pid: pid_t, over seconds: Double) -> Int {
    let tree = [pid, guardOf(pid)] + children(of: guardOf(pid))
    let before = tree.compactMap(contextSwitches(of:)).reduce(0, +)
    sleep(seconds: seconds)
    return tree.compactMap(contextSwitches(of:)).reduce(0, +) - before
}

extension Substring {
    var trimmingSpaces: String { String(filter { !$0.isWhitespace }) }
}

/// A second client on the test server: injects input with XTest, reads pixels, tries grabs.
final class Client {
    let display: OpaquePointer
    let root: Window
    /// Kept so the server outlives the connection.
    private let screen: VirtualScreen

    init(_ screen: VirtualScreen) throws {
        self.screen = screen
        guard let d = XOpenDisplay(screen.name) else { throw Child.SpawnError(path: "XOpenDisplay \(screen.name)", code: EIO) }
        // Other clients' windows come and go while the tests look at them: an error about
        // one that just went (BadWindow) must not end the test process, as Xlib's default
        // handler would. The calls that matter check their own results.
        sg_trap_x_errors()
        display = d
        root = XDefaultRootWindow(d)
    }

    deinit {
        XCloseDisplay(display)
    }

    func move(_ x: Int, _ y: Int) {
        XTestFakeMotionEvent(display, -1, Int32(x), Int32(y), 0)
        XSync(display, 0)
    }

    func button(_ down: Bool) {
        XTestFakeButtonEvent(display, 1, down ? 1 : 0, 0)
        XSync(display, 0)
    }

    func key(_ keysym: Int32) {
        keyDown(keysym)
        keyUp(keysym)
    }

    /// Makes `group` the keyboard's locked XKB group (what a layout-switching key does).
    func lockGroup(_ group: UInt32) {
        XkbLockGroup(display, UInt32(XkbUseCoreKbd), group)
        XSync(display, 0)
    }

    func keyDown(_ keysym: Int32) {
        XTestFakeKeyEvent(display, UInt32(XKeysymToKeycode(display, KeySym(keysym))), 1, 0)
        XSync(display, 0)
    }

    func keyUp(_ keysym: Int32) {
        XTestFakeKeyEvent(display, UInt32(XKeysymToKeycode(display, KeySym(keysym))), 0, 0)
        XSync(display, 0)
    }

    /// Types `text` (ASCII letters and digits; capitals with Shift) and, if asked, Enter.
    func type(_ text: String, enter: Bool = true) {
        for scalar in text.unicodeScalars {
            let capital = scalar.properties.isUppercase
            if capital { keyDown(0xffe1) }
            key(Int32(scalar.value))
            if capital { keyUp(0xffe1) }
        }
        if enter { key(0xff0d) }
    }

    /// Presses at `from`, moves to `to` in `steps` steps a few milliseconds apart, and
    /// releases there when `release` is true.
    func drag(from: (Int, Int), to: (Int, Int), steps: Int = 10, release: Bool = true) {
        move(from.0, from.1)
        button(true)
        for i in 1...steps {
            move(from.0 + (to.0 - from.0) * i / steps, from.1 + (to.1 - from.1) * i / steps)
            sleep(seconds: 0.005)
        }
        if release { button(false) }
    }

    /// Moves the pointer `count` times along row `y`, `rate` moves a second, the i-th move
    /// to x `place(i)`: a mouse of that polling rate.
    func moveAlong(rate: Int, count: Int, y: Int, place: (Int) -> Int) {
        let start = now()
        for i in 0..<count {
            move(place(i), y)
            sleep(seconds: max(0, start + Double(i + 1) / Double(rate) - now()))
        }
    }

    /// Moves the pointer `rate` times a second for a second along row `y`, from x 160 to 360
    /// and back, one pixel a move: a pointer of that polling rate, held on the thumb.
    func backAndForth(rate: Int, y: Int) {
        moveAlong(rate: rate, count: rate, y: y) { i in
            let step = i % 400
            return 160 + (step < 200 ? step : 400 - step)
        }
    }

    /// Moves the pointer along a row from `from` to `to` in `steps` moves, 1000 a second: a
    /// fast mouse, for which the guard takes motion as hints.
    func fastMove(y: Int, from: Int, to: Int, steps: Int = 200) {
        moveAlong(rate: 1000, count: steps, y: y) { i in from + (to - from) * (i + 1) / steps }
    }

    /// The colour at a root-window pixel as (red, green, blue), 0...255. A failed read
    /// fails the test.
    func pixel(_ x: Int, _ y: Int, sourceLocation: SourceLocation = #_sourceLocation) -> (r: Int, g: Int, b: Int) {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), 1, 1, ~0, ZPixmap) else {
            Issue.record("cannot read the screen at \(x),\(y)", sourceLocation: sourceLocation)
            return (-1, -1, -1)
        }
        defer { sg_image_destroy(image) }
        let p = sg_image_pixel(image, 0, 0)
        return (Int((p >> 16) & 0xff), Int((p >> 8) & 0xff), Int(p & 0xff))
    }

    /// The banner's icon, as the strip at the top of the 1280x720 screen shows it over the
    /// tests' background (#102030): the strip is as wide as the 600-pixel slider, centred
    /// (x 340), its box 64 pixels tall 12 below the top, the icon's circle (radius 14)
    /// centred 32 pixels in. Read 8 pixels left of the centre, where no mark is drawn: the
    /// marks (!, i, x) cross the centre in the background's colour, so the centre itself
    /// shows the icon only while the banner slides in. Nil while no banner shows.
    func bannerIcon() -> (r: Int, g: Int, b: Int)? {
        let p = pixel(340 + 1 + 32 - 8, 12 + 32)
        return p == (16, 32, 48) ? nil : p
    }

    /// The brightness of every `step`-th pixel of a rectangle, row by row, in one read.
    func brightness(x: Int, y: Int, width: Int, height: Int, step: Int = 1) -> [Int] {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), ~0, ZPixmap) else {
            Issue.record("cannot read the screen at \(x),\(y) \(width)x\(height)")
            return []
        }
        defer { sg_image_destroy(image) }
        var values: [Int] = []
        for row in stride(from: 0, to: height, by: step) {
            for column in stride(from: 0, to: width, by: step) {
                let p = sg_image_pixel(image, Int32(column), Int32(row))
                values.append(Int((p >> 16) & 0xff + (p >> 8) & 0xff + p & 0xff) / 3)
            }
        }
        return values
    }

    /// How many times the pixels of a rectangle of the screen changed in `seconds`, read
    /// about every 4 ms: the frames shown there (an animation at up to about 120 frames a
    /// second; more are undercounted, never overcounted).
    func frames(x: Int, y: Int, width: Int, height: Int, over seconds: Double) -> Int {
        var previous: [UInt32]?
        var changes = 0
        let end = now() + seconds
        while now() < end {
            guard let pixels = pixels(x: x, y: y, width: width, height: height) else { return changes }
            if let previous, previous != pixels { changes += 1 }
            previous = pixels
            sleep(seconds: 0.004)
        }
        return changes
    }

    /// A rectangle of the screen in one read, row by row, each pixel 0xRRGGBB; nil (and the
    /// test fails) when it cannot be read.
    func pixels(x: Int, y: Int, width: Int, height: Int) -> [UInt32]? {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), ~0, ZPixmap) else {
            Issue.record("cannot read the screen at \(x),\(y) \(width)x\(height)")
            return nil
        }
        defer { sg_image_destroy(image) }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            for column in 0..<width { pixels.append(UInt32(truncatingIfNeeded: sg_image_pixel(image, Int32(column), Int32(row))) & 0xffffff) }
        }
        return pixels
    }

    /// One notch of the scroll wheel: down (button 5) or up (button 4).
    func scroll(down: Bool) {
        let button: UInt32 = down ? 5 : 4
        XTestFakeButtonEvent(display, button, 1, 0)
        XTestFakeButtonEvent(display, button, 0, 0)
        XSync(display, 0)
    }

    func brightness(_ x: Int, _ y: Int) -> Int {
        let p = pixel(x, y)
        return (p.r + p.g + p.b) / 3
    }

    /// Tries to grab the keyboard; releases it at once if it got it.
    /// Whether the server's screen saver is on (`--blank-after` forces it).
    func screenSaverOn() -> Bool {
        var info = XScreenSaverInfo()
        return XScreenSaverQueryInfo(display, root, &info) != 0 && info.state == ScreenSaverOn
    }

    func canGrabKeyboard() -> Bool {
        let result = XGrabKeyboard(display, root, 0, GrabModeAsync, GrabModeAsync, 0)
        if result == GrabSuccess { XUngrabKeyboard(display, 0) }
        XSync(display, 0)
        return result == GrabSuccess
    }

    func canGrabPointer() -> Bool {
        let result = XGrabPointer(display, root, 0, UInt32(ButtonPressMask), GrabModeAsync, GrabModeAsync, 0, 0, 0)
        if result == GrabSuccess { XUngrabPointer(display, 0) }
        XSync(display, 0)
        return result == GrabSuccess
    }

    /// The top-level windows that are mapped, bottom to top: the root window's children,
    /// then those inside the Composite overlay window (where the lock's cover is), which the
    /// root window's tree does not list.
    func mappedTopLevels() -> [Window] {
        (children(of: root) + children(of: overlayWindow())).filter { window in
            var attributes = XWindowAttributes()
            return XGetWindowAttributes(display, window, &attributes) != 0 && attributes.map_state == IsViewable
        }
    }

    /// The Composite overlay window, asked for and let go at once (while the guard holds
    /// it, that changes nothing; otherwise it is mapped for that moment).
    func overlayWindow() -> Window {
        let overlay = XCompositeGetOverlayWindow(display, root)
        XCompositeReleaseOverlayWindow(display, overlay)
        XSync(display, 0)
        return overlay
    }

    /// The children of `window`, bottom to top.
    func children(of window: Window) -> [Window] {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &rootReturn, &parent, &children, &count) != 0 else { return [] }
        defer { if let children { XFree(children) } }
        return (0..<Int(count)).map { children![$0] }
    }

    /// A mapped override-redirect window at the top-left corner (a desktop window that
    /// raises itself, or a window to reparent into).
    func overrideRedirectWindow(width: UInt32 = 400, height: UInt32 = 300) -> Window {
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        let window = XCreateWindow(display, root, 0, 0, width, height, 0, 24, UInt32(InputOutput), nil, UInt(CWOverrideRedirect), &attributes)
        XMapRaised(display, window)
        XSync(display, 0)
        return window
    }

    /// XSendEvent of a primary-button press or release at root coordinates (x, y).
    func sendButton(to window: Window, mask: Int, press: Bool, x: Int, y: Int) {
        var event = XEvent()
        event.xbutton.type = press ? ButtonPress : ButtonRelease
        event.xbutton.window = window
        event.xbutton.root = root
        event.xbutton.x = Int32(x)
        event.xbutton.y = Int32(y)
        event.xbutton.x_root = Int32(x)
        event.xbutton.y_root = Int32(y)
        event.xbutton.button = UInt32(Button1)
        event.xbutton.same_screen = 1
        XSendEvent(display, window, 1, mask, &event)
        XSync(display, 0)
    }

    /// XSendEvent of a pointer motion to root coordinates (x, y).
    func sendMotion(to window: Window, mask: Int, x: Int, y: Int) {
        var event = XEvent()
        event.xmotion.type = MotionNotify
        event.xmotion.window = window
        event.xmotion.root = root
        event.xmotion.x = Int32(x)
        event.xmotion.y = Int32(y)
        event.xmotion.x_root = Int32(x)
        event.xmotion.y_root = Int32(y)
        event.xmotion.state = UInt32(Button1Mask)
        event.xmotion.same_screen = 1
        XSendEvent(display, window, 1, mask, &event)
        XSync(display, 0)
    }

    /// Whether XKB's MouseKeys control is on for the core keyboard.
    func mouseKeysEnabled() -> Bool {
        guard let xkb = XkbAllocKeyboard() else { return false }
        defer { XkbFreeKeyboard(xkb, 0, 1) }
        guard XkbGetControls(display, UInt(XkbAllControlsMask), xkb) == Success, let controls = xkb.pointee.ctrls else { return false }
        return controls.pointee.enabled_ctrls & UInt32(XkbMouseKeysMask) != 0
    }

    /// Creates a second master pointer and keyboard (what `xinput create-master NAME` does);
    /// returns their device ids.
    func addMaster(_ name: String) -> (pointer: Int32, keyboard: Int32)? {
        var info = XIAnyHierarchyChangeInfo()
        let cName = strdup(name)
        defer { free(cName) }
        info.add.type = XIAddMaster
        info.add.name = cName
        info.add.send_core = 1
        info.add.enable = 1
        guard XIChangeHierarchy(display, &info, 1) == Success else { return nil }
        XSync(display, 0)
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllMasterDevices, &count) else { return nil }
        defer { XIFreeDeviceInfo(devices) }
        var pointer: Int32?
        var keyboard: Int32?
        for i in 0..<Int(count) {
            let deviceName = String(cString: devices[i].name)
            if deviceName == "\(name) pointer" { pointer = devices[i].deviceid }
            if deviceName == "\(name) keyboard" { keyboard = devices[i].deviceid }
        }
        guard let pointer, let keyboard else { return nil }
        return (pointer, keyboard)
    }

    /// Tries to grab an XInput 2 device; releases it at once if it got it.
    func canGrabDevice(_ id: Int32) -> Bool {
        let got = grabDevice(id)
        if got { releaseDevice(id) }
        return got
    }

    /// Grabs an XInput 2 device and keeps it; whether that worked.
    func grabDevice(_ id: Int32) -> Bool {
        var bits: [UInt8] = [0, 0, 0, 0]
        let result = bits.withUnsafeMutableBufferPointer { buffer in
            var mask = XIEventMask(deviceid: id, mask_len: 4, mask: buffer.baseAddress)
            return XIGrabDevice(display, id, root, 0, 0, XIGrabModeAsync, XIGrabModeAsync, 0, &mask)
        }
        XSync(display, 0)
        return result == GrabSuccess
    }

    func releaseDevice(_ id: Int32) {
        XIUngrabDevice(display, id, 0)
        XSync(display, 0)
    }

    /// Listens for raw key presses from every master, as a key logger would.
    func selectRawKeyPresses() {
        var bits: [UInt8] = [0, 0, 0, 0]
        bits[Int(XI_RawKeyPress) >> 3] |= UInt8(1 << (Int(XI_RawKeyPress) & 7))
        bits.withUnsafeMutableBufferPointer { buffer in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: 4, mask: buffer.baseAddress)
            _ = XISelectEvents(display, root, &mask, 1)
        }
        XSync(display, 0)
    }

    /// Whether a core key press has arrived (reads the queue).
    func takeKeyPress() -> Bool {
        XSync(display, 0)
        var seen = false
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == KeyPress { seen = true }
        }
        return seen
    }

    /// Whether a raw key press has arrived (reads the queue).
    func takeRawKeyPress() -> Bool {
        var seen = false
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == GenericEvent && event.xcookie.evtype == XI_RawKeyPress { seen = true }
        }
        return seen
    }

    func windowClass(_ window: Window) -> (name: String, className: String)? {
        var hint = XClassHint()
        guard XGetClassHint(display, window, &hint) != 0 else { return nil }
        defer {
            XFree(hint.res_name)
            XFree(hint.res_class)
        }
        return (String(cString: hint.res_name), String(cString: hint.res_class))
    }

    func geometry(_ window: Window) -> (x: Int, y: Int, width: Int, height: Int) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, window, &attributes)
        return (Int(attributes.x), Int(attributes.y), Int(attributes.width), Int(attributes.height))
    }

    /// A property's raw bytes and format, or nil when the window has none of that type.
    private func property(_ window: Window, _ name: String, type: Atom) -> (bytes: [UInt8], format: Int32)? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, XInternAtom(display, name, 0), 0, 1024, 0, type, &actualType, &format, &count, &after, &data)
            == Success, let data
        else { return nil }
        defer { XFree(data) }
        // Xlib returns 32-bit items as longs.
        let size = format == 32 ? MemoryLayout<UInt>.size : Int(format) / 8
        return (Array(UnsafeBufferPointer(start: data, count: Int(count) * size)), format)
    }

    func utf8Property(_ window: Window, _ name: String) -> String? {
        property(window, name, type: XInternAtom(display, "UTF8_STRING", 0)).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// A 32-bit CARDINAL property's first value, or nil when the window has none.
    /// A 32-bit property's items, of any type (ATOM, CARDINAL, _MOTIF_WM_HINTS).
    func longsProperty(_ window: Window, _ name: String) -> [UInt] {
        guard let p = property(window, name, type: Atom(AnyPropertyType)), p.format == 32 else { return [] }
        return p.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt.self)) }
    }

    func atom(_ name: String) -> UInt { UInt(XInternAtom(display, name, 0)) }

    func cardinalProperty(_ window: Window, _ name: String) -> UInt? {
        guard let p = property(window, name, type: XA_CARDINAL), p.format == 32, !p.bytes.isEmpty else { return nil }
        return p.bytes.withUnsafeBytes { $0.load(as: UInt.self) }
    }

    /// Asks `window` to close as a window manager does (WM_DELETE_WINDOW).
    func requestClose(_ window: Window) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(XInternAtom(display, "WM_DELETE_WINDOW", 0))
        event.xclient.data.l.1 = 0
        XSendEvent(display, window, 0, 0, &event)
        XSync(display, 0)
    }
}
