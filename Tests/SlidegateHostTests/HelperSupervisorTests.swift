import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateHost
import SlidegateSystem
import Testing

/// The helper supervisor that `AuthSession` and `PassiveMethod` share, without an X server or
/// PAM: stand-in helpers (shell scripts that write prepared replies to their socket, fd 3)
/// and the real slidegate-auth beside the test bundle.
@Suite struct HelperSupervisorTests {
    /// A helper, compiled from C, that writes `greeting` to its socket (fd 3), a moment
    /// later `replies` (what comes with the hello is not read), then runs the C statements
    /// `then`.
    func standIn(greeting: [AuthReply] = [hello], _ replies: [AuthReply], then: String = "sleep(5); return 0;") throws
        -> (HelperSupervisor, cleanUp: () -> Void)
    {
        let (program, cleanUp) = try Self.standInProgram(greeting: greeting, replies, then: then)
        return (HelperSupervisor(program, name: "the stand-in helper"), cleanUp)
    }

    /// The stand-in helper's program.
    static func standInProgram(greeting: [AuthReply] = [hello], _ replies: [AuthReply], then: String = "sleep(5); return 0;") throws
        -> (Executable, cleanUp: () -> Void)
    {
        var template = Array("/tmp/slidegate-standin-helper.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        let greetingFrames = directory + "/greeting"
        let frames = directory + "/replies"
        let source = directory + "/helper.c"
        let program = directory + "/helper"
        #expect(Self.write(file: greetingFrames, greeting.flatMap(\.frame)) && Self.write(file: frames, replies.flatMap(\.frame)))
        let code = """
            #include <stdio.h>
            #include <unistd.h>
            static int pass(const char *path) {
                static char bytes[65536];
                FILE *f = fopen(path, "rb");
                size_t n = f ? fread(bytes, 1, sizeof bytes, f) : 0;
                return n == 0 || write(3, bytes, n) == (ssize_t)n;
            }
            int main(void) {
                if (!pass("\(greetingFrames)")) return 3;
                usleep(200000);
                if (!pass("\(frames)")) return 3;
                \(then)
            }
            """
        #expect(Self.write(file: source, Array(code.utf8)))
        let cc = try Executable("/usr/bin/cc").start(["-O1", "-o", program, source], descriptors: [:])
        let limit = boottimeNow() + 30
        while cc.poll() == nil && boottimeNow() < limit { usleep(10_000) }
        #expect(cc.exit == .exited(0), "cc: \(String(describing: cc.exit))")
        return (try Executable(program), { [greetingFrames, frames, source, program, directory] in
            for file in [greetingFrames, frames, source, program] { unlink(file) }
            rmdir(directory)
        })
    }

    static func write(file path: String, _ bytes: [UInt8]) -> Bool {
        guard let f = fopen(path, "w") else { return false }
        defer { fclose(f) }
        return fwrite(bytes, 1, bytes.count, f) == bytes.count
    }

    static let hello = AuthReply.hello(protocol: AuthProtocol.version, build: Options.version)

    /// What `read` finds within `seconds`: the first reading that is not an empty one.
    func reading(_ supervisor: HelperSupervisor, within seconds: Double = 5) -> HelperSupervisor.Reading? {
        let limit = boottimeNow() + seconds
        while boottimeNow() < limit {
            switch supervisor.read() {
            case .replies(let replies) where replies.isEmpty: usleep(10_000)
            case let found: return found
            }
        }
        return .replies([])
    }

    /// The real helper greets, and its socket is there to watch; killed, it is gone, and
    /// how it ended is said.
    @Test func theRealHelperGreetsAndAKilledOneIsGoneWithHowItEnded() throws {
        let supervisor = HelperSupervisor(try Executable(GateHostTests.helperPath), name: "the authentication helper")
        try supervisor.start()
        #expect(supervisor.isRunning && supervisor.descriptor != nil)
        let pid = try #require(supervisor.processID)
        try supervisor.start()
        #expect(supervisor.processID == pid, "a running helper is kept")
        kill(pid, SIGKILL)
        guard case .ended(let how)? = reading(supervisor) else {
            Issue.record("the helper's end was not read")
            return
        }
        #expect(how == "signal 9")
        #expect(!supervisor.isStarted && supervisor.descriptor == nil)
        try supervisor.start()
        #expect(supervisor.isRunning && supervisor.processID != pid, "a new helper starts")
    }

    @Test func aHelperThatNeverGreetsIsRefused() throws {
        let (supervisor, cleanUp) = try standIn(greeting: [], [], then: "return 0;")
        defer { cleanUp() }
        #expect(throws: SystemError.self) { try supervisor.start() }
        #expect(!supervisor.isStarted)
    }

    @Test func aHelperOfAnotherProtocolIsRefused() throws {
        let (supervisor, cleanUp) = try standIn(greeting: [.hello(protocol: AuthProtocol.version + 1, build: "old")], [])
        defer { cleanUp() }
        #expect(throws: SystemError.self) { try supervisor.start() }
    }

    @Test func aSecondHelloIsMalformed() throws {
        let (supervisor, cleanUp) = try standIn([.notice(error: false, text: "Place your finger"), Self.hello])
        defer { cleanUp() }
        try supervisor.start()
        guard case .malformed? = reading(supervisor) else {
            Issue.record("a second hello was taken")
            return
        }
        #expect(!supervisor.isStarted, "a helper that broke the protocol is gone")
    }

    /// A granted verdict counts only when the helper then exits with the granted status.
    @Test(arguments: [(42, true), (0, false), (1, false)])
    func aGrantedVerdictCountsOnlyWithTheGrantedStatus(status: Int32, counts: Bool) throws {
        let (supervisor, cleanUp) = try standIn([.verdict(.granted, message: nil)], then: "return \(status);")
        defer { cleanUp() }
        try supervisor.start()
        guard case .replies(let replies)? = reading(supervisor), replies == [.verdict(.granted, message: nil)] else {
            Issue.record("the verdict was not read")
            return
        }
        #expect(supervisor.endedGranted() == counts)
        #expect(!supervisor.isStarted)
    }

    @Test func aHelperThatEndsIsReapedWithItsExit() throws {
        let (supervisor, cleanUp) = try standIn([])
        defer { cleanUp() }
        try supervisor.start()
        #expect(supervisor.reap() == nil, "still running")
        kill(try #require(supervisor.processID), SIGTERM)
        let limit = boottimeNow() + 5
        while supervisor.exit == nil && boottimeNow() < limit { usleep(10_000) }
        #expect(supervisor.reap() == .killed(signal: SIGTERM))
        #expect(!supervisor.isStarted)
    }
}
