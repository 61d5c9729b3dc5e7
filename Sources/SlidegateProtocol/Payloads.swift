import SlidegateCore

/// What the UI draws with: the look options as given, which it parses with the option
/// table, and what the guard resolved (the words in the person's language, the frame rate
/// and size factor from the monitors and Xft.dpi, the PIN file's length, the gate's moments).
package struct UISettings: Equatable, Sendable {
    package var looks: [LookSetting]
    package var strings = Strings()
    package var fps: Int
    package var scale = 1.0
    package var pinLength: Int
    /// `--grace`: when it ends, on CLOCK_BOOTTIME.
    package var graceUntil: Double?
    /// `Gate.Settings.holdsMatches`: false in a lock taken for sleep.
    package var holdsMatches = true
    package var deadline: Double?

    package init(looks: [LookSetting], fps: Int, pinLength: Int = 0) {
        self.looks = looks
        self.fps = fps
        self.pinLength = pinLength
    }

    /// The options the UI draws with: the looks over the defaults, with what the guard
    /// resolved; nil when a look is not one the option table takes (the reader refuses those).
    package var options: Options? {
        guard var options = Options(looks: looks) else { return nil }
        options.speak(strings)
        options.fps = fps
        options.scale = scale
        return options
    }
}

// Each payload's writer and reader, side by side.

extension UISettings {
    /// `settings`' fields, in the order `GuardMessage.Kind.settings` gives.
    func write(to w: inout FrameWriter) {
        w.u32(UInt32(clamping: looks.count))
        for look in looks {
            w.string(look.name)
            w.string(look.value)
        }
        w.u32(UInt32(clamping: strings.all.count))
        strings.all.forEach { w.string($0) }
        w.u32(UInt32(clamping: fps))
        w.f64(scale)
        w.u32(UInt32(clamping: pinLength))
        w.optional(graceUntil) { $0.f64($1) }
        w.bool(holdsMatches)
        w.optional(deadline) { $0.f64($1) }
    }

    init(reading r: inout FrameReader) throws(ProtocolError) {
        let lookCount = Int(clamping: try r.u32())
        guard lookCount <= OptionSpec.all.count else { throw ProtocolError("settings: \(lookCount) looks") }
        var looks: [LookSetting] = []
        for _ in 0..<lookCount { looks.append(LookSetting(name: try r.string(), value: try r.string())) }
        let count = Int(clamping: try r.u32())
        guard count == Strings().all.count else { throw ProtocolError("settings: \(count) strings") }
        var all: [String] = []
        for _ in 0..<count { all.append(try r.string()) }
        guard let strings = Strings(all: all) else { throw ProtocolError("settings: \(count) strings") }
        let fps = Int(clamping: try r.u32())
        guard (1...240).contains(fps) else { throw ProtocolError("settings: \(fps) frames a second") }
        let scale = try r.f64()
        guard Options.scales.contains(scale) else { throw ProtocolError("settings: size factor \(scale)") }
        let pinLength = Int(clamping: try r.u32())
        guard pinLength <= 12 else { throw ProtocolError("settings: a PIN of \(pinLength) digits") }
        var settings = UISettings(looks: looks, fps: fps, pinLength: pinLength)
        settings.strings = strings
        settings.scale = scale
        settings.graceUntil = try r.optionalF64()
        settings.holdsMatches = try r.bool()
        settings.deadline = try r.optionalF64()
        guard settings.options != nil else {
            throw ProtocolError("settings: looks the option table does not take: \(looks.map(\.name).joined(separator: ","))")
        }
        self = settings
    }
}

extension Gate.Snapshot {
    /// `state`'s fields: u8 slide phase (0 resting, 1 dragging, 2 springing, 3 at end), f64 a,
    /// f64 b (resting: since, 0; dragging: grab offset, value; springing: from, start; at
    /// end: 0, 0); u8 verification (0 idle, 1 verifying, 2 refused, 3 granted), f64
    /// refused-until (else 0); the password entry: u8 open, u8 has prompt, [string prompt,
    /// u8 echo], u32 count, u8 checking, f64 last activity, u8 has shake, [f64 shake start],
    /// u8 submit when asked; the attempt limiter: u32 failures, u8 blocked, [f64 until]; the
    /// banners: u8 showing, [banner, f64 start, u8 leaving, [f64 leaving]], u32 waiting,
    /// banner × waiting (a banner: u8 kind (0 info, 1 warning, 2 error), string text, u8
    /// countdown, [f64 until], u8 persistent); u8 Caps Lock; the wheels: u8 present, [u32
    /// count, u32 focus, u8 held, [u32 which], count × (u8 motion (0 still, 1 held,
    /// 2 coasting, 3 settling), f64 × 5: `Wheel.Motion`'s fields, 0 where unused)]; the PIN
    /// limiter: u32 failures, u8 blocked, [f64 until]; u8 checking the PIN; u8 has held
    /// match, [u8 method, f64 until]; u8 awaiting a method, [f64 since]; the no-typing
    /// methods' limiter: u32 failures, u8 blocked, [f64 until]; u8 has keyboard layout,
    /// [string its short name].
    func write(to w: inout FrameWriter) {
        switch slide {
        case .resting(let since): w.tagged(0, since, 0)
        case .dragging(let offset, let value): w.tagged(1, offset, value)
        case .springing(let from, let start): w.tagged(2, from, start)
        case .atEnd: w.tagged(3, 0, 0)
        }
        switch verification {
        case .idle: w.tagged(0, 0)
        case .verifying: w.tagged(1, 0)
        case .refused(let until): w.tagged(2, until)
        case .granted: w.tagged(3, 0)
        }
        w.entry(entry)
        w.u32(UInt32(clamping: limiter.failures))
        w.optional(limiter.blockedUntil) { $0.f64($1) }
        w.optional(banners.showing) { w, showing in
            w.banner(showing.banner)
            w.f64(showing.start)
            w.optional(showing.leaving) { $0.f64($1) }
        }
        w.u32(UInt32(clamping: banners.waiting.count))
        banners.waiting.forEach { w.banner($0) }
        w.bool(capsLock)
        w.optional(wheels) { w, wheels in w.wheels(wheels) }
        w.u32(UInt32(clamping: pinLimiter.failures))
        w.optional(pinLimiter.blockedUntil) { $0.f64($1) }
        w.bool(checkingPin)
        w.optional(heldMatch) { w, held in
            w.u8(GuardMessage.methodTag(held.method))
            w.f64(held.until)
        }
        w.optional(awaitingSince) { $0.f64($1) }
        w.u32(UInt32(clamping: methodLimiter.failures))
        w.optional(methodLimiter.blockedUntil) { $0.f64($1) }
        w.optional(keyboardLayout) { $0.string($1) }
    }

