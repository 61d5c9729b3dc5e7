import CX11
import Glibc
import Testing

/// `fingerprint` and `key` in `--auth` beside the password, with real PAM stacks under
/// pam_wrapper: the "reader" is a script pam_exec runs, which waits for the test to write
/// `match` or `nomatch` into a file, as a finger on a reader would answer.
@Suite(.serialized) struct MethodTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: PamStack
    let reader: FingerReader

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try PamStack()
        reader = try FingerReader(in: pam)
    }

    func lockWith(_ methods: String, _ extra: [String] = []) throws -> Child {
        var arguments = ["--auth", methods]
        if methods.contains("pam") { arguments += ["--pam-service", "slidegate"] }
        if methods.contains("fingerprint") { arguments += ["--fingerprint-service", "finger"] }
        return try lock(arguments + extra, environment: pam.environment)
    }

    @Test func aFingerOpensTheLockWhileAPasswordIsHalfTyped() throws {
        let gate = try lockWith("pam,fingerprint")
        #expect(eventually { reader.isWaiting }, "the reader runs from the moment the lock is up: \(gate.standardError)")
        client.type("s3c", enter: false)
        #expect(eventually { stageOpen() })
        reader.answer("match")
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(client.canGrabKeyboard())
    }

    @Test func thePasswordOpensTheLockWhileTheReaderStillWaits() throws {
        let gate = try lockWith("pam,fingerprint")
        #expect(eventually { reader.isWaiting })
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() })
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(eventually { !reader.isWaiting }, "the reader's helper ended with the lock")
    }

    @Test func aMatchBeforeTheSlideIsHeldAndTheSlideAloneThenOpens() throws {
        let gate = try lockWith("pam,fingerprint")
        #expect(eventually { reader.isWaiting })
        reader.answer("match")
        #expect(eventually { infoBannerShows() }, "fingerprint recognised — slide to unlock")
        #expect(gate.isRunning && !client.canGrabKeyboard(), "not before the slide")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "no password asked: \(gate.standardError)")
    }

    @Test func windowedModeRunsTheReaderToo() throws {
        let gate = try screen.slidegate(
            WindowedModeTests.geometry + ["--auth", "pam,fingerprint", "--pam-service", "slidegate", "--fingerprint-service", "finger"],
            environment: pam.environment)
        #expect(eventually { client.thumbShown(at: 0, threshold: 70) }, "the window: \(gate.standardError)")
        #expect(eventually { reader.isWaiting }, "the reader runs beside the window's password")
        reader.answer("match")
        sleep(seconds: 0.3)
        #expect(gate.isRunning, "a match before the slide is held, not a pass")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "the slide alone then passes: \(gate.standardError)")
    }

    @Test func aNoMatchSaysSoAndTheReaderTriesAgain() throws {
        let gate = try lockWith("fingerprint")
        #expect(eventually { reader.isWaiting })
        reader.answer("nomatch")
        #expect(eventually { infoBannerShows() }, "PAM's text: Failed to match fingerprint")
        #expect(eventually(within: 5) { reader.isWaiting }, "a new attempt started by itself: \(gate.standardError)")
        #expect(gate.isRunning && !client.canGrabKeyboard() && covered(), "still locked")
        client.drag(from: (140, 140), to: (1000, 140))
        sleep(seconds: 0.5)
        #expect(gate.isRunning, "the slide alone does not open")
        reader.answer("match")
        #expect(gate.wait() == 0, "a match after the slide opens at once: \(gate.standardError)")
        #expect(!gate.standardError.contains("--auth fingerprint:"), "a no-match is no trouble: \(gate.standardError)")
    }

    @Test func bothRefusedTheLockHolds() throws {
        let gate = try lockWith("pam,fingerprint")
        #expect(eventually { reader.isWaiting })
        reader.answer("nomatch")
        client.type("wrong")
        // PAM's "Failed to match fingerprint" may hold the banner strip: the refusal is
        // counted below, in the summary.
        sleep(seconds: 1.5)
        #expect(gate.isRunning && !client.canGrabKeyboard() && covered(), "still locked")
        #expect(eventually { reader.isWaiting }, "the reader tries again")
        reader.answer("match")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(gate.standardError.contains("slidegate: 2 failed attempts since "), "both counted: \(gate.standardError)")
    }

    @Test func killingTheReadersHelperOnlyRestartsIt() throws {
        let gate = try lockWith("fingerprint")
        #expect(eventually { reader.isWaiting })
        let helper = try #require(AuthTests.helperPid(of: gate.pid))
        kill(helper, SIGKILL)
        #expect(eventually { gate.standardError.contains("--auth fingerprint: its authentication helper ended") }, "\(gate.standardError)")
        #expect(gate.isRunning && !client.canGrabKeyboard() && covered(), "still locked")
        #expect(
            eventually(within: 5) { AuthTests.helperPid(of: gate.pid).map { $0 != helper } ?? false && reader.isWaiting },
            "another helper waits for a finger")
        reader.answer("match")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// The reader is left alone for `quietFor` seconds and no attempt starts; the person's
    /// next input starts one, and a match with the slide then opens the lock.
    func waitsForThePersonThenOpens(_ gate: Child, quietFor seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        sleep(seconds: seconds)
        #expect(!reader.isWaiting, "no new attempt without the person", sourceLocation: sourceLocation)
        client.move(300, 300)
        #expect(eventually { reader.isWaiting }, "the next input starts it again", sourceLocation: sourceLocation)
        reader.answer("match")
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)", sourceLocation: sourceLocation)
    }

    @Test func aReaderThatTimesOutWaitsForThePersonBeforeTryingAgain() throws {
        let gate = try lockWith("fingerprint")
        #expect(eventually { reader.isWaiting })
        reader.answer("timeout")
        #expect(eventually { gate.standardError.contains("--auth fingerprint: PAM refused") }, "\(gate.standardError)")
        waitsForThePersonThenOpens(gate, quietFor: 1.5)
    }

    /// The password and a finger granted together (the Return and the match sent at once):
    /// the lock opens once, and its unlock command runs once.
    @Test func aPasswordAndAFingerGrantedTogetherUnlockOnce() throws {
        let log = pam.directory + "/unlocked"
        let gate = try lockWith("pam,fingerprint", ["--unlock-command", "echo once >> \(log)"])
        #expect(eventually { reader.isWaiting }, "\(gate.standardError)")
        client.type(AuthTests.password, enter: false)
        sleep(seconds: 0.3)
        reader.answer("match")
        client.key(0xff0d)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(contents(of: log) == "once\n", "the unlock command ran once: \(contents(of: log))")
    }

    /// KDE's rule: a reader that refuses within 2 s three times running (no finger can be
    /// read that fast: a broken reader, or one refusing as it starts) is not asked again
    /// until the person acts, so it cannot spin or count failures on its own.
    @Test func threeQuickRefusalsWaitForThePerson() throws {
        let gate = try lockWith("fingerprint")
        for _ in 0..<3 {
            #expect(eventually { reader.isWaiting }, "\(gate.standardError)")
            reader.answer("nomatch")
            #expect(eventually { !reader.isWaiting }, "taken")
        }
        #expect(eventually { gate.standardError.contains("refused within 2.0 s 3 times running") }, "\(gate.standardError)")
        waitsForThePersonThenOpens(gate, quietFor: 2.5)
    }

    @Test func inTheGraceTheSlideAloneOpens() throws {
        let gate = try lockWith("pam", ["--grace", "30"])
        #expect(eventually { covered() && !client.canGrabKeyboard() })
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// xss-lock --transfer-sleep-lock and --grace 5: the grace ran on a clock that stops in
    /// suspend, and a slide on resume opened the lock. A lock taken for sleep has no grace.
    @Test func aLockTakenForSleepHasNoGrace() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let gate = try screen.slidegate(
            LockModeTests.arguments + ["--auth", "pam", "--pam-service", "slidegate", "--grace", "30"],
            environment: pam.environment.merging(["XSS_SLEEP_LOCK_FD": "\(fds[1])"]) { $1 }, keep: [fds[1]])
        close(fds[1])
        var byte: UInt8 = 0
        #expect(eventually { read(fds[0], &byte, 1) == 0 }, "the sleep lock is let go once locked: \(gate.standardError)")
        #expect(eventually { covered() && thumbShown(at: 0) })
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "the password stage opened: \(gate.standardError)")
        client.type("wrong")
        #expect(eventually { errorBannerShows() }, "a wrong password is refused: the slide alone did not open it")
        #expect(gate.isRunning && covered())
        // A second after a refusal, typing works again.
        sleep(seconds: 1.2)
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func afterTheGraceThePasswordIsAsked() throws {
        let gate = try lockWith("pam", ["--grace", "0.5"])
        sleep(seconds: 1)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "the password stage opened")
        #expect(gate.isRunning)
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func aServiceThatAsksForTypingIsSaidOnce() throws {
        let gate = try lock(["--auth", "pam,fingerprint", "--fingerprint-service", "slidegate"], environment: pam.environment)
        #expect(eventually { gate.standardError.contains("--auth fingerprint: PAM asks for typing") }, "\(gate.standardError)")
        client.type(AuthTests.password)
        #expect(gate.wait() == 0, "the password still works: \(gate.standardError)")
    }
}

