import Glibc
import SlidegateCore
import SlidegateSystem

/// The one decider: the gate, and everything its decisions need from the system — the
/// authentication helper and the secret, the unlock command, the wheels' random digits,
/// Caps Lock, the signals. Lock mode's guard and windowed mode both run one, so a feature
/// of the gate works the same in both; what differs between them is only where the input
/// comes from and who paints (the guard's UI, or the window itself).
///
/// Every input goes through `handle`: the gate takes it, `heard` tells the program around
/// (the guard forwards it to its UI; the window repaints), then the gate's action is carried
/// out and the password transaction follows the password stage.
package final class GateHost {
    package private(set) var gate: Gate
    /// `pam` or `pin` in `--auth`: the helper, the secret, the keys.
    package let auth: AuthSession?
    /// `fingerprint` and `key` in `--auth`: each its own helper, running by itself.
    private let methods: [PassiveMethod]
    /// Called after the gate took an input, before its action is carried out.
    package var heard: (GateInput, Double) -> Void = { _, _ in }
    /// Called after the password transaction followed the stage: whether the stage is open.
    package var followed: (Bool) -> Void = { _ in }
    private let method: AuthMethods
    private let server: HostServer
    private let watcher: DescriptorWatcher
    private var command: ChildProcess?
    /// Where the wheels' random digits come from: getrandom(2).
    private var random = SystemRandomNumberGenerator()
    /// `--key-command`: what each key runs while locked.
    private let keyCommands: [KeyCommand]
    /// `--show-media`: the media keys a `--key-command` does not bind go to `control`.
    private let mediaKeys: Bool
    /// Carries out a control the person pressed (the guard tells its UI).
    package var control: (LockControl) -> Void = { _ in }
    /// The controls shown, in reading order, which Tab moves through (the guard says).
    package var focusable: [LockControl] = [] {
        didSet { focusMoved { $0.follow(focusable) } }
    }
    private var focus = ControlFocus()
    package var focusedControl: LockControl? { focus.focused }
    /// The focus moved (nil: it ended): the guard has the UI ring the control.
    package var focusChanged: (LockControl?) -> Void = { _ in }
    /// `--switch-user-command`.
    private let switchUserCommand: String?
    /// The commands the person started with a key or the switch-user button, by what
    /// started them; each left to run, and reaped when it ends.
    private var started: [String: ChildProcess] = [:]
    /// `--blank-after`: when the screen blanks by itself, and Escape's blanking.
    private var idle: IdleBlank?

    /// A gate for `options` laid out as `layout`, with `pinLength` wheels (the PIN file's
    /// length; 0 without), spun to random digits at once. A lock taken `forSleep` (a sleep
    /// lock was handed over) has no grace and holds no match: the sleep ends neither.
    package init(
        options: Options, pinLength: Int, layout: SliderLayout, auth: AuthSession?, methods: [PassiveMethod] = [], server: HostServer,
        watcher: DescriptorWatcher, start: Double, forSleep: Bool = false
    ) {
        var settings = options.gateSettings
        settings.pinLength = pinLength
        if options.grace > 0 && !forSleep { settings.graceUntil = start + options.grace }
        settings.holdsMatches = !forSleep
        gate = Gate(settings: settings, layout: layout, start: start)
        method = options.auth
        keyCommands = options.keyCommands
        mediaKeys = options.showMedia
        switchUserCommand = options.switchUserCommand
        idle = IdleBlank(after: options.blankAfter, start: start)
        self.auth = auth
        self.methods = methods
        self.server = server
        self.watcher = watcher
        if let wheels = gate.wheels { _ = gate.handle(.scramble(wheels.freshDigits(at: start, using: &random)), at: start) }
        if method.usesPassword { _ = gate.handle(.keyboardLayout(server.keyboardLayout), at: start) }
    }

    /// Ends what the gate started: the unlock command, if it still runs, and the methods
    /// that need no typing (a key's command is left to finish).
    package func finish() {
        command?.stop()
        command = nil
        methods.forEach { $0.stop() }
    }

    /// Gives the gate an input and carries out what it decides; an exit status ends the run.
    package func handle(_ input: GateInput, at now: Double) -> ExitStatus? {
        let wasOpen = gate.entry.isOpen
        let action = gate.handle(input, at: now)
        heard(input, now)
        if Self.isThePersons(input) {
            methods.forEach { $0.personActed() }
            idle?.personActed(at: now)
        }
        if let status = perform(action) { return status }
        follow(wasOpen: wasOpen)
        syncMethods(at: now)
        return nil
    }

    /// Whether the input is something the person did (which wakes a sleeping reader).
    private static func isThePersons(_ input: GateInput) -> Bool {
        switch input {
        case .press, .motion, .release, .key, .scroll, .wheelKey, .bannerClicked: true
        default: false
        }
    }

    /// Each method that needs no typing runs a transaction unless the gate holds a match
    /// of its own or its limiter holds it back.
    private func syncMethods(at now: Double) {
        for passive in methods {
            let wanted = gate.exitStatus == nil && gate.heldMatch?.method != passive.method
            passive.sync(wanted: wanted, notBefore: gate.methodLimiter.blockedUntil, at: now)
            passive.keepWatched(by: watcher) { [unowned self, unowned passive] () throws(UserError) in read(passive) }
        }
    }

    /// What a method's helper said goes to the gate. A verdict wakes the screen: someone
    /// touched the reader or the key.
    private func read(_ passive: PassiveMethod) -> ExitStatus? {
        let now = boottimeNow()
        for input in passive.receive(at: now) {
            if case .methodVerdict = input { server.wakeScreen() }
            if let status = handle(input, at: now) { return status }
        }
        syncMethods(at: now)
        return nil
    }

    /// Time passed: the gate's timers, and an answer PAM did not give in time.
    package func advance(to now: Double) -> ExitStatus? {
        if idle?.isDue(at: now) == true { server.blankScreen() }
        let wasOpen = gate.entry.isOpen
        if let status = perform(gate.advance(to: now)) { return status }
        follow(wasOpen: wasOpen)
        if let failed = auth?.check(at: now), let status = handle(failed, at: now) { return status }
        watchAuth()
        syncMethods(at: now)
        return nil
    }

    /// When `advance` has something to do next (the gate's next action, PAM's time limit,
    /// blanking the screen).
    package var deadline: Double? {
        var earliest = Earliest()
        earliest.consider(idle?.deadline)
        earliest.consider(gate.nextActionDeadline)
        earliest.consider(auth?.answerDeadline)
        methods.forEach { earliest.consider($0.deadline) }
        return earliest.time
    }

    /// A signal: SIGCHLD reaps the unlock command and the helper; any other ends the gate as
    /// it says.
    package func signaled(_ signal: Int32) -> ExitStatus? {
        guard signal == SIGCHLD else { return handle(.signal(signal), at: boottimeNow()) }
        if let running = command, let exit = running.poll() {
            command = nil
            if let status = handle(.unlockCommandFinished(succeeded: exit.succeeded), at: boottimeNow()) { return status }
        }
        if let failed = auth?.reap() {
            if let status = handle(failed, at: boottimeNow()) { return status }
            watchAuth()
        }
        let now = boottimeNow()
        methods.forEach { $0.reap(at: now) }
        syncMethods(at: now)
        started = started.filter { $0.value.poll() == nil }
        return nil
    }

    /// Runs a command the person asked for with a key or a button (`/bin/sh -c`, its output
    /// on stderr), unless the one `name` started is still running: a held key's repeats
    /// never pile up processes. One that cannot start is said on stderr; the lock holds.
    private func start(_ name: String, _ command: String, option: String) {
        if let running = started[name], running.poll() == nil { return }
        do {
            started[name] = try ChildProcess(shell: command, descriptors: [1: 2])
        } catch {
            report("--\(option) \(name): \(error.description)")
        }
    }

    /// `--switch-user-command`: the button or Ctrl+Alt+S; the lock stays.
    package func switchUser() {
        if let switchUserCommand { start("switch-user", switchUserCommand, option: "switch-user-command") }
    }

    /// A key press: a wheel's key with `--auth pin`, else a key of the password stage;
    /// then Caps Lock as the server has it now. With `--blank-after`, Escape on the slider
    /// stage (no password field open) blanks the screen once it is released.
    package func keyPressed(_ key: KeyPress, at now: Double) -> ExitStatus? {
        if focusKey(key) {
            idle?.personActed(at: now)
            return nil
        }
        if idle != nil, key.password?.entry == .escape, !gate.entry.isOpen {
            idle?.escapePressed(at: now)
            return nil
        }
        idle?.personActed(at: now)
        if let bound = keyCommands.first(where: { $0.keysym == key.keysym }) {
            start(bound.name, bound.command, option: "key-command")
            return nil
        }
        if mediaKeys, let media = LockControl.mediaKey(key.keysym) {
            control(media)
            return nil
        }
        if switchUserCommand != nil, key.keysym == 0x73, key.controlAlt {
            switchUser()
            return nil
        }
        if method.keysTurnWheels {
            if let wheel = key.wheel { return handle(.wheelKey(wheel), at: now) }
        } else if method.usesPassword, let entry = auth?.take(key.password) {
            if let status = handle(.key(entry), at: now) { return status }
        }
        return keyboardChanged(at: now)
    }

    /// Tab and Shift+Tab through the controls, Return or Space on the focused one, Escape
    /// (or any other key, which then goes on) out: whether the key was the focus's.
    private func focusKey(_ key: KeyPress) -> Bool {
        let step = ControlFocus.step(keysym: key.keysym, shift: key.shift)
        switch step {
        case .forward?, .backward? where !focusable.isEmpty:
            focusMoved { $0.move(step == .forward, among: focusable) }
            return true
        case .activate? where focus.focused != nil:
            if let focused = focus.focused { focused == .switchUser ? switchUser() : control(focused) }
            return true
        case .stay?:
            return false
        default:
            guard focus.focused != nil else { return false }
            endFocus()
            return step == .end
        }
    }

    /// A click, or a key the focus does not take: the focus ends.
    package func endFocus() {
        focusMoved { $0.end() }
    }

    private func focusMoved(_ change: (inout ControlFocus) -> Void) {
        let before = focus.focused
        change(&focus)
        if focus.focused != before { focusChanged(focus.focused) }
    }

    /// A key release: the screen blanks if it was Escape's (`keyPressed`); Caps Lock, or
    /// the layout, may have changed.
    package func keyReleased(at now: Double) -> ExitStatus? {
        if idle?.keyReleased(at: now) == true { server.blankScreen() }
        return keyboardChanged(at: now)
    }

    /// XKB's word of a change another client made: Caps Lock, or the layout, may have
    /// changed.
    package func keyboardMayHaveChanged(at now: Double) -> ExitStatus? {
        keyboardChanged(at: now)
    }

    /// What was typed, for a prompt whose answer may be shown (never a hidden one).
    package var echo: String? { auth?.echo(for: gate.entry) }

    /// Every method's failed attempts.
    package var failures: FailureLog {
        methods.reduce(auth?.failures ?? FailureLog()) { $0 + $1.failures }
    }

    /// `--show-failed-attempts`, after an unlock: a desktop notification of the failed
    /// attempts, when there were any (`notify-send`, which says nothing when no notification
    /// server answers). It is left to run: the guard does not wait for the desktop.
    package func notifyOfFailures() {
        guard let notice = failures.notice else { return }
        do {
            _ = try ChildProcess(
                shell: "exec notify-send --app-name=slidegate --icon=dialog-password -- \"$1\" >/dev/null 2>&1", arguments: [notice])
        } catch {
            report("--show-failed-attempts: cannot start notify-send: \(error.description)")
        }
    }

    /// The slider moved or changed size: the gate lays out anew.
    package func relayout(_ layout: SliderLayout, at now: Double) {
        gate.relayout(layout, at: now)
    }

    /// A held drag springs back (the screen changed under it, or MouseKeys came on).
    package func cancelDrag(at now: Double) {
        gate.cancelDrag(at: now)
    }

    private func perform(_ action: GateAction?) -> ExitStatus? {
        switch action {
        case .exit(let status):
            return status
        case .runUnlockCommand(let line):
            command = ChildProcess.unlockCommand(line)
            return command == nil ? handle(.unlockCommandFinished(succeeded: false), at: boottimeNow()) : nil
        case .secret(let edit):
            let now = boottimeNow()
            return auth?.apply(edit, at: now).flatMap { handle($0, at: now) }
        case .checkPin:
            // The host's own wheels say what the digits are; the painter only draws them.
            let now = boottimeNow()
            guard let auth, let digits = gate.wheels?.digits(at: now) else { return nil }
            return auth.checkPin(digits, at: now).flatMap { handle($0, at: now) }
        case .scrambleWheels:
            let now = boottimeNow()
            return gate.wheels.flatMap { handle(.scramble($0.freshDigits(at: now, using: &random)), at: now) }
        case nil:
            return nil
        }
    }

    /// The transaction follows the password stage; when none can run, the gate says why.
    private func follow(wasOpen: Bool) {
        guard let auth else { return }
        if let notice = auth.follow(gate.entry, wasOpen: wasOpen) { _ = handle(notice, at: boottimeNow()) }
        followed(gate.entry.isOpen)
    }

    /// Caps Lock and the keyboard layout, as the server has them now, go to the gate when
    /// they changed.
    private func keyboardChanged(at now: Double) -> ExitStatus? {
        guard method.usesPassword else { return nil }
        guard let on = server.capsLock else { return nil }
        if on != gate.capsLock, let status = handle(.capsLock(on), at: now) { return status }
        let layout = server.keyboardLayout
        return layout == gate.keyboardLayout ? nil : handle(.keyboardLayout(layout), at: now)
    }

    /// The loop watches the current helper's socket.
    package func watchAuth() {
        auth?.keepWatched(by: watcher) { [unowned self] () throws(UserError) in readAuth() }
    }

    private func readAuth() -> ExitStatus? {
        guard let auth else { return nil }
        for event in auth.receive() {
            let now = boottimeNow()
            switch event {
            case .input(let gateInput):
                if let status = handle(gateInput, at: now) { return status }
            case .grantedPasswordExpired:
                report("PAM says the password must be changed; opening the gate (change it outside slidegate)")
                if let status = handle(.authVerdict(granted: true, message: nil), at: now) { return status }
            }
        }
        watchAuth()
        return nil
    }
}
