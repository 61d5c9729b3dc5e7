import CX11
import Glibc
import Testing

/// `--speak`: what a lock says, recorded by a stand-in speech-dispatcher (SSIP over a Unix
/// socket, in Python) that answers as the real one does and writes down each text; and a
/// smoke test with the real daemon, started by the test with no sound card.
@Suite(.serialized) struct SpeechTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: MatrixPam
    let scratch: Scratch
    /// Neither shares two characters in a row with anything the lock says in English.
    static let password = "Qz7Xj9w"
    static let wrong = "Vk8Jq4"

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try MatrixPam(password: Self.password)
        scratch = try Scratch()
    }

    /// The stand-in: every command answered with success, SPEAK's data written to the log
    /// as one "SAID text" line.
    static let standIn = #"""
        import os, socket, sys
        path, log = sys.argv[1], sys.argv[2]
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(4)
        out = open(log, "a", buffering=1)
        while True:
            conn, _ = server.accept()
            f = conn.makefile("rb")
            data, text = False, []
            while True:
                line = f.readline()
                if not line:
                    break
                line = line.decode("utf-8", "replace").rstrip("\r\n")
                if data:
                    if line == ".":
                        data = False
                        out.write("SAID " + " ".join(text) + "\n")
                        text = []
                        conn.sendall(b"225-1\r\n225 OK MESSAGE QUEUED\r\n")
                    else:
                        text.append(line[1:] if line.startswith("..") else line)
                elif line.upper() == "SPEAK":
                    data = True
                    conn.sendall(b"230 OK RECEIVING DATA\r\n")
                elif line.upper() == "QUIT":
                    conn.sendall(b"231 HAPPY HACKING\r\n")
                    break
                else:
                    conn.sendall(b"200 OK\r\n")
            conn.close()
        """#

    var socketPath: String { scratch.path + "/speechd.sock" }
    var logPath: String { scratch.path + "/said" }

    func startStandIn() throws -> Child {
        let script = scratch.path + "/ssip.py"
        let f = fopen(script, "w")!
        fputs(Self.standIn, f)
        fclose(f)
        let server = try Child("/usr/bin/python3", [script, socketPath, logPath])
        #expect(eventually(within: 5) { access(socketPath, F_OK) == 0 }, "the stand-in listens")
        return server
    }

    func said() -> [String] {
        contents(of: logPath).split(separator: "\n").compactMap { $0.hasPrefix("SAID ") ? String($0.dropFirst(5)) : nil }
    }

    func lockSpeaking(_ extra: [String] = []) throws -> Child {
        let environment = pam.environment.merging(["SPEECHD_ADDRESS": "unix_socket:" + socketPath]) { $1 }
        return try lock(["--auth", "pam", "--speak"] + extra, environment: environment)
    }

    @Test func theLockSaysWhatItShowsAndNeverThePassword() throws {
        let server = try startStandIn()
        defer { server.signal(SIGKILL) }
        let gate = try lockSpeaking()
        #expect(eventually(within: 5) { said().contains("screen locked. slide to unlock") }, "\(said())")
        client.type(Self.wrong, enter: false)
        #expect(eventually { said().contains("Password: ") }, "the prompt: \(said())")
        #expect(eventually { said().contains("characters typed: \(Self.wrong.count)") }, "how much was typed: \(said())")
        client.key(0xff0d)
        #expect(eventually { said().contains("wrong password") }, "the refusal's banner: \(said())")
        sleep(seconds: 1.2)
        client.key(0xffe5)
        #expect(eventually { said().contains("Caps Lock is on") }, "\(said())")
        client.key(0xffe5)
        client.type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(eventually { said().contains("unlocked") }, "the last words: \(said())")
        for secret in [Self.password, Self.wrong] {
            let pieces = (0..<secret.count - 1).map { String(secret.dropFirst($0).prefix(2)) }
            for text in said() {
                #expect(!pieces.contains { text.contains($0) }, "\"\(text)\" has a piece of \(secret)")
            }
        }
    }

    /// Every ten seconds (`AnnouncementTests`): the first, 2 s in.
    @Test func theSecondsLeftAreSaid() throws {
        let server = try startStandIn()
        defer { server.signal(SIGKILL) }
        let gate = try lockSpeaking(["--timeout", "22"])
        #expect(eventually(within: 5) { said().contains("seconds left: 20") }, "\(said())")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func aKioskStripSaysItsLabelAndItsSecondsLeft() throws {
        let server = try startStandIn()
        defer { server.signal(SIGKILL) }
        let gate = try screen.slidegate(
            ["--geometry", "600x80+100+100", "--text", "slide to cancel shutdown", "--timeout", "12", "--speak"],
            environment: ["SPEECHD_ADDRESS": "unix_socket:" + socketPath])
        #expect(eventually(within: 5) { said().contains("slide to cancel shutdown") }, "\(said())")
        #expect(eventually(within: 5) { said().contains("seconds left: 10") }, "\(said())")
        #expect(!said().contains { $0.contains("screen locked") }, "a window is no lock")
        gate.signal(SIGTERM)
        #expect(gate.wait() == 143)
    }

    @Test func noServerIsSilenceAndANoteFromCheck() throws {
        let gate = try lock(["--speak"], environment: ["SPEECHD_ADDRESS": "unix_socket:" + socketPath])
        sleep(seconds: 1)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0)
        #expect(!gate.standardError.contains("speech"), "nothing said about it: \(gate.standardError)")
        let output = scratch.path + "/report"
        let check = try screen.slidegate(
            ["--check", "--speak"], environment: ["SPEECHD_ADDRESS": "unix_socket:" + socketPath], stdout: output)
        _ = check.wait(timeout: 30)
        let report = contents(of: output)
        #expect(report.split(separator: "\n").contains { $0.contains("note") && $0.contains("speech") && $0.contains("--speak would be silent") }, "\(report)")
    }

    @Test func theRealSpeechDispatcherAcceptsWhatTheLockSays() throws {
        let home = scratch.path + "/home"
        mkdir(home, 0o700)
        // Debian's configuration, speaking to ALSA's null device: no sound card, and the
        // daemon finishes each message as it would aloud.
        let configuration = scratch.path + "/configuration"
        #expect(try Child("/bin/cp", ["-r", "/etc/speech-dispatcher", configuration]).wait() == 0)
        let f = fopen(configuration + "/speechd.conf", "a")!
        fputs("AudioOutputMethod \"alsa\"\nAudioALSADevice \"null\"\n", f)
        fclose(f)
        let daemon = try Child(
            "/usr/bin/speech-dispatcher",
            [
                "-s", "-t", "0", "-l", "5", "-C", configuration, "-c", "unix_socket", "-S", socketPath, "-L", scratch.path, "-P",
                scratch.path + "/pid",
            ],
            environment: ["HOME": home, "XDG_RUNTIME_DIR": home, "XDG_CONFIG_HOME": home])
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.wait(timeout: 5)
        }
        #expect(eventually(within: 10) { access(socketPath, F_OK) == 0 }, "the daemon listens")
        let log = scratch.path + "/speech-dispatcher.log"
        let gate = try lockSpeaking()
        #expect(
            eventually(within: 10) { contents(of: log).contains("Queueing message |screen locked. slide to unlock|") },
            "the daemon queued the lock's first words")
        client.type(Self.password, enter: false)
        #expect(eventually(within: 5) { contents(of: log).contains("Queueing message |Password: |") }, "and the prompt")
        client.key(0xff0d)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(!contents(of: log).contains(Self.password))
    }
}