extension LockScreenChecks {
    /// An info banner (a blue icon) shows.
    func infoBannerShows() -> Bool {
        client.bannerIcon().map { $0.b > 150 && $0.r < 150 } ?? false
    }
}

/// The service `finger` in a pam_wrapper directory: pam_echo says "Place your finger on
/// the reader", then a script waits for the file `touch` and answers as it says: `match`
/// (success), `nomatch` ("Failed to match fingerprint", then pam_deny's PAM_AUTH_ERR, a
/// plain refusal), or `timeout` (the script fails: pam_exec's PAM_SYSTEM_ERR, an error, as
/// of a reader gone to sleep). The script marks its wait with the file `waiting`, and ends
/// when its helper does.
final class FingerReader {
    /// Kept until the reader's files are gone: it removes the directory.
    private let pam: PamStack
    let directory: String

    init(in pam: PamStack) throws {
        self.pam = pam
        directory = pam.directory
        let script = """
            #!/bin/sh
            rm -f \(directory)/refused
            touch \(directory)/waiting
            while [ ! -e \(directory)/touch ]; do
              kill -0 $PPID 2>/dev/null || { rm -f \(directory)/waiting; exit 1; }
              sleep 0.05
            done
            answer=$(cat \(directory)/touch)
            rm -f \(directory)/touch \(directory)/waiting
            case $answer in
              match) exit 0 ;;
              nomatch) echo "Failed to match fingerprint"; touch \(directory)/refused; exit 0 ;;
              *) exit 1 ;;
            esac

            """
        write("finger.sh", script)
        chmod(directory + "/finger.sh", 0o755)
        // pam_exec passes its arguments unquoted: the check is a script of its own.
        write("matched.sh", "#!/bin/sh\n[ ! -e \(directory)/refused ]\n")
        chmod(directory + "/matched.sh", 0o755)
        write(
            "finger",
            """
            auth optional pam_echo.so Place your finger on the reader
            auth requisite pam_exec.so quiet stdout \(directory)/finger.sh
            auth [success=1 default=ignore] pam_exec.so quiet \(directory)/matched.sh
            auth requisite pam_deny.so
            auth required pam_permit.so
            account required pam_permit.so

            """)
    }

    private func write(_ name: String, _ text: String) {
        let f = fopen(directory + "/" + name, "w")!
        fputs(text, f)
        fclose(f)
    }

    var isWaiting: Bool { access(directory + "/waiting", F_OK) == 0 }

    func answer(_ text: String) {
        write("touch.tmp", text)
        rename(directory + "/touch.tmp", directory + "/touch")
    }

    deinit {
        // The service file "finger" is PamStack's to remove, with its directory.
        for name in ["finger.sh", "matched.sh", "touch", "waiting", "touch.tmp", "refused"] { unlink(directory + "/" + name) }
    }
}