    init(reading r: inout FrameReader) throws(ProtocolError) {
        let slideTag = try r.u8()
        let a = try r.f64()
        let b = try r.f64()
        let slide: Slide.Phase =
            switch slideTag {
            case 0: .resting(since: a)
            case 1: .dragging(grabOffset: a, value: b)
            case 2: .springing(from: a, start: b)
            case 3: .atEnd
            default: throw ProtocolError("state: unknown slide phase \(slideTag)")
            }
        let verificationTag = try r.u8()
        let until = try r.f64()
        let verification: Verification.State =
            switch verificationTag {
            case 0: .idle
            case 1: .verifying
            case 2: .refused(until: until)
            case 3: .granted
            default: throw ProtocolError("state: unknown verification state \(verificationTag)")
            }
        let entry = try r.entry()
        let limiter = AttemptLimiter(failures: Int(clamping: try r.u32()), blockedUntil: try r.optionalF64())
        let showing = try r.present() ? BannerQueue.Showing(banner: try r.banner(), start: try r.f64(), leaving: try r.optionalF64()) : nil
        let waitingCount = Int(clamping: try r.u32())
        guard waitingCount <= 64 else { throw ProtocolError("state: \(waitingCount) banners waiting") }
        var waiting: [Banner] = []
        for _ in 0..<waitingCount { waiting.append(try r.banner()) }
        let capsLock = try r.bool()
        let wheels = try r.present() ? try r.wheels() : nil
        let pinLimiter = AttemptLimiter(schedule: .pin, failures: Int(clamping: try r.u32()), blockedUntil: try r.optionalF64())
        let checkingPin = try r.bool()
        let heldMatch = try r.present() ? Gate.HeldMatch(method: try r.passiveMethod(), until: try r.f64()) : nil
        let awaitingSince = try r.optionalF64()
        let methodLimiter = AttemptLimiter(failures: Int(clamping: try r.u32()), blockedUntil: try r.optionalF64())
        let keyboardLayout = try r.optionalString()
        self.init(
                slide: slide, verification: verification, entry: entry, limiter: limiter,
                banners: BannerQueue(showing: showing, waiting: waiting), capsLock: capsLock, wheels: wheels,
                pinLimiter: pinLimiter, checkingPin: checkingPin, heldMatch: heldMatch, awaitingSince: awaitingSince,
                methodLimiter: methodLimiter, keyboardLayout: keyboardLayout)
    }
}

extension SliderParts {
    /// `lent`'s fields, in the order `UIMessage.Kind.lent` gives.
    func write(to w: inout FrameWriter) {
        w.u64(track)
        w.u64(thumb)
        w.bool(label != nil)
        if let label = label {
            w.u64(label.pixmap)
            w.f64(label.rect.x)
            w.f64(label.rect.y)
            w.u32(UInt32(clamping: Int(exactly: label.rect.width.rounded()) ?? 0))
            w.u32(UInt32(clamping: Int(exactly: label.rect.height.rounded()) ?? 0))
            w.f64(label.foregroundAlpha)
            w.f64(label.emphasis)
        }
    }

    init(reading r: inout FrameReader) throws(ProtocolError) {
        let track = try r.u64()
        let thumb = try r.u64()
        var label: SliderParts.Label?
        if try r.present() {
            let pixmap = try r.u64()
            let x = try r.f64()
            let y = try r.f64()
            let width = try r.u32()
            let height = try r.u32()
            let foregroundAlpha = try r.f64()
            let emphasis = try r.f64()
            // The guard draws with these: whole pixels a window can hold, alphas that are alphas.
            let side = Double(Options.maximumSide)
            guard x.rounded() == x, y.rounded() == y, abs(x) <= side, abs(y) <= side, width <= Options.maximumSide,
                height <= Options.maximumSide
            else { throw ProtocolError("lent: a label at (\(x), \(y)) of \(width)x\(height)") }
            guard (0...1).contains(foregroundAlpha), (0...1).contains(emphasis) else {
                throw ProtocolError("lent: label alphas \(foregroundAlpha) and \(emphasis)")
            }
            let rect = Rect(x: x, y: y, width: Double(width), height: Double(height))
            label = SliderParts.Label(pixmap: pixmap, rect: rect, foregroundAlpha: foregroundAlpha, emphasis: emphasis)
        }
        self.init(track: track, thumb: thumb, label: label)
    }
}
