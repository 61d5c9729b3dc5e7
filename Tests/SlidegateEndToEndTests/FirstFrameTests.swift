import CX11
import Glibc
import Testing

/// The slider's first frame kept between locks: the guard puts it on the screen while the
/// UI is still starting, and the UI keeps it up to date. A "slow" lock's UI is held back
/// (`HeldUI`), so what shows meanwhile is the guard's alone.
@Suite(.serialized) final class FirstFrameTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    /// Holds the cache and the FIFO.
    let directory: String
    let held: HeldUI

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        var template = Array("/tmp/slidegate-first-frame.XXXXXX".utf8CString)
        directory = String(cString: try #require(mkdtemp(&template)))
        held = try HeldUI(in: directory)
    }

    deinit {
        _ = system("rm -rf '\(directory)'")
    }

    var keptPath: String { directory + "/cache/slidegate/slider-600x80" }

    /// Locks with `extra` options; the UI waits for `startUI`.
    func slowLock(_ extra: [String] = []) throws -> Child {
        var environment = held.environment
        environment["XDG_CACHE_HOME"] = directory + "/cache"
        return try screen.slidegate(LockModeTests.arguments + extra, environment: environment)
    }

    func startUI() {
        held.release()
    }

    func unlock(_ gate: Child) {
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// The slider on the screen, each pixel 0xRRGGBB.
    func slider() -> [UInt32] {
        client.pixels(x: 100, y: 100, width: 600, height: 80) ?? []
    }

    /// The kept file: its header's checksum and its pixels as 0xRRGGBB.
    func kept() -> (checksum: UInt64, pixels: [UInt32])? {
        guard let bytes = try? readBytes(keptPath), bytes.count == 40 + 600 * 80 * 4 else { return nil }
        let checksum = bytes[32..<40].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let pixels = stride(from: 40, to: bytes.count, by: 4).map {
            UInt32(bytes[$0]) | UInt32(bytes[$0 + 1]) << 8 | UInt32(bytes[$0 + 2]) << 16
        }
        return (checksum, pixels)
    }

    /// Replaces the kept pixels with `colour` (0xRRGGBB); with `sealed`, the checksum is
    /// made to match, else the file is left damaged.
    func overwriteKept(with colour: UInt32, sealed: Bool) throws {
        var bytes = try readBytes(keptPath)
        for offset in stride(from: 40, to: bytes.count, by: 4) {
            for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: (colour | 0xff00_0000) >> (8 * UInt32(i))) }
        }
        if sealed {
            let sum = checksum(bytes[40...])
            for i in 0..<8 { bytes[32 + i] = UInt8(truncatingIfNeeded: sum >> (8 * UInt64(i))) }
        }
        try writeFile(keptPath, bytes)
    }

    @Test func theFrameKeptAtOneLockShowsAtTheNextBeforeItsUIStarts() throws {
        let first = try slowLock()
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(first.standardError)")
        sleep(seconds: 0.3)
        #expect(!thumbShown(at: 0), "nothing kept yet: the slider waits for the UI")
        startUI()
        #expect(eventually(within: 5) { kept() != nil }, "the UI keeps the slider at rest: \(first.standardError)")
        let frame = try #require(kept())
        #expect(frame.pixels == slider(), "what is kept is what the screen shows between sweeps")
        unlock(first)
        let inode = try #require(inodeNumber(keptPath))

        let second = try slowLock()
        #expect(eventually { covered() && thumbShown(at: 0) }, "\(second.standardError)")
        sleep(seconds: 0.3)
        #expect(slider() == frame.pixels, "the kept frame, whole, while the UI waits")
        startUI()
        // The UI comes to the slider at rest within a sweep and a pause, and checks it.
        sleep(seconds: 2.5)
        #expect(eventually { slider() == frame.pixels })
        #expect(inodeNumber(keptPath) == inode, "a kept frame that matches is not written again")
        unlock(second)
    }

    /// `--image desktop`: the frame is kept over the plain background — the very pixels a
    /// lock without the desktop keeps, with not one of the desktop's — and the next lock's
    /// guard shows it before its UI starts (the desktop follows it).
    @Test func theDesktopsLockKeepsItsFirstFrameWithoutTheDesktop() throws {
        let plain = try slowLock()
        startUI()
        #expect(eventually(within: 5) { kept() != nil }, "\(plain.standardError)")
        let frame = try #require(kept())
        unlock(plain)
        let inode = try #require(inodeNumber(keptPath))
        // A red desktop, which the lock blurs.
        XSetWindowBackground(client.display, client.root, 0xff0000)
        XClearWindow(client.display, client.root)
        XSync(client.display, 0)

        let desktop = ["--image", "desktop", "--blur", "10"]
        let first = try slowLock(desktop)
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(first.standardError)")
        startUI()
        #expect(eventually(within: 5) { client.pixel(50, 250) == (255, 0, 0) }, "the desktop shows: \(first.standardError)")
        #expect(eventually(within: 5) { inodeNumber(keptPath) != inode }, "the frame is kept for these settings")
        #expect(kept()?.pixels == frame.pixels, "kept over the plain background, as without the desktop")
        unlock(first)

        let second = try slowLock(desktop)
        #expect(eventually { covered() && thumbShown(at: 0) }, "\(second.standardError)")
        sleep(seconds: 0.3)
        #expect(slider() == frame.pixels, "the kept frame, whole, while the UI waits")
        startUI()
        unlock(second)
    }

    /// The locking notice shows once the guard waits for a grab, past the point where it
    /// starts the UI early.
    @Test func theUIStartsBeforeTheLockOnlyWhenNoFrameIsKept() throws {
        #expect(XGrabKeyboard(client.display, client.root, 0, GrabModeAsync, GrabModeAsync, 0) == GrabSuccess)
        XSync(client.display, 0)
        let cold = try slowLock()
        #expect(eventually { lockingNoticeShown() }, "\(cold.standardError)")
        #expect(uiChild(of: cold.pid) != nil && !covered(), "nothing kept: the UI started before the guard waited for the grab")
        XUngrabKeyboard(client.display, 0)
        XSync(client.display, 0)
        startUI()
        #expect(eventually(within: 5) { kept() != nil }, "\(cold.standardError)")
        unlock(cold)

        #expect(XGrabKeyboard(client.display, client.root, 0, GrabModeAsync, GrabModeAsync, 0) == GrabSuccess)
        XSync(client.display, 0)
        let warm = try slowLock()
        #expect(eventually { lockingNoticeShown() }, "\(warm.standardError)")
        #expect(uiChild(of: warm.pid) == nil && !covered(), "a kept frame: the UI starts once the screen is locked")
        XUngrabKeyboard(client.display, 0)
        XSync(client.display, 0)
        #expect(eventually { covered() && thumbShown(at: 0) && uiChild(of: warm.pid) != nil }, "\(warm.standardError)")
        startUI()
        unlock(warm)
    }

    /// With nothing kept the UI starts before the guard reads the PIN file or connects; a
    /// guard that then cannot lock says why in one line and leaves no UI behind.
    @Test func aGuardThatFailsAfterStartingItsUIEarlySaysWhyAloneAndEndsIt() throws {
        let missing = directory + "/no-such-pin"
        let gate = try screen.slidegate(
            LockModeTests.arguments + ["--auth", "pin", "--pin-file", missing], environment: ["XDG_CACHE_HOME": directory + "/cache"])
        #expect(gate.wait() == 2)
        #expect(gate.standardError.hasPrefix("slidegate: PIN file \(missing): "), "\(gate.standardError)")
        #expect(gate.standardError.filter { $0 == "\n" }.count == 1, "one line, the guard's: \(gate.standardError)")
        #expect(lockUIs(withCache: directory + "/cache").isEmpty, "the UI started early is gone")
    }

    @Test func aKeptFrameThatNoLongerMatchesIsShownOnceThenWrittenAnewAndADamagedOneNotAtAll() throws {
        let first = try slowLock()
        startUI()
        #expect(eventually(within: 5) { kept() != nil }, "\(first.standardError)")
        let frame = try #require(kept())
        unlock(first)

        // As if the fonts changed since: the file is whole, its frame is not the UI's.
        try overwriteKept(with: 0xff0000, sealed: true)
        let stale = try slowLock()
        #expect(eventually { client.pixel(400, 140) == (255, 0, 0) }, "the guard shows what was kept: \(stale.standardError)")
        startUI()
        #expect(eventually(within: 5) { kept()?.pixels == frame.pixels }, "the UI writes the frame it painted")
        #expect(eventually { slider() == frame.pixels })
        unlock(stale)

        try overwriteKept(with: 0x00ff00, sealed: false)
        let damaged = try slowLock()
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(damaged.standardError)")
        sleep(seconds: 0.3)
        #expect(client.pixel(400, 140) != (0, 255, 0) && !thumbShown(at: 0), "a damaged file shows nothing")
        startUI()
        #expect(eventually(within: 5) { kept()?.pixels == frame.pixels }, "and is written anew")
        unlock(damaged)
    }
}

/// The lock-mode UIs running with `cache` as their XDG_CACHE_HOME.
private func lockUIs(withCache cache: String) -> [pid_t] {
    guard let proc = opendir("/proc") else { return [] }
    defer { closedir(proc) }
    var found: [pid_t] = []
    while let entry = readdir(proc) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let pid = pid_t(name), executable(of: pid).hasSuffix("/slidegate-ui"),
            let environment = try? readBytes("/proc/\(pid)/environ")
        else { continue }
        if environment.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == "XDG_CACHE_HOME=" + cache }) {
            found.append(pid)
        }
    }
    return found
}

/// The kept file's checksum: FNV-1a over little-endian 64-bit words, then the bytes left
/// over; never 0.
private func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    let words = bytes.count / 8
    let base = bytes.startIndex
    for w in 0..<words {
        let word = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[base + w * 8 + $1]) << (8 * UInt64($1)) }
        h = (h ^ word) &* 0x100_0000_01b3
    }
    for byte in bytes[(base + words * 8)...] { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return h == 0 ? 1 : h
}

private func inodeNumber(_ path: String) -> UInt? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt(info.st_ino) : nil
}
