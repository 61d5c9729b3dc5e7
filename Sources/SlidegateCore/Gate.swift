/// What the person (or the system) did, as plain values in the slider's coordinates.
package enum GateInput: Equatable, Sendable {
    /// The primary button went down at (x, y).
    case press(x: Double, y: Double)
    /// The pointer moved to (x, y).
    case motion(x: Double, y: Double)
    /// The primary button came up.
    case release
    /// The unlock command ended; `succeeded` when it exited 0.
    case unlockCommandFinished(succeeded: Bool)
    /// The window manager asked the window to close.
    case closeRequested
    /// A terminating signal arrived.
    case signal(Int32)
    /// A key for the password stage (`--auth pam`).
    case key(EntryKey)
    /// Caps Lock went on or off.
    case capsLock(Bool)
    /// The keyboard layout now in use, by its short name, when there is more than one.
    case keyboardLayout(String?)
    /// PAM asked a question.
    case authPrompt(PasswordEntry.Prompt)
    /// PAM said something (PAM_TEXT_INFO, PAM_ERROR_MSG).
    case authMessage(Banner.Kind, String)
    /// PAM's verdict on the answers: granted, or refused with PAM's reason if it gave one.
    case authVerdict(granted: Bool, message: String?)
    /// The person clicked the banner.
    case bannerClicked
    /// The scroll wheel turned one notch at (x, y): down (toward the person) or up.
    case scroll(x: Double, y: Double, down: Bool)
    /// A key for the PIN wheels (`--auth pin`).
    case wheelKey(WheelKey)
    /// The helper's verdict on the wheels' digits: granted, or refused with its reason.
    case pinVerdict(granted: Bool, message: String?)
    /// The wheels spin to these (random) digits: at the start and after each wrong PIN.
    case scramble([Int])
    /// A method that needs no typing (a fingerprint, a security key) ended a transaction:
    /// granted (the helper then exited as it must), or refused.
    case methodVerdict(AuthMethod, granted: Bool)
}

/// What the gate asks the program around it to do.
package enum GateAction: Equatable, Sendable {
    case exit(ExitStatus)
    case runUnlockCommand(String)
    /// What the guard does to the secret it holds (append the typed character, …).
    case secret(SecretEdit)
    /// Check the wheels' digits against the PIN file.
    case checkPin
    /// Draw random digits for the wheels and hand them back as `.scramble`.
    case scrambleWheels
}

