import CX11
import Glibc
import Testing

/// `--auth pam` with real PAM stacks: pam_wrapper (LD_PRELOAD) lets each test use a service
/// directory of its own, with pam_matrix's password files and pam_chatty's messages; one
/// test uses the real pam_unix with a throwaway user. slidegate (the static guard) ignores
/// LD_PRELOAD; the helper it starts, slidegate-auth, is where PAM runs.
@Suite(.serialized) struct AuthTests: LockScreenChecks {
    let screen: VirtualScreen
    let client: Client
    let pam: PamStack
    /// With both u and U: Ctrl+U clears the field, a plain u or U is typed.
    static let password = "s3cretUu"

    init() throws {
        screen = try VirtualScreen()
        client = try Client(screen)
        pam = try PamStack()
    }

    /// Locks with `--auth pam` against `service` in the test's own PAM directory.
    func lockWithPam(_ service: String = "slidegate", _ extra: [String] = []) throws -> Child {
        try lock(["--auth", "pam", "--pam-service", service] + extra, environment: pam.environment)
    }

    func type(_ text: String, enter: Bool = true) {
        client.type(text, enter: enter)
    }

    @Test func slideThenTheRightPasswordUnlocks() throws {
        let gate = try lockWithPam()
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { stageOpen() }, "the password stage opened")
        #expect(gate.isRunning, "a slide alone does not unlock")
        type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(client.canGrabKeyboard())
    }

    @Test func aWrongPasswordKeepsTheLockAndTheRightOneThenWorks() throws {
        let gate = try lockWithPam()
        type("wrong")
        #expect(eventually { stageOpen() })
        #expect(eventually { errorBannerShows() }, "an error banner slides in")
        // The banner says the guard has the refusal: it counts it and the field clears.
        #expect(gate.isRunning && !client.canGrabKeyboard(), "still locked after a wrong password")
        // A second later, typing works.
        sleep(seconds: 1.2)
        type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(gate.standardError.contains("slidegate: 1 failed attempt since "), "\(gate.standardError)")
    }

    @Test func controlUClearsWhatWasTyped() throws {
        let gate = try lockWithPam()
        type("wrong", enter: false)
        #expect(eventually { stageOpen() })
        client.keyDown(0xffe3)
        client.key(0x75)
        client.keyUp(0xffe3)
        type(Self.password)
        #expect(gate.wait() == 0, "the wrong start was cleared: \(gate.standardError)")
    }

    @Test func typingWithoutSlidingOpensTheStage() throws {
        let gate = try lockWithPam()
        type("s", enter: false)
        #expect(eventually { stageOpen() })
        type(String(Self.password.dropFirst()))
        #expect(gate.wait() == 0)
    }

    @Test func escapeGoesBackToTheSlider() throws {
        let gate = try lockWithPam()
        type("abc", enter: false)
        #expect(eventually { stageOpen() })
        client.key(0xff1b)
        client.key(0xff1b)
        #expect(eventually { thumbShown(at: 0) && !thumbShown(at: 1) }, "the thumb springs back")
        type(Self.password)
        #expect(gate.wait() == 0, "the field was emptied: typing starts afresh")
    }

    @Test func idleForLongerThanTheLimitWipesAndGoesBack() throws {
        let gate = try lock(
            ["--auth", "pam"], environment: pam.environment.merging(["SLIDEGATE_TEST_IDLE_LIMIT": "1"]) { $1 })
        type("abc", enter: false)
        #expect(eventually { stageOpen() })
        #expect(eventually(within: 3) { thumbShown(at: 0) && !thumbShown(at: 1) }, "back to the slider after 1 s")
        type(Self.password)
        #expect(gate.wait() == 0, "what was typed before was wiped")
    }

    @Test func mouseKeysStaysOnAndTheKeypadSlides() throws {
        try screen.run("/usr/bin/setxkbmap", "-option", "keypad:pointerkeys")
        defer { _ = try? screen.run("/usr/bin/setxkbmap", "-option", "") }
        let gate = try lockWithPam()
        XWarpPointer(client.display, 0, client.root, 0, 0, 0, 0, 140, 140)
        XSync(client.display, 0)
        // Shift+NumLock turns MouseKeys on; KP_Insert holds the button; 600 presses of KP_6
        // move the pointer right past the end of the track (520 px of travel).
        client.keyDown(0xffe1)
        client.key(0xff7f)
        client.keyUp(0xffe1)
        #expect(eventually { client.mouseKeysEnabled() }, "MouseKeys came on")
        client.key(0xff9e)
        for _ in 0..<600 { client.key(0xff98) }
        client.key(0xff9f)
        #expect(eventually { stageOpen() }, "the keypad slid the thumb to the password")
        sleep(seconds: 0.3)
        #expect(client.mouseKeysEnabled(), "the lock left MouseKeys on")
        #expect(gate.isRunning, "the slide alone does not unlock")
        // MouseKeys takes the keypad, not the letters: the password still decides.
        type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(client.mouseKeysEnabled(), "still on after the lock")
        client.keyDown(0xffe1)
        client.key(0xff7f)
        client.keyUp(0xffe1)
    }

    /// The thumb shows its lock (the field takes keys), not the busy dots (PAM checks).
    func fieldReady() -> Bool { client.brightness(660, 152) > 180 }

    @Test func aTwoPromptStackWorks() throws {
        let gate = try lockWithPam("two-prompts")
        type(Self.password)
        // PAM answers the password and asks for the code within milliseconds; keys typed
        // while it works are dropped, so give it that time.
        sleep(seconds: 0.5)
        #expect(fieldReady(), "the second prompt takes keys")
        #expect(gate.isRunning)
        type("424242")
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func pamMessagesAreBannersAndDoNotGetInTheWay() throws {
        let gate = try lockWithPam("chatty")
        type("s", enter: false)
        #expect(eventually { client.bannerIcon().map { $0.b > 180 && $0.r < 120 } ?? false }, "PAM's info message is a banner")
        type(String(Self.password.dropFirst()))
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func theFourthFailureMakesTheNextAttemptWait() throws {
        let gate = try lockWithPam()
        for _ in 0..<4 {
            type("wrong")
            sleep(seconds: 1.1)
        }
        let fourth = now() - 1.1
        // Keep trying the right password: the guard takes it only once 2 s have passed.
        while gate.isRunning && now() - fourth < 6 {
            type(Self.password)
            sleep(seconds: 0.2)
        }
        #expect(gate.wait() == 0)
        #expect(now() - fourth >= 2, "unlocked \(now() - fourth) s after the 4th failure")
        #expect(gate.standardError.contains("4 failed attempts"), "\(gate.standardError)")
    }

    /// Loads `layouts` (setxkbmap's comma list) into the keyboard.
    func setLayouts(_ layouts: String) throws {
        let set = try Child("/usr/bin/setxkbmap", ["-display", screen.name, "-layout", layouts])
        #expect(set.wait(timeout: 10) == 0, "setxkbmap: \(set.standardError)")
    }

    /// Left of the thumb at the track's end: the pixels where the layout's badge (its box
    /// and name) is, and how many of them are bright.
    func badge() -> [UInt32]? { client.pixels(x: 520, y: 112, width: 96, height: 56) }
    func badgeInk() -> Int { client.brightness(x: 520, y: 112, width: 96, height: 56).filter { $0 > 90 }.count }

    /// The keyboard layout's name beside the field, with two layouts loaded by setxkbmap
    /// (the test's connection keeps Xvfb from resetting them away).
    @Test func theLayoutShowsBesideTheFieldAndFollowsTheKeyboard() throws {
        try setLayouts("us,de")
        let gate = try lockWithPam()
        type("x", enter: false)
        #expect(eventually { stageOpen() })
        #expect(eventually { badgeInk() > 30 }, "\"us\" shows beside the field")
        let us = badge()
        client.lockGroup(1)
        client.key(0xffe1)
        #expect(eventually { badge() != us && badgeInk() > 30 }, "\"de\" at the next key")
        client.lockGroup(0)
        client.key(0xffe1)
        #expect(eventually { badge() == us }, "\"us\" again")
        try setLayouts("us")
        client.key(0xffe1)
        #expect(eventually { badgeInk() == 0 }, "one layout: nothing shown")
        #expect(gate.isRunning)
    }

    /// i3lock #351 and i3lock-color #316: layouts changed under the lock, and groups the
    /// names do not cover. Another client's switch shows beside the field without a key;
    /// setxkbmap 50 times a second while keys are typed, four groups, a group with no name
    /// in the rules' names: the same guard holds the lock, and afterwards the password
    /// opens it.
    @Test func keyboardLayoutStormsChangeNothingButTheLayoutShown() throws {
        try setLayouts("us,de")
        defer { try? setLayouts("us") }
        let gate = try lockWithPam()
        let guardian = guardOf(gate.pid)
        type("x", enter: false)
        #expect(eventually { stageOpen() && badgeInk() > 30 }, "\"us\" shows beside the field")
        let us = badge()
        client.lockGroup(1)
        #expect(eventually { badge() != us && badgeInk() > 30 }, "another client's switch shows without a key")
        let storm = try Child(
            "/bin/sh",
            ["-c", "for i in $(seq 75); do setxkbmap -layout us,de,fr,ru; setxkbmap -layout de,us; sleep 0.01; done"],
            environment: ["DISPLAY": screen.name])
        let stormStart = now()
        while storm.isRunning && now() - stormStart < 20 {
            client.type("ab", enter: false)
            client.lockGroup(UInt32.random(in: 0...3))
        }
        #expect(storm.wait(timeout: 20) == 0, "\(storm.standardError)")
        #expect(now() - stormStart < 10, "150 layouts loaded in \(now() - stormStart) s")
        // Four groups, and rules' names that leave a group empty and stop before the fourth:
        // nothing to show for either (KeyboardLayoutNameTests has what is shown).
        try setLayouts("us,de,fr,ru")
        let rules = XInternAtom(client.display, "_XKB_RULES_NAMES", 0)
        let unnamed = Array("evdev\0pc105\0us,,de\0\0\0".utf8)
        XChangeProperty(client.display, client.root, rules, XA_STRING, 8, PropModeReplace, unnamed, Int32(unnamed.count))
        for group: UInt32 in [1, 3, 2] {
            client.lockGroup(group)
            client.key(0xffe1)
        }
        try setLayouts("us")
        client.lockGroup(0)
        client.key(0xff1b)
        sleep(seconds: 1.2)
        #expect(guardOf(gate.pid) == guardian, "the same guard holds the lock: \(gate.standardError)")
        #expect(gate.isRunning && covered() && !client.canGrabKeyboard(), "\(gate.standardError)")
        // A new connection types: this one's copy of the keymap lived through the storm.
        try Client(screen).type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    @Test func killingTheHelperMidCheckKeepsTheLock() throws {
        let gate = try lockWithPam("slow")
        type(Self.password)
        let helper = try #require(Self.helperPid(of: gate.pid))
        // The answer is with PAM, which now sleeps 3 s: kill the helper in the middle.
        sleep(seconds: 0.5)
        kill(helper, SIGKILL)
        #expect(eventually { gate.standardError.contains("the authentication helper ended (signal 9)") }, "\(gate.standardError)")
        #expect(gate.isRunning && !client.canGrabKeyboard() && covered(), "still locked")
        sleep(seconds: 1.1)
        type(Self.password)
        #expect(gate.wait(timeout: 10) == 0, "a new helper checks the next attempt: \(gate.standardError)")
    }

    @Test func aBrokenHelperIsExit2BeforeAnythingLooksLocked() throws {
        var template = Array("/tmp/slidegate-nohelper.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer {
            for name in ["slidegate", "slidegate-ui", "slidegate-auth"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        let built = String(slidegatePath.dropLast("slidegate".count))
        #expect(copyFile(built + "slidegate", directory + "/slidegate") && copyFile(built + "slidegate-ui", directory + "/slidegate-ui"))
        #expect(symlink("/bin/true", directory + "/slidegate-auth") == 0, "a helper that never answers")
        let gate = try Child(
            directory + "/slidegate", LockModeTests.arguments + ["--auth", "pam"],
            environment: ["DISPLAY": screen.name, "WAYLAND_DISPLAY": unset])
        #expect(gate.wait() == 2)
        #expect(gate.standardError.contains("--auth: the authentication helper"), "\(gate.standardError)")
        #expect(client.canGrabKeyboard() && client.mappedTopLevels().isEmpty, "nothing was locked")
    }

    @Test func windowedModeAsksForThePasswordToo() throws {
        let gate = try screen.slidegate(WindowedModeTests.geometry + ["--auth", "pam"], environment: pam.environment)
        #expect(eventually { client.thumbShown(at: 0, threshold: 70) }, "the window: \(gate.standardError)")
        let window = try #require(client.mappedTopLevels().last)
        XSetInputFocus(client.display, window, RevertToParent, 0)
        XSync(client.display, 0)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.thumbShown(at: 1, threshold: 70) }, "the password field")
        #expect(gate.isRunning, "a slide alone does not pass the gate")
        type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }

    /// What one person's script led to: Caps Lock shown and gone again, the exit status, the
    /// failed attempt counted.
    struct Decisions: Equatable {
        var capsLockShown = false
        var capsLockGone = false
        var status: Int32?
        var failureCounted = false
    }

    /// Caps Lock on and off in the open field, a wrong password, then the right one;
    /// `capsLockShows` says whether the mode shows Caps Lock (where it does: a banner on the
    /// lock screen, the field's text in a window).
    func script(_ gate: Child, capsLockShows: () -> Bool) -> Decisions {
        var seen = Decisions()
        client.drag(from: (140, 140), to: (1000, 140))
        guard eventually({ client.thumbShown(at: 1, threshold: 70) && !capsLockShows() }) else { return seen }
        client.key(0xffe5)
        seen.capsLockShown = eventually { capsLockShows() }
        client.key(0xffe5)
        seen.capsLockGone = eventually { !capsLockShows() }
        type("wrong")
        // The refusal shakes the field for a second; then typing works again.
        sleep(seconds: 1.2)
        type(Self.password)
        seen.status = gate.wait()
        seen.failureCounted = gate.standardError.contains("slidegate: 1 failed attempt since ")
        return seen
    }

    /// Both modes decide with one `GateHost`: the same script leads to the same decisions
    /// (windowed mode once never showed Caps Lock).
    @Test func lockAndWindowedModeDecideAlike() throws {
        // The warning banner's orange icon.
        let locked = script(try lockWithPam()) { client.bannerIcon().map { $0.r > 180 && $0.g > 100 && $0.b < 100 } ?? false }
        #expect(client.canGrabKeyboard(), "unlocked")
        let windowed = try screen.slidegate(WindowedModeTests.geometry + ["--auth", "pam"], environment: pam.environment)
        #expect(eventually { client.thumbShown(at: 0, threshold: 70) }, "the window: \(windowed.standardError)")
        let window = try #require(client.mappedTopLevels().last)
        XSetInputFocus(client.display, window, RevertToParent, 0)
        XSync(client.display, 0)
        // White text where "Password:" is grey.
        let inWindow = script(windowed) { client.brightness(x: 115, y: 125, width: 200, height: 34).filter { $0 > 200 }.count > 100 }
        #expect(locked == Decisions(capsLockShown: true, capsLockGone: true, status: 0, failureCounted: true), "\(locked)")
        #expect(inWindow == locked, "windowed mode: \(inWindow)")
    }

    /// Another client selects key presses on the window, as a key logger would: while the
    /// password field is open the window holds the keyboard, and it reads nothing.
    @Test func windowedModeGrabsTheKeyboardWhileThePasswordFieldIsOpen() throws {
        let spy = try Client(screen)
        let gate = try screen.slidegate(WindowedModeTests.geometry + ["--auth", "pam"], environment: pam.environment)
        #expect(eventually { client.thumbShown(at: 0, threshold: 70) }, "the window: \(gate.standardError)")
        let window = try #require(client.mappedTopLevels().last)
        XSelectInput(spy.display, window, KeyPressMask)
        XSync(spy.display, 0)
        XSetInputFocus(client.display, window, RevertToParent, 0)
        XSync(client.display, 0)
        client.type("x", enter: false)
        #expect(eventually { spy.takeKeyPress() }, "before the field is open, keys reach whoever selected them")
        client.key(0xff1b)
        client.key(0xff1b)
        #expect(
            eventually { client.thumbShown(at: 0, threshold: 70) && !client.thumbShown(at: 1, threshold: 70) && client.canGrabKeyboard() },
            "back to the slider, the keyboard free")
        // The thumb is drawn at rest a little before its spring-back ends.
        sleep(seconds: 0.5)
        client.drag(from: (140, 140), to: (1000, 140))
        #expect(eventually { client.thumbShown(at: 1, threshold: 70) && !client.canGrabKeyboard() }, "the field is open and holds the keyboard")
        _ = spy.takeKeyPress()
        type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        #expect(!spy.takeKeyPress(), "the spy read none of the password's keys")
        #expect(client.canGrabKeyboard(), "the grab went with the window")
    }

    /// The guard's child that runs slidegate-auth.
    static func helperPid(of pid: pid_t) -> pid_t? {
        child(of: pid, running: "slidegate-auth")
    }

    @Test func theUINeverSeesThePassword() throws {
        let recorder = try RecordingUI()
        let gate = try Child(
            recorder.directory + "/slidegate", LockModeTests.arguments + ["--auth", "pam"],
            environment: pam.environment.merging(["DISPLAY": screen.name, "WAYLAND_DISPLAY": unset]) { $1 })
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(gate.standardError)")
        #expect(eventually { recorder.recorded.count > 0 }, "the recording UI hears the guard")
        type(Self.password)
        #expect(gate.wait() == 0, "\(gate.standardError)")
        let heard = recorder.recorded
        #expect(heard.count > 100)
        #expect(heard.firstRange(of: Array(Self.password.utf8)) == nil, "the password is not in what the UI got")
        #expect(heard.firstRange(of: Array(Self.password.utf8.prefix(3))) == nil, "nor any part of it")
    }

    @Test func theRealPamUnixWithAThrowawayUser() throws {
        let user = try ThrowawayUser(password: "Pa55word")
        let service = "slidegate-e2e-\(getpid())"
        let serviceFile = "/etc/pam.d/" + service
        #expect(link(PamStack.packagedServiceFile, serviceFile) == 0 || copyFile(PamStack.packagedServiceFile, serviceFile))
        defer { unlink(serviceFile) }
        let gate = try Child(
            "/usr/bin/setpriv",
            ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", slidegatePath] + LockModeTests.arguments
                + ["--auth", "pam", "--pam-service", service],
            environment: ["DISPLAY": screen.name, "WAYLAND_DISPLAY": unset, "HOME": "/tmp", "XDG_CACHE_HOME": "/dev/null"])
        #expect(eventually { covered() && !client.canGrabKeyboard() }, "locked: \(gate.standardError)")
        let started = now()
        type("wrong")
        #expect(eventually { !fieldReady() }, "pam_unix checks")
        #expect(eventually(within: 5) { fieldReady() }, "and refuses")
        #expect(gate.isRunning, "pam_unix refused a wrong password")
        // Keys are ignored for a second after a refusal: type until they are taken.
        while gate.isRunning && now() < started + 20 {
            type("Pa55word")
            _ = eventually(within: 3) { !gate.isRunning }
        }
        #expect(gate.wait() == 0, "\(gate.standardError)")
    }
}

/// A PAM service directory for pam_wrapper: `slidegate` (pam_matrix), `two-prompts` (a
/// password, then a visible one-time code), `chatty` (info and error messages first),
/// `slow` (3 s more once the password is in), `deny` (refuses before asking anything, as a
/// distribution's `other` does), `loud` (two 34,000-byte info messages, then the
/// password) and `flood` (10,000 info messages of 220 bytes, then the password). The user
/// is the one the tests run as.
final class PamStack {
    let directory: String
    static let modules = "/usr/lib/x86_64-linux-gnu/pam_wrapper"
    static let packagedServiceFile = String(#filePath.dropLast("Tests/SlidegateEndToEndTests/AuthTests.swift".count))
        + "packaging/pam.d/slidegate"

    init() throws {
        var template = Array("/tmp/slidegate-pam.XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw Child.SpawnError(path: "mkdtemp", code: errno) }
        directory = String(cString: dir)
        let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
        // pam_matrix's account check reads a user's first line only: one file per service.
        func matrix(_ service: String) -> String {
            write("passdb-" + service, "\(user):\(AuthTests.password):\(service)\n")
            return "\(Self.modules)/pam_matrix.so passdb=\(directory)/passdb-\(service)"
        }
        write("codes", "\(user):424242:two-prompts\n")
        write("slidegate", "auth required \(matrix("slidegate"))\naccount required \(matrix("slidegate"))\n")
        write(
            "two-prompts",
            "auth required \(matrix("two-prompts"))\nauth required \(Self.modules)/pam_matrix.so passdb=\(directory)/codes echo\n"
                + "account required \(matrix("two-prompts"))\n")
        write(
            "chatty",
            "auth required \(Self.modules)/pam_chatty.so num_lines=2 info error\nauth required \(matrix("chatty"))\n"
                + "account required \(matrix("chatty"))\n")
        write("slow", "auth required \(matrix("slow"))\nauth required pam_exec.so quiet /bin/sleep 3\naccount required \(matrix("slow"))\n")
        write("deny", "auth required pam_deny.so\naccount required pam_deny.so\n")
        // Two different texts: an identical banner would not be queued twice.
        write("loud-1", String(repeating: "PAM has a lot to say. ", count: 34_000 / 22))
        write("loud-2", String(repeating: "And more to add to it. ", count: 34_000 / 23))
        write(
            "loud",
            "auth optional pam_echo.so file=\(directory)/loud-1\nauth optional pam_echo.so file=\(directory)/loud-2\n"
                + "auth required \(matrix("loud"))\naccount required \(matrix("loud"))\n")
        write(
            "flood",
            (1...10_000).map { "auth optional pam_echo.so message \($0) of 10000 \(String(repeating: "and more ", count: 22))\n" }.joined()
                + "auth required \(matrix("flood"))\naccount required \(matrix("flood"))\n")
    }

    private func write(_ name: String, _ text: String) {
        let f = fopen(directory + "/" + name, "w")!
        fputs(text, f)
        fclose(f)
    }

    var environment: [String: String?] {
        ["LD_PRELOAD": "libpam_wrapper.so", "PAM_WRAPPER": "1", "PAM_WRAPPER_SERVICE_DIR": directory]
    }

    deinit {
        unlink(directory + "/finger")
        for service in ["slidegate", "two-prompts", "chatty", "slow", "deny", "loud"] {
            unlink(directory + "/" + service)
            unlink(directory + "/passdb-" + service)
        }
        unlink(directory + "/codes")
        unlink(directory + "/loud-1")
        unlink(directory + "/loud-2")
        rmdir(directory)
    }
}

/// A user made for one test with useradd and chpasswd (the tests run as root), removed after.
final class ThrowawayUser {
    let name: String
    let uid: uid_t
    let gid: gid_t

    init(password: String) throws {
        name = "sgtest\(getpid() % 100000)"
        // A run that was killed may have left it behind.
        if getpwnam(name) != nil { _ = try Child("/usr/sbin/userdel", [name]).wait(timeout: 10) }
        let add = try Child("/usr/sbin/useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", name])
        guard add.wait(timeout: 10) == 0 else { throw Child.SpawnError(path: "useradd: \(add.standardError)", code: EPERM) }
        let input = "/tmp/slidegate-chpasswd-\(getpid())"
        let f = fopen(input, "w")!
        fputs("\(name):\(password)\n", f)
        fclose(f)
        defer { unlink(input) }
        let set = try Child("/bin/sh", ["-c", "/usr/sbin/chpasswd < \(input)"])
        guard set.wait(timeout: 10) == 0 else { throw Child.SpawnError(path: "chpasswd: \(set.standardError)", code: EPERM) }
        guard let entry = getpwnam(name) else { throw Child.SpawnError(path: "getpwnam \(name)", code: ENOENT) }
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
    }

    deinit {
        _ = try? Child("/usr/sbin/userdel", [name]).wait(timeout: 10)
    }
}

/// slidegate and slidegate-auth copied into a directory of their own beside a stand-in
/// slidegate-ui that only appends everything the guard sends it to a file. (It never
/// answers, so the guard keeps replacing it and draws its plain slider: every replacement
/// appends too.)
final class RecordingUI {
    let directory: String
    var output: String { directory + "/heard" }

    init() throws {
        var template = Array("/tmp/slidegate-recorder.XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw Child.SpawnError(path: "mkdtemp", code: errno) }
        directory = String(cString: dir)
        let source = directory + "/recorder.c"
        let f = fopen(source, "w")!
        fputs(
            """
            #include <fcntl.h>
            #include <unistd.h>
            int main(void) {
                int out = open("\(directory)/heard", O_WRONLY | O_CREAT | O_APPEND, 0600);
                char buffer[4096];
                ssize_t n;
                while ((n = read(3, buffer, sizeof buffer)) > 0) write(out, buffer, (size_t)n);
                return 0;
            }

            """, f)
        fclose(f)
        let cc = try Child("/usr/bin/cc", ["-o", directory + "/slidegate-ui", source])
        guard cc.wait(timeout: 30) == 0 else { throw Child.SpawnError(path: "cc: \(cc.standardError)", code: EIO) }
        let built = String(slidegatePath.dropLast("slidegate".count))
        for name in ["slidegate", "slidegate-auth"] {
            guard copyFile(built + name, directory + "/" + name) else { throw Child.SpawnError(path: "copy \(name)", code: EIO) }
        }
    }

    /// Every byte the stand-in UIs were sent.
    var recorded: [UInt8] {
        guard let f = fopen(output, "r") else { return [] }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&buffer, 1, buffer.count, f), n > 0 { bytes += buffer[..<n] }
        return bytes
    }

    deinit {
        for name in ["slidegate", "slidegate-auth", "slidegate-ui", "recorder.c", "heard"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }
}
