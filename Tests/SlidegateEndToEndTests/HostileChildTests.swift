import CX11
import Glibc
import Testing

/// The guard against drawing programs and authentication helpers that speak the protocol
/// and misbehave: numbers that are no numbers, rectangles past any window, counts past their
/// frame, garbage after a valid frame, messages before the hello, answers nobody asked for,
/// floods. Each stand-in is a small C program in place of slidegate-ui or slidegate-auth;
/// the lock holds every time, and a slide (and the password) still opens it afterwards.
@Suite(.serialized) struct HostileChildTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
    }

    @Test(arguments: ["nan", "infinite", "huge", "unasked", "garbage", "before-hello", "huge-count", "flood"], ["none", "pam", "pin", "pin,pam"])
    func aHostileDrawingProgramCannotOpenOrKillTheLock(mode: String, auth: String) throws {
        let stand = try StandIn(replacing: "slidegate-ui", source: StandIn.hostileUI)
        let pam = try PamStack()
        var environment = pam.environment
        environment["SLIDEGATE_TEST_HOSTILE"] = mode
        var extra = ["--auth", auth]
        if auth.hasPrefix("pin") { extra += ["--pin-file", try Self.pinFile(in: stand.directory)] }
        let gate = try screen.slidegate(LockModeTests.arguments + extra, environment: environment, program: stand.directory + "/slidegate")
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(gate.standardError)")
        if ["nan", "infinite", "huge"].contains(mode) {
            // The guard lends the slider only to a UI that said it has drawn: the stand-in
            // runs, and its first words have had time to arrive.
            #expect(eventually(within: 10) { FailClosedTests.uiPid(of: gate.pid) != nil }, "the stand-in runs")
            sleep(seconds: 0.3)
        }
        // A press on the thumb asks the stand-in for the slider's parts.
        client.drag(from: (140, 140), to: (400, 140), release: false)
        sleep(seconds: 0.3)
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "\(mode), --auth \(auth): still locked: \(gate.standardError)")
        client.drag(from: (400, 140), to: (1000, 140))
        switch auth {
        case "none": break
        case "pin":
            // The slide checked the wheels' random digits; the PIN typed on them opens.
            sleep(seconds: 1.2)
            #expect(gate.isRunning, "a slide alone does not open --auth pin")
            client.type(Self.pin)
        default:
            // pin,pam: the slide checked the wheels and was refused, which holds keys back a second.
            sleep(seconds: 1.2)
            #expect(gate.isRunning, "a slide alone does not open --auth \(auth)")
            client.type(AuthTests.password)
        }
        #expect(gate.wait(timeout: 8) == 0, "\(mode), --auth \(auth): the guard's own gate still opens: \(gate.standardError)")
        if ["nan", "infinite", "huge", "garbage", "huge-count", "before-hello"].contains(mode) {
            #expect(gate.standardError.contains("slidegate: the slider's drawing program sent a malformed message"), "\(gate.standardError)")
        }
    }

    static let pin = "2580"

    /// A PIN file for `pin`, made with mkpasswd (yescrypt), in `directory`.
    static func pinFile(in directory: String) throws -> String {
        let hash = directory + "/hash"
        let made = try Child("/usr/bin/mkpasswd", ["-m", "yescrypt", pin], stdout: hash)
        try #require(made.wait() == 0, "mkpasswd: \(made.standardError)")
        let path = directory + "/pin"
        guard let f = fopen(path, "we") else { throw Child.SpawnError(path: path, code: errno) }
        fputs("\(pin.count) " + contents(of: hash), f)
        fclose(f)
        chmod(path, 0o600)
        return path
    }

    @Test(arguments: ["garbage", "huge-count", "flood", "unasked", "before-hello"])
    func aHostileHelperCannotOpenOrKillTheLock(mode: String) throws {
        let pam = try PamStack()
        let stand = try StandIn(replacing: "slidegate-auth", source: StandIn.hostileHelper)
        var environment = pam.environment
        environment["SLIDEGATE_TEST_HOSTILE"] = mode
        let gate = try screen.slidegate(
            LockModeTests.arguments + ["--auth", "pam"], environment: environment, program: stand.directory + "/slidegate")
        #expect(eventually { covered() && !client.canGrabKeyboard() } || gate.poll() == 2, "\(mode): \(gate.standardError)")
        guard gate.isRunning else {
            // A helper that does not answer its handshake is refused before anything locks.
            #expect(gate.standardError.contains("--auth: the authentication helper"), "\(gate.standardError)")
            #expect(client.canGrabKeyboard())
            return
        }
        client.type(AuthTests.password)
        sleep(seconds: 0.5)
        client.type(AuthTests.password)
        sleep(seconds: 0.5)
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "\(mode): still locked: \(gate.standardError)")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143, "\(mode): \(gate.standardError)")
    }
}