/// The slide gate: inputs and time in, a `Scene` and actions out. It composes the small
/// machines that do the work — the `Slide` (drag and spring), the `Verification` of a
/// completed slide, and the `Presenter` that turns them into a scene — and adds the
/// timeout and the end.
///
/// Time is always an argument (seconds on one clock that never goes back; the programs give
/// CLOCK_BOOTTIME's); nothing here reads a clock.
package struct Gate: Sendable {
    package struct Settings: Equatable, Sendable {
        package var text: String
        package var unlockCommand: String?
        /// Seconds from the start after which the gate gives up, or nil for never.
        package var timeout: Double?
        package var fps: Int
        package var auth: AuthMethods
        /// Banners replace the label in the track (windowed mode) instead of sliding in
        /// from the top of the screen.
        package var bannersInTrack: Bool
        /// Seconds without a key after which the password stage closes and is wiped.
        package var idleLimit = PasswordEntry.idleLimit
        /// How many wheels the PIN has (`--auth pin`), from the PIN file.
        package var pinLength = 0
        /// `--countdown`: the whole seconds left show beside the label.
        package var countdown = false
        /// When the timeout ends the gate, on the shared clock, when another
        /// process (the guard) decided it; else it is `timeout` after the start.
        package var deadline: Double?
        /// `--reduce-motion`: no shimmer, and what moves (the thumb's return, the wheels,
        /// the field's shake) moves at once.
        package var reduceMotion = false
        /// The thumb slides right to left: the shimmer sweeps that way too.
        package var rightToLeft = false
        /// The words the gate shows (banners, the busy and refusal labels).
        package var strings = Strings()
        /// `--grace`: until when (on the shared clock) the slide alone opens the gate
        /// whatever `auth` says; nil for no grace.
        package var graceUntil: Double?
        /// Whether a match of a method that needs no typing, made before the slide
        /// completed, is held for `matchHold` seconds so that the slide alone then opens the
        /// gate. A lock taken for sleep holds none (nor has a grace): what was matched
        /// before the machine slept must not open it after.
        package var holdsMatches = true
        /// `--show-failed-attempts`: the count of failed passwords and PINs is shown.
        package var showFailedAttempts = false

        package init(
            text: String, unlockCommand: String? = nil, timeout: Double? = nil, fps: Int = 60, auth: AuthMethods = .none,
            bannersInTrack: Bool = true
        ) {
            self.text = text
            self.unlockCommand = unlockCommand
            self.timeout = timeout
            self.fps = fps
            self.auth = auth
            self.bannersInTrack = bannersInTrack
        }
    }

    package let settings: Settings
    package private(set) var layout: SliderLayout
    package private(set) var slide: Slide
    package private(set) var verification: Verification
    package private(set) var entry = PasswordEntry()
    package private(set) var limiter = AttemptLimiter()
    /// `--auth pin`: the wheels, their failures, and whether the helper checks them now.
    package private(set) var wheels: Wheels?
    package private(set) var pinLimiter = AttemptLimiter(schedule: .pin)
    package private(set) var checkingPin = false
    package private(set) var banners = BannerQueue()
    package private(set) var capsLock = false
    /// The keyboard layout's short name, shown beside the password field.
    package private(set) var keyboardLayout: String?
    package let presenter: Presenter
    /// When `--timeout` ends the gate.
    package let deadline: Double?
    package private(set) var exitStatus: ExitStatus?
    private var timedOutWhileVerifying = false
    /// The unlock command this gate asked for runs.
    private var runningCommand = false
    /// A match by a method that needs no typing, made before the slide completed: until it
    /// expires, the slide alone opens the gate.
    package private(set) var heldMatch: HeldMatch?
    /// The slide completed and only methods that need no typing can open the gate: the thumb
    /// waits at the end, since this moment, for one of them.
    package private(set) var awaitingSince: Double?
    /// The no-typing methods' refusals, counted apart from passwords and PINs: while it
    /// blocks, the host starts none of them again.
    package private(set) var methodLimiter = AttemptLimiter()

    /// A match that waits for the slide.
    package struct HeldMatch: Equatable, Sendable {
        package var method: AuthMethod
        package var until: Double

        package init(method: AuthMethod, until: Double) {
            self.method = method
            self.until = until
        }
    }

    /// How long a match made before the slide holds.
    package static let matchHold = 10.0

    package init(settings: Settings, layout: SliderLayout, start: Double) {
        self.settings = settings
        self.layout = layout
        slide = Slide(start: start)
        verification = Verification()
        presenter = Presenter(
            text: settings.text, fps: settings.fps, bannersInTrack: settings.bannersInTrack, reduceMotion: settings.reduceMotion,
            rightToLeft: settings.rightToLeft, strings: settings.strings)
        deadline = settings.deadline ?? settings.timeout.map { start + $0 }
        if settings.auth.usesPin { wheels = Wheels(count: settings.pinLength) }
    }

    /// The parts that change as the gate runs: what one process hands another so that both
    /// gates go on alike.
    package struct Snapshot: Equatable, Sendable {
        package var slide: Slide.Phase
        package var verification: Verification.State
        package var entry: PasswordEntry
        package var limiter: AttemptLimiter
        package var banners: BannerQueue
        package var capsLock: Bool
        package var keyboardLayout: String?
        package var wheels: Wheels?
        package var pinLimiter: AttemptLimiter
        package var checkingPin: Bool
        package var heldMatch: HeldMatch?
        package var awaitingSince: Double?
        package var methodLimiter: AttemptLimiter

        package init(
            slide: Slide.Phase, verification: Verification.State, entry: PasswordEntry = PasswordEntry(),
            limiter: AttemptLimiter = AttemptLimiter(), banners: BannerQueue = BannerQueue(), capsLock: Bool = false,
            wheels: Wheels? = nil, pinLimiter: AttemptLimiter = AttemptLimiter(schedule: .pin), checkingPin: Bool = false,
            heldMatch: HeldMatch? = nil, awaitingSince: Double? = nil, methodLimiter: AttemptLimiter = AttemptLimiter(),
            keyboardLayout: String? = nil
        ) {
            self.keyboardLayout = keyboardLayout
            self.heldMatch = heldMatch
            self.awaitingSince = awaitingSince
            self.methodLimiter = methodLimiter
            self.slide = slide
            self.verification = verification
            self.entry = entry
            self.limiter = limiter
            self.banners = banners
            self.capsLock = capsLock
            self.wheels = wheels
            self.pinLimiter = pinLimiter
            self.checkingPin = checkingPin
        }
    }

    package var snapshot: Snapshot {
        Snapshot(
            slide: slide.phase, verification: verification.state, entry: entry, limiter: limiter, banners: banners,
            capsLock: capsLock, wheels: wheels, pinLimiter: pinLimiter, checkingPin: checkingPin, heldMatch: heldMatch,
            awaitingSince: awaitingSince, methodLimiter: methodLimiter, keyboardLayout: keyboardLayout)
    }

    /// A gate that carries on from `snapshot`.
    package init(settings: Settings, layout: SliderLayout, start: Double, snapshot: Snapshot) {
        self.init(settings: settings, layout: layout, start: start)
        slide = Slide(phase: snapshot.slide)
        verification = Verification(state: snapshot.verification)
        entry = snapshot.entry
        limiter = snapshot.limiter
        banners = snapshot.banners
        capsLock = snapshot.capsLock
        keyboardLayout = snapshot.keyboardLayout
        if wheels != nil, let saved = snapshot.wheels, saved.count == wheels?.count { wheels = saved }
        pinLimiter = snapshot.pinLimiter
        checkingPin = snapshot.checkingPin
        heldMatch = snapshot.heldMatch
        awaitingSince = snapshot.awaitingSince
        methodLimiter = snapshot.methodLimiter
        // A check that is not the PIN's is the unlock command's.
        if case .verifying = snapshot.verification, !checkingPin, settings.unlockCommand != nil { runningCommand = true }
    }

    package var isDragging: Bool { slide.isDragging }

    /// Lays the slider out anew (the screen or window changed size or moved). A drag in
    /// progress is cancelled and the thumb springs back: the slider moved under the
    /// pointer, so where the pointer is says nothing about where the person meant it.
    package mutating func relayout(_ newLayout: SliderLayout, at now: Double) {
        if newLayout != layout { cancelDrag(at: now) }
        layout = newLayout
    }

    /// Ends a drag in progress without completing it: the thumb springs back, and a held
    /// wheel settles where it is.
    package mutating func cancelDrag(at now: Double) {
        if slide.isDragging { slide.cancel(at: now) }
        wheels?.release(at: now)
    }

    /// Whether the wheels (and, with them, the slider) take input at `now`: not while a PIN
    /// or the unlock command is checked, the password stage is open, or a PIN delay runs.
    package func wheelsTakeInput(at now: Double) -> Bool {
        wheels != nil && !verification.isVerifying && !entry.isOpen && !pinLimiter.isBlocked(at: now)
    }

    /// The parts as they are at `now`: a finished spring-back is rest, an expired refusal is
    /// idle, and the shimmer starts afresh when a refusal stops showing.
    private func settled(at now: Double) -> (slide: Slide, verification: Verification) {
        var slide = self.slide
        var verification = self.verification
        if settings.reduceMotion, case .springing(_, let start) = slide.phase { slide = Slide(phase: .resting(since: start)) }
        slide.advance(to: now)
        if case .refused(let until) = verification.state, now >= until {
            verification.advance(to: now)
            slide.restRestarts(at: until)
        }
        return (slide, verification)
    }

    /// Lets time pass: ends a spring-back, a refusal, an idle password stage, or the whole
    /// gate on timeout. The only action time alone takes is that exit: a host sees the stage
    /// close in `entry`, and wipes the secret as it does for any close.
    package mutating func advance(to now: Double) -> GateAction? {
        guard exitStatus == nil else { return nil }
        (slide, verification) = settled(at: now)
        banners.advance(to: now)
        wheels?.advance(to: now)
        if let idle = idleDeadline, now >= idle { closeEntry(at: now) }
        if let held = heldMatch, now >= held.until { forgetMatch(at: now) }
        if let since = awaitingSince, now >= since + settings.idleLimit {
            stopAwaiting(at: now)
            slide.cancel(at: now)
        }
        if let deadline, now >= deadline {
            if verification.isVerifying {
                timedOutWhileVerifying = true
                return nil
            }
            return finish(.timedOut)
        }
        return nil
    }

    /// Time passes to `now`, then the input counts: it is lost only when time ended the gate.
    package mutating func handle(_ input: GateInput, at now: Double) -> GateAction? {
        defer { if settings.reduceMotion { wheels?.stopTurning() } }
        let wasOpen = entry.isOpen
        if let action = advance(to: now) { return action }
        guard exitStatus == nil else { return nil }
        // A key that comes after the stage closed for want of keys does not open it again at
        // once: the host, which saw it open throughout, would carry the old secret over.
        let closedByTime = wasOpen && !entry.isOpen
        switch input {
        case .signal(let n):
            return finish(.signal(n))
        case .closeRequested:
            return finish(.windowClosed)
        case .press(let x, let y):
            if let row = layout.wheelRow, let index = row.index(atX: x, y: y) {
                if wheelsTakeInput(at: now), !slide.isDragging { wheels?.grab(index, y: row.digits(forPointerY: y), at: now) }
                return nil
            }
            guard !verification.isVerifying, !entry.isOpen, !limiter.isBlocked(at: now), !pinLimiter.isBlocked(at: now),
                wheels?.held == nil, slide.canGrab(at: now), layout.thumb(at: slide.value(at: now)).contains(x: x, y: y)
            else { return nil }
            slide.grab(at: layout.position(forPointerX: x), now: now)
            verification.dismissRefusal()
        case .motion(let x, let y):
            if wheels?.held != nil, let row = layout.wheelRow {
                wheels?.drag(y: row.digits(forPointerY: y), at: now)
            } else {
                slide.move(to: layout.position(forPointerX: x))
            }
        case .release:
            if wheels?.held != nil {
                wheels?.release(at: now)
                return nil
            }
            guard slide.release(at: now) else { return nil }
            if opensBySlide(at: now) { return slideOpened(at: now) }
            if settings.auth.usesPin { return confirmPin() }
            if settings.auth.usesPassword {
                openEntry(at: now)
                return nil
            }
            guard !settings.auth.passive.isEmpty else { return granted() }
            awaitingSince = now
            banners.post(awaitingBanner, at: now)
            return nil
        case .scroll(let x, let y, let down):
            guard wheelsTakeInput(at: now), let index = layout.wheelRow?.index(atX: x, y: y) else { return nil }
            wheels?.scroll(index, by: down ? 1 : -1, at: now)
        case .wheelKey(let key):
            guard settings.auth.keysTurnWheels, wheelsTakeInput(at: now), wheels?.handle(key, at: now) == true,
                !slide.isDragging, slide.canGrab(at: now)
            else { return nil }
            slide.complete()
            verification.dismissRefusal()
            return opensBySlide(at: now) ? slideOpened(at: now) : confirmPin()
        case .pinVerdict(let granted, let message):
            guard checkingPin else { return nil }
            checkingPin = false
            if granted {
                pinLimiter.succeeded()
                return self.granted()
            }
            verification.cancel()
            if timedOutWhileVerifying { return finish(.timedOut) }
            slide.cancel(at: now)
            pinLimiter.failed(at: now)
            banners.post(Banner(.error, message ?? settings.strings[.wrongPin]), at: now)
            if let until = pinLimiter.blockedUntil, pinLimiter.failures >= pinLimiter.countdownFrom {
                banners.post(Banner(.warning, settings.strings[.tryAgainIn], countdownUntil: until), at: now)
            }
            return .scrambleWheels
        case .scramble(let digits):
            wheels?.scramble(to: digits, at: now)
        case .unlockCommandFinished(let succeeded):
            // Only the command this gate asked for: a PIN check also verifies.
            guard verification.isVerifying, runningCommand else { return nil }
            runningCommand = false
            verification.finish(granted: succeeded, at: now)
            if succeeded { return finish(.completed) }
            if timedOutWhileVerifying { return finish(.timedOut) }
            if entry.isOpen { closeEntry(at: now) } else { slide.cancel(at: now) }
            if !settings.bannersInTrack { banners.post(Banner(.error, settings.strings[.refusal]), at: now) }
        case .key(let key):
            guard settings.auth.usesPassword, !verification.isVerifying, !limiter.isBlocked(at: now), !closedByTime else { return nil }
            if !entry.isOpen {
                guard key == .character, !slide.isDragging else { return nil }
                slide.complete()
                openEntry(at: now)
            }
            let edit = entry.handle(key, at: now)
            if !entry.isOpen { closeEntry(at: now) }
            return edit.map { .secret($0) }
        case .keyboardLayout(let name):
            keyboardLayout = name
        case .capsLock(let on):
            capsLock = on
            updateCapsBanner(at: now)
        case .authPrompt(let prompt):
            guard entry.isOpen else { return nil }
            return entry.ask(prompt, at: now).map { .secret($0) }
        case .authMessage(let kind, let text):
            banners.post(Banner(kind, text), at: now)
        case .authVerdict(let granted, let message):
            // Not once another method opened the gate and its unlock command runs.
            guard entry.isOpen, !runningCommand else { return nil }
            if granted {
                limiter.succeeded()
                pinLimiter.succeeded()
                return self.granted()
            }
            limiter.failed(at: now)
            entry.refused(at: now)
            banners.post(Banner(.error, message ?? settings.strings[.wrongPassword]), at: now)
            if let until = limiter.blockedUntil, limiter.failures >= limiter.countdownFrom {
                banners.post(Banner(.warning, settings.strings[.tryAgainIn], countdownUntil: until), at: now)
            }
        case .bannerClicked:
            banners.dismiss(at: now)
        case .methodVerdict(let method, let granted):
            guard method.isPassive, settings.auth.contains(method), !runningCommand else { return nil }
            guard granted else {
                methodLimiter.failed(at: now)
                return nil
            }
            methodLimiter.succeeded()
            // After the slide (the password stage open, a PIN being checked, the thumb
            // waiting at the end): open now. A typed password and a PIN are not waited for.
            if entry.isOpen || checkingPin || awaitingSince != nil {
                checkingPin = false
                stopAwaiting(at: now)
                return self.granted()
            }
            guard settings.holdsMatches else { return nil }
            forgetMatch(at: now)
            heldMatch = HeldMatch(method: method, until: now + Self.matchHold)
            // PAM's own words before the match ("Place your finger…") are stale now.
            banners.withdraw(at: now) { $0.kind == .info && !$0.persistent }
            banners.post(recognisedBanner(method), at: now)
        }
        return nil
    }

    /// Whether the slide alone opens the gate at `now`: in `--grace`, or with a match held.
    package func opensBySlide(at now: Double) -> Bool {
        settings.graceUntil.map { now < $0 } == true || heldMatch.map { now < $0.until } == true
    }

    /// The slide completed while it alone opens the gate: the held match is used up.
    private mutating func slideOpened(at now: Double) -> GateAction {
        forgetMatch(at: now)
        return granted()
    }

    private func recognisedBanner(_ method: AuthMethod) -> Banner {
        Banner(.info, method.recognised(in: settings.strings) ?? "", persistent: true)
    }

    /// What the thumb waiting at the end asks for.
    private var awaitingBanner: Banner {
        let asks = settings.auth.passive.compactMap { $0.asking(in: settings.strings) }
        return Banner(.info, asks.joined(separator: " · "), persistent: true)
    }

    private mutating func forgetMatch(at now: Double) {
        guard let held = heldMatch else { return }
        heldMatch = nil
        let banner = recognisedBanner(held.method)
        banners.withdraw(at: now) { $0 == banner }
    }

    private mutating func stopAwaiting(at now: Double) {
        guard awaitingSince != nil else { return }
        awaitingSince = nil
        let banner = awaitingBanner
        banners.withdraw(at: now) { $0 == banner }
    }

    /// The completion is granted (by the slide alone, or by PAM): run the unlock command,
    /// or end.
    private mutating func granted() -> GateAction {
        guard let command = settings.unlockCommand else { return finish(.completed) }
        verification.begin()
        runningCommand = true
        return .runUnlockCommand(command)
    }

    /// The slide completed (or Enter was pressed) with the wheels set: the helper checks
    /// their digits.
    private mutating func confirmPin() -> GateAction {
        verification.begin()
        checkingPin = true
        return .checkPin
    }

    private mutating func openEntry(at now: Double) {
        entry.open(at: now)
        updateCapsBanner(at: now)
    }

    /// Back to the slider: the stage closes (the guard wipes the secret) and the thumb
    /// springs back.
    private mutating func closeEntry(at now: Double) {
        entry.close()
        slide.cancel(at: now)
        updateCapsBanner(at: now)
    }

    /// "Caps Lock is on" shows while it is on and the password stage is open.
    private mutating func updateCapsBanner(at now: Double) {
        let banner = Banner(.warning, settings.strings[.capsLock], persistent: true)
        if capsLock && entry.isOpen {
            banners.post(banner, at: now)
        } else {
            banners.withdraw(at: now) { $0 == banner }
        }
    }

    private mutating func finish(_ status: ExitStatus) -> GateAction {
        exitStatus = status
        return .exit(status)
    }

    /// The thumb's value at `now`: 0 at the start, 1 at the end.
    package func thumbValue(at now: Double) -> Double {
        settled(at: now).slide.value(at: now)
    }

    package func scene(at now: Double) -> Scene {
        let (slide, verification) = settled(at: now)
        var scene = presenter.scene(
            slide: slide.phase, value: slide.value(at: now), verification: verification.state, entry: entry,
            banners: banners, at: now)
        scene.field?.layout = keyboardLayout
        if let failed = failedAttemptsShown {
            if scene.field != nil {
                scene.field?.failedAttempts = failed
            } else if var label = scene.label, label.placement == .afterThumb {
                label.text = "\(label.text) · \(Self.failedMark)\(failed)"
                scene.label = label
            }
        }
        if let left = settings.countdown ? secondsLeft(at: now) : graceLeft(at: now), scene.field == nil {
            if var label = scene.label, label.placement == .afterThumb {
                label.text = "\(label.text) · \(left)"
                scene.label = label
            } else if scene.label == nil {
                // No label (--text ""): the seconds alone.
                scene.label = Scene.Label(
                    text: "\(left)", placement: .afterThumb, emphasis: .solid, alpha: Presenter.labelAlpha(forValue: scene.thumbValue))
            }
        }
        if let wheels {
            scene.wheels = Scene.WheelsView(
                positions: wheels.positions(at: now), focus: settings.auth.keysTurnWheels ? wheels.focus : nil,
                enabled: !pinLimiter.isBlocked(at: now))
        }
        return scene
    }

    /// `--show-failed-attempts`: the passwords and PINs refused so far, when there were any.
    package var failedAttemptsShown: Int? {
        let failed = limiter.failures + pinLimiter.failures
        return settings.showFailedAttempts && failed > 0 ? failed : nil
    }

    /// What goes before the count of failed attempts on the track: a cross.
    package static let failedMark = "\u{2715}\u{2009}"

    /// The slider as every lock first shows it: the thumb at rest, the label dim between
    /// two sweeps, nothing else in the track (no countdown, banner, prompt or verdict).
    package var restingScene: Scene {
        presenter.scene(slide: .resting(since: 0), value: 0, verification: .idle, at: presenter.shimmer.sweep)
    }

    /// `--countdown`: the whole seconds left until the timeout, counted up (2.1 s left shows 3).
    package func secondsLeft(at now: Double) -> Int? {
        deadline.map { Int(saturating: max(0, ($0 - now).rounded(.up))) }
    }

    /// `--grace`: the whole seconds of grace left, counted up, while it lasts.
    package func graceLeft(at now: Double) -> Int? {
        guard let end = settings.graceUntil, now < end else { return nil }
        return Int(saturating: (end - now).rounded(.up))
    }

    /// `--countdown` (or else `--grace`): when the seconds shown next change.
    private func countdownTick(after now: Double) -> Double? {
        if settings.countdown {
            guard let deadline, let left = secondsLeft(at: now), left > 0 else { return nil }
            return deadline - Double(left - 1)
        }
        guard let end = settings.graceUntil, let left = graceLeft(at: now) else { return nil }
        return end - Double(left - 1)
    }

    /// When the wheels next need a frame (while any turns by itself), or a PIN delay ends.
    private func wheelsChange(after now: Double) -> Double? {
        guard let wheels else { return nil }
        if wheels.isMoving(at: now) { return now + 1 / Double(settings.fps) }
        return pinLimiter.blockedUntil.flatMap { $0 > now ? $0 : nil }
    }

    /// Whether the scene changes by itself after `now` (the shimmer, a spring-back).
    package func animates(at now: Double) -> Bool {
        let (slide, verification) = settled(at: now)
        return presenter.nextFrame(slide: slide.phase, verification: verification.state, entry: entry, after: now) != nil
            || banners.nextChange(after: now, fps: settings.fps) != nil || wheels?.isMoving(at: now) == true
            || countdownTick(after: now) != nil
    }

    /// When the gate next has to act without input (the timeout), or nil: what a process
    /// that only decides, and draws nothing, waits for.
    package var nextActionDeadline: Double? {
        exitStatus != nil
            ? nil
            : [verification.isVerifying ? nil : deadline, idleDeadline, heldMatch?.until, awaitingSince.map { $0 + settings.idleLimit }]
                .compactMap { $0 }.min()
    }

    /// The moment the password stage closes by itself for want of keys, while it is open and
    /// waits for nothing (neither PAM nor the unlock command).
    package var idleDeadline: Double? {
        entry.isOpen && !entry.checking && !verification.isVerifying ? entry.lastActivity + settings.idleLimit : nil
    }

    /// When the scene next changes or the gate next has to act without any input, or nil
    /// when nothing will happen until input arrives.
    package func nextDeadline(after now: Double) -> Double? {
        guard exitStatus == nil else { return nil }
        let (slide, verification) = settled(at: now)
        var next = Earliest()
        next.consider(presenter.nextFrame(slide: slide.phase, verification: verification.state, entry: entry, after: now))
        next.consider(nextChange(after: now, verification: verification))
        return next.time
    }

    /// The shimmer sweep under way at `now` (see `Presenter.sweep`).
    package func shimmerSweep(at now: Double) -> (start: Double, end: Double)? {
        guard exitStatus == nil else { return nil }
        let (slide, verification) = settled(at: now)
        return presenter.sweep(slide: slide.phase, verification: verification.state, entry: entry, at: now)
    }

    /// Like `nextDeadline`, leaving out the slider's own frames (the shimmer, a spring-back,
    /// the field's shake): when a banner, the wheels, the countdown, a refusal or a time limit
    /// next changes the scene or makes the gate act.
    package func nextChangeBesidesTheSlider(after now: Double) -> Double? {
        guard exitStatus == nil else { return nil }
        return nextChange(after: now, verification: settled(at: now).verification)
    }

    private func nextChange(after now: Double, verification: Verification) -> Double? {
        var next = Earliest()
        next.consider(banners.nextChange(after: now, fps: settings.fps))
        next.consider(idleDeadline)
        next.consider(heldMatch?.until)
        next.consider(awaitingSince.map { $0 + settings.idleLimit })
        next.consider(wheelsChange(after: now))
        next.consider(countdownTick(after: now))
        if !verification.isVerifying { next.consider(deadline) }
        if case .refused(let until) = verification.state { next.consider(until) }
        return next.time
    }
}
