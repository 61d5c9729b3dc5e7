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
    func settled(at now: Double) -> (slide: Slide, verification: Verification) {
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
}