/// slidegate and its helpers copied into a directory of their own, with one of them
/// replaced by a stand-in compiled from C.
final class StandIn {
    let directory: String
    let replaced: String

    init(replacing name: String, source: String) throws {
        var template = Array("/tmp/slidegate-standin.XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw Child.SpawnError(path: "mkdtemp", code: errno) }
        directory = String(cString: dir)
        replaced = name
        let path = directory + "/standin.c"
        guard let f = fopen(path, "we") else { throw Child.SpawnError(path: path, code: errno) }
        fputs(StandIn.common + source, f)
        fclose(f)
        let cc = try Child("/usr/bin/cc", ["-O1", "-o", directory + "/" + name, path, "-lm"])
        guard cc.wait(timeout: 30) == 0 else { throw Child.SpawnError(path: "cc: \(cc.standardError)", code: EIO) }
        let built = String(slidegatePath.dropLast("slidegate".count))
        for other in ["slidegate", "slidegate-ui", "slidegate-auth"] where other != name {
            guard copyFile(built + other, directory + "/" + other) else { throw Child.SpawnError(path: "copy \(other)", code: EIO) }
            chmod(directory + "/" + other, 0o755)
        }
    }

    deinit {
        for name in ["slidegate", "slidegate-ui", "slidegate-auth", "standin.c", "hash", "pin"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    /// Framing (Framing.swift): a little-endian u32 length, then the body.
    static let common = """
        #include <fcntl.h>
        #include <math.h>
        #include <stdint.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        static const char *mode;
        static int is(const char *m) { return strcmp(mode, m) == 0; }
        static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
        static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
        static void putf(uint8_t *p, double d) { uint64_t v; memcpy(&v, &d, 8); put64(p, v); }
        static int frame(const uint8_t *body, uint32_t n) {
            uint8_t head[4];
            put32(head, n);
            return write(3, head, 4) == 4 && write(3, body, n) == (ssize_t)n;
        }
        static void hello(uint32_t version) {
            uint8_t b[32] = {1};
            put32(b + 1, version);
            put32(b + 5, 7);
            memcpy(b + 9, "hostile", 7);
            frame(b, 16);
        }
        /* A hello whose string says 4 GiB follow, in a frame of 16 bytes. */
        static void hugeCount(uint32_t version) {
            uint8_t b[16] = {1};
            put32(b + 1, version);
            put32(b + 5, 0xfffffff0u);
            frame(b, 16);
        }
        static void garbage(void) {
            const uint8_t junk[] = {3, 0, 0, 0, 0xee, 1, 2, 0xff, 0xff, 0xff, 0xff, 9};
            if (write(3, junk, sizeof junk) < 0) exit(1);
        }
        /* Reads one frame into body; its length, or -1 once the guard is gone. */
        static int next(uint8_t *body, uint32_t room) {
            uint8_t head[4];
            if (read(3, head, 4) != 4) return -1;
            uint32_t n = head[0] | head[1] << 8 | head[2] << 16 | (uint32_t)head[3] << 24;
            uint32_t done = 0;
            while (done < n) {
                ssize_t r = read(3, body + (done < room ? done : 0), done < room ? (n - done < room - done ? n - done : room - done) : (n - done < room ? n - done : room));
                if (r <= 0) return -1;
                done += (uint32_t)r;
            }
            return (int)n;
        }

        """

    static let hostileUI = """
        static void drawn(void) { uint8_t b[1] = {9}; frame(b, 1); }
        static void pong(const uint8_t *seq) { uint8_t b[5] = {10}; memcpy(b + 1, seq, 4); frame(b, 5); }
        static void lent(double x, double y, uint32_t w, uint32_t h, double alpha) {
            uint8_t b[66];
            int i = 0;
            b[i++] = 11;
            put64(b + i, 1); i += 8;
            put64(b + i, 2); i += 8;
            b[i++] = 1;
            put64(b + i, 3); i += 8;
            putf(b + i, x); i += 8;
            putf(b + i, y); i += 8;
            put32(b + i, w); i += 4;
            put32(b + i, h); i += 4;
            putf(b + i, alpha); i += 8;
            putf(b + i, 1.0); i += 8;
            frame(b, (uint32_t)i);
        }
        int main(void) {
            mode = getenv("SLIDEGATE_TEST_HOSTILE");
            if (!mode) mode = "";
            if (is("before-hello")) drawn();
            if (is("huge-count")) hugeCount(10); else hello(10);  /* GuardProtocol.version */
            if (!is("before-hello")) drawn();
            if (is("garbage")) garbage();
            if (is("unasked")) lent(0, 0, 600, 80, 0.5);
            if (is("flood")) {
                fcntl(3, F_SETFL, O_NONBLOCK);
                uint8_t seq[4] = {0};
                for (long i = 0; i < 2000000; i++) pong(seq);
                fcntl(3, F_SETFL, 0);
            }
            uint8_t body[65536];
            int n;
            while ((n = next(body, sizeof body)) >= 0) {
                if (n >= 5 && body[0] == 8) pong(body + 1);
                if (n >= 1 && body[0] == 16) {
                    if (is("nan")) lent(100, 20, 300, 40, NAN);
                    else if (is("infinite")) lent(INFINITY, -INFINITY, 300, 40, 1);
                    else if (is("huge")) lent(-3e9, 20, 4000000000u, 40, 1);
                    else lent(100, 20, 300, 40, 1);
                }
            }
            return 0;
        }

        """

    /// The helper's protocol (AuthProtocol.swift): hello is kind 1, begin 2, prompt 5,
    /// notice 6, verdict 7.
    static let hostileHelper = """
        static void prompt(void) {
            uint8_t b[16] = {5, 0};
            put32(b + 2, 9);
            memcpy(b + 6, "Password:", 9);
            frame(b, 15);
        }
        static void granted(void) { uint8_t b[3] = {7, 1, 0}; frame(b, 3); }
        int main(void) {
            mode = getenv("SLIDEGATE_TEST_HOSTILE");
            if (!mode) mode = "";
            if (is("before-hello")) granted();
            if (is("huge-count")) { hugeCount(2); } else hello(2);
            /* A yes nobody asked for, outside any transaction, and no exit 42 behind it. */
            if (is("unasked")) granted();
            uint8_t body[65536];
            int n;
            while ((n = next(body, sizeof body)) >= 0) {
                if (n >= 1 && body[0] == 2) {
                    if (is("garbage")) garbage();
                    else if (is("flood")) { fcntl(3, F_SETFL, O_NONBLOCK); for (long i = 0; i < 2000000; i++) prompt(); fcntl(3, F_SETFL, 0); }
                    else prompt();
                }
                if (n >= 1 && body[0] == 3) { uint8_t refused[3] = {7, 0, 0}; frame(refused, 3); }
            }
            return 0;
        }

        """
}
