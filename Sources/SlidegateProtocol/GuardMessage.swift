import SlidegateCore

/// What the guard tells the UI.
package enum GuardMessage: Framed, Equatable, Sendable {
    case hello(protocol: UInt32, build: String)
    case settings(UISettings)
    case windows(
        cover: UInt64, slider: UInt64, banner: UInt64, message: UInt64, wheels: UInt64, clock: UInt64, switchUser: UInt64, media: UInt64,
        power: UInt64, desktop: UInt64, keyboard: UInt64)
    case layout(width: Int, height: Int, wheels: Rect?)
    case state(Gate.Snapshot)
    case input(GateInput, at: Double)
    case keyPressed
    case ping(UInt32)
    case echo(String)
    case firstFrame(path: String, key: UInt64, shown: UInt64)
    case lend
    case giveBack
    case act(LockControl)
    case focus(LockControl?)
    /// The on-screen keyboard shows this face on this page, or (nil) is hidden.
    case screenKeyboard(KeyboardFace?, KeyboardState)
}

extension GuardMessage {
    /// The byte that names a message's kind on the wire, and the kind's fields in order
    /// (the types as `Framing.swift` writes them; [..] is there only when the u8 before it
    /// is 1). The reader switches over every case, so a new kind is read as soon as it is
    /// written.
    package enum Kind: UInt8, CaseIterable, Sendable {
        /// u32 protocol, string build.
        case hello = 1
        /// `UISettings`: u32 count, (string name, string value) × count: the look options in
        /// effect (`OptionSpec.look`, each once, a flag's value ""), which the UI parses with
        /// the option table; u32 count, string × count: the words the gate shows
        /// (`Strings.all`, translated by the guard); u32 fps (capped at the fastest monitor's
        /// refresh rate); f64 the size factor; u32 the PIN's length (0 without a PIN); u8 has
        /// grace, [f64 when --grace ends]; u8 whether a match made before the slide is held
        /// (0 in a lock taken for sleep); u8 has deadline, [f64 when the timeout ends].
        case settings
        /// u64 the cover (the UI draws --image on it), u64 the slider window, u64 the banner
        /// strip, u64 the --message line, u64 the wheels, u64 the clock, u64 the switch-user
        /// button, u64 the media panel, u64 the power row (0: none), u64 `--image desktop`'s
        /// pixmap of the screen as it was (0: none), of the root's depth and size, u64 the
        /// on-screen keyboard (0: none): the first message after settings, and `layout` the next. They
        /// are of the screen's default visual and depth; the UI asks the server the sizes of
        /// all but the slider, again after each `layout`.
        case windows
        /// u32 width, u32 height: the slider's size; u8 has wheels, [f64 x, y, width, height:
        /// the wheels' row relative to the slider's top-left corner]; lay out anew.
        case layout
        /// The gate's snapshot (`Gate.Snapshot`'s writer, in `Payloads.swift`, names each
        /// field): the slide, the verification, the password entry, the limiters, the
        /// banners, Caps Lock, the wheels, the held match, the waiting thumb, the layout.
        case state
        /// f64 time, u8 `InputTag`, f64 x, f64 y (0 where unused). Times are seconds on
        /// CLOCK_BOOTTIME, which both processes share.
        case input
        /// A key was pressed: nothing moves, but DPMS-blanked monitors woke up.
        case keyPressed
        /// u32 sequence: answer with `pong` of the same sequence.
        case ping
        /// f64 time, string text, u8 echo: PAM asked (an input to the gate).
        case prompt
        /// f64 time, u8 kind (0 info, 1 warning, 2 error), string: PAM said so.
        case notice
        /// f64 time, u8 granted, u8 has message, [string message].
        case verdict
        /// string: what was typed for a prompt whose answer may be shown (never sent for a
        /// hidden prompt).
        case echo
        /// f64 time, u8 granted, u8 has message, [string message]: the helper's verdict on
        /// the wheels' digits (the digits themselves never go to the UI).
        case pin
        /// f64 time, u32 count (at most 12), u8 × count: the wheels spin to these.
        case scramble
        /// string path, u64 key, u64 checksum: where the slider's first frame is kept between
        /// locks and for which key (`FirstFrameFile`), and the checksum of the kept frame the
        /// guard put in the slider window (0: none). Once the UI has painted the slider at
        /// rest between two sweeps, it writes that frame there unless its checksum is this
        /// one. Sent after `state`.
        case firstFrame
        /// The thumb is held: the guard asks for the slider's parts (`lent`) so that it draws
        /// the drag itself, a few XRender requests a frame, and the UI sleeps through it.
        case lend
        /// The guard draws the slider no more: the UI frees the parts and paints the whole
        /// slider. Sent after the newest motion the guard drew, and before whatever ended the
        /// loan.
        case giveBack
        /// f64 time, u8 method (its place in `AuthMethod.allCases`: 2 fingerprint, 3 key),
        /// u8 granted: a no-typing method's verdict.
        case method
        /// f64 time, u8 has, [string]: the keyboard layout's short name, when the server has
        /// more than one.
        case keyboard
        /// u8 the control's bit (`LockControl.bit`): the person pressed that button (or its
        /// media key); the UI asks its player or logind.
        case act
        /// u8 has, [u8 the control's bit]: the keyboard focus is on that control (Tab), or
        /// on none; the UI rings it.
        case focus
        /// u8 shown, [u8 symbols page, u8 Shift, u8 has pressed, [u8 the pressed key's
        /// `keyTag`, never a character's], u8 layout key, u8 has name, [string the layout's
        /// name], u32 rows (at most 3), (u32 count (at most 14), (u32 keysym, u32 shifted
        /// keysym) × count) × rows]: the on-screen keyboard, or that it is hidden.
        case screenKeyboard
    }

    /// The kind this message goes out as.
    package var kind: Kind {
        switch self {
        case .hello: .hello
        case .settings: .settings
        case .windows: .windows
        case .layout: .layout
        case .state: .state
        case .input(.authPrompt, _): .prompt
        case .input(.authMessage, _): .notice
        case .input(.authVerdict, _): .verdict
        case .input(.pinVerdict, _): .pin
        case .input(.scramble, _): .scramble
        case .input(.methodVerdict, _): .method
        case .input(.keyboardLayout, _): .keyboard
        case .input: .input
        case .keyPressed: .keyPressed
        case .ping: .ping
        case .echo: .echo
        case .firstFrame: .firstFrame
        case .lend: .lend
        case .giveBack: .giveBack
        case .act: .act
        case .focus: .focus
        case .screenKeyboard: .screenKeyboard
        }
    }

    /// The byte that names an input in an `input` message: press, motion, scroll (with
    /// x and y), release, the unlock command's end, the password stage's keys, Caps Lock,
    /// a banner clicked, the wheels' keys.
    package enum InputTag: UInt8, CaseIterable, Sendable {
        case press = 0, motion, release, commandSucceeded, commandFailed, character, backspace, clear, escape, enter
        case capsLockOn, capsLockOff, bannerClicked, scrollDown, scrollUp
        case digit0, digit1, digit2, digit3, digit4, digit5, digit6, digit7, digit8, digit9
        case left, right, up, down, wheelEnter
    }
}

extension GuardMessage {
    @discardableResult
    package func appendFrame(to buffer: inout [UInt8]) -> Bool {
        FrameWriter.append(to: &buffer) { w in
            switch self {
            case .hello(let version, let build):
                w.hello(version, build)
            case .settings(let s):
                w.kind(kind)
                s.write(to: &w)
            case .windows(
                let cover, let slider, let banner, let message, let wheels, let clock, let switchUser, let media, let power, let desktop,
                let keyboard):
                w.kind(kind)
                for window in [cover, slider, banner, message, wheels, clock, switchUser, media, power, desktop, keyboard] { w.u64(window) }
            case .layout(let width, let height, let wheels):
                w.kind(kind)
                w.u32(UInt32(clamping: width))
                w.u32(UInt32(clamping: height))
                w.optional(wheels) { w, r in
                    w.f64(r.x)
                    w.f64(r.y)
                    w.f64(r.width)
                    w.f64(r.height)
                }
            case .state(let snapshot):
                w.kind(kind)
                snapshot.write(to: &w)
            case .input(.pinVerdict(let granted, let message), let time):
                w.kind(kind)
                w.f64(time)
                w.bool(granted)
                w.optional(message) { $0.string($1) }
            case .input(.scramble(let digits), let time):
                w.kind(kind)
                w.f64(time)
                w.u32(UInt32(clamping: digits.count))
                digits.forEach { w.u8(UInt8(clamping: $0)) }
            case .input(.methodVerdict(let method, let granted), let time):
                w.kind(kind)
                w.f64(time)
                w.u8(Self.methodTag(method))
                w.bool(granted)
            case .input(.keyboardLayout(let name), let time):
                w.kind(kind)
                w.f64(time)
                w.optional(name) { $0.string($1) }
            case .input(.authPrompt(let prompt), let time):
                w.kind(kind)
                w.f64(time)
                w.string(prompt.text)
                w.bool(prompt.echo)
            case .input(.authMessage(let bannerKind, let text), let time):
                w.kind(kind)
                w.f64(time)
                w.u8(UInt8(clamping: bannerKind.rawValue))
                w.string(text)
            case .input(.authVerdict(let granted, let message), let time):
                w.kind(kind)
                w.f64(time)
                w.bool(granted)
                w.optional(message) { $0.string($1) }
            case .input(let input, let time):
                w.kind(kind)
                w.f64(time)
                switch input {
                case .press(let x, let y): w.input(.press, x, y)
                case .motion(let x, let y): w.input(.motion, x, y)
                case .release: w.input(.release)
                case .unlockCommandFinished(let succeeded): w.input(succeeded ? .commandSucceeded : .commandFailed)
                case .key(let key): w.input(Self.keyTag(key))
                case .capsLock(let on): w.input(on ? .capsLockOn : .capsLockOff)
                case .bannerClicked: w.input(.bannerClicked)
                case .scroll(let x, let y, let down): w.input(down ? .scrollDown : .scrollUp, x, y)
                case .wheelKey(let key): w.input(Self.wheelKeyTag(key))
                case .closeRequested, .signal, .authPrompt, .authMessage, .authVerdict, .pinVerdict, .scramble, .methodVerdict, .keyboardLayout:
                    // Never forwarded this way: not a message.
                    w.refuse()
                }
            case .echo(let text):
                w.kind(kind)
                w.string(text)
            case .ping(let sequence):
                w.kind(kind)
                w.u32(sequence)
            case .firstFrame(let path, let key, let shown):
                w.kind(kind)
                w.string(path)
                w.u64(key)
                w.u64(shown)
            case .keyPressed, .lend, .giveBack:
                w.kind(kind)
            case .act(let control):
                w.kind(kind)
                w.u8(control.bit)
            case .focus(let control):
                w.kind(kind)
                w.optional(control) { $0.u8($1.bit) }
            case .screenKeyboard(let face, let state):
                w.kind(kind)
                w.optional(face) { w, face in
                    w.bool(state.symbols)
                    w.bool(state.shifted)
                    w.optional(state.pressed.flatMap(Self.keyboardKeyTag)) { $0.u8($1) }
                    w.bool(face.layouts)
                    w.optional(face.layoutName) { $0.string($1) }
                    w.u32(UInt32(clamping: face.rows.count))
                    for row in face.rows {
                        w.u32(UInt32(clamping: row.count))
                        for letter in row {
                            w.u32(letter.plain)
                            w.u32(letter.shifted)
                        }
                    }
                }
            }
        }
    }

    /// Reads one frame's body (what follows the length).
    package init(body: ArraySlice<UInt8>) throws(ProtocolError) {
        var r = FrameReader(body)
        let byte = try r.u8()
        guard let kind = Kind(rawValue: byte) else { throw ProtocolError("unknown message kind \(byte)") }
        switch kind {
        case .hello: self = .hello(protocol: try r.u32(), build: try r.string())
        case .settings: self = .settings(try UISettings(reading: &r))
        case .windows:
            self = .windows(
                cover: try r.u64(), slider: try r.u64(), banner: try r.u64(), message: try r.u64(), wheels: try r.u64(),
                clock: try r.u64(), switchUser: try r.u64(), media: try r.u64(), power: try r.u64(), desktop: try r.u64(),
                keyboard: try r.u64())
        case .layout:
            let width = Int(clamping: try r.u32())
            let height = Int(clamping: try r.u32())
            let wheels = try r.present() ? Rect(x: try r.f64(), y: try r.f64(), width: try r.f64(), height: try r.f64()) : nil
            self = .layout(width: width, height: height, wheels: wheels)
        case .state: self = .state(try Gate.Snapshot(reading: &r))
        case .input:
            let time = try r.f64()
            let byte = try r.u8()
            guard let tag = InputTag(rawValue: byte) else { throw ProtocolError("input: unknown input \(byte)") }
            let x = try r.f64()
            let y = try r.f64()
            self = .input(Self.input(tag, x: x, y: y), at: time)
        case .keyPressed: self = .keyPressed
        case .ping: self = .ping(try r.u32())
        case .prompt:
            let time = try r.f64()
            self = .input(.authPrompt(PasswordEntry.Prompt(text: try r.string(), echo: try r.bool())), at: time)
        case .notice:
            let time = try r.f64()
            self = .input(.authMessage(try r.bannerKind(), try r.string()), at: time)
        case .verdict:
            let time = try r.f64()
            self = .input(.authVerdict(granted: try r.bool(), message: try r.optionalString()), at: time)
        case .echo: self = .echo(try r.string())
        case .pin:
            let time = try r.f64()
            self = .input(.pinVerdict(granted: try r.bool(), message: try r.optionalString()), at: time)
        case .scramble:
            let time = try r.f64()
            let count = Int(clamping: try r.u32())
            guard count <= 12 else { throw ProtocolError("scramble: \(count) digits") }
            var digits: [Int] = []
            for _ in 0..<count {
                let d = Int(clamping: try r.u8())
                guard d <= 9 else { throw ProtocolError("scramble: a digit of \(d)") }
                digits.append(d)
            }
            self = .input(.scramble(digits), at: time)
        case .method:
            let time = try r.f64()
            self = .input(.methodVerdict(try r.passiveMethod(), granted: try r.bool()), at: time)
        case .keyboard:
            let time = try r.f64()
            self = .input(.keyboardLayout(try r.optionalString()), at: time)
        case .firstFrame: self = .firstFrame(path: try r.string(), key: try r.u64(), shown: try r.u64())
        case .lend: self = .lend
        case .giveBack: self = .giveBack
        case .act:
            let bit = try r.u8()
            guard let control = LockControl(bit: bit) else { throw ProtocolError("act: unknown control \(bit)") }
            self = .act(control)
        case .focus:
            guard try r.present() else {
                self = .focus(nil)
                break
            }
            let bit = try r.u8()
            guard let control = LockControl(bit: bit) else { throw ProtocolError("focus: unknown control \(bit)") }
            self = .focus(control)
        case .screenKeyboard:
            guard try r.present() else {
                self = .screenKeyboard(nil, KeyboardState())
                break
            }
            let symbols = try r.bool()
            let shifted = try r.bool()
            var pressed: KeyboardAction?
            if try r.present() {
                let tag = try r.u8()
                guard let action = Self.keyboardAction(tag) else { throw ProtocolError("screen keyboard: unknown key \(tag)") }
                pressed = action
            }
            let layouts = try r.bool()
            let name = try r.optionalString()
            let count = Int(clamping: try r.u32())
            guard count <= KeyboardFace.maxRows else { throw ProtocolError("screen keyboard: \(count) rows") }
            var rows: [[KeyboardFace.Letter]] = []
            for _ in 0..<count {
                let letters = Int(clamping: try r.u32())
                guard letters <= KeyboardFace.maxLetters else { throw ProtocolError("screen keyboard: \(letters) letters in a row") }
                var row: [KeyboardFace.Letter] = []
                for _ in 0..<letters { row.append(KeyboardFace.Letter(plain: try r.u32(), shifted: try r.u32())) }
                rows.append(row)
            }
            self = .screenKeyboard(
                KeyboardFace(rows: rows, layouts: layouts, layoutName: name), KeyboardState(symbols: symbols, shifted: shifted, pressed: pressed))
        }
        try r.end()
    }
}

extension GuardMessage {
    static func keyTag(_ key: EntryKey) -> InputTag {
        switch key {
        case .character: .character
        case .backspace: .backspace
        case .clear: .clear
        case .escape: .escape
        case .enter: .enter
        }
    }

    /// The byte of an on-screen key other than a character's (which is never sent).
    static func keyboardKeyTag(_ action: KeyboardAction) -> UInt8? {
        switch action {
        case .type: nil
        case .shift: 1
        case .backspace: 2
        case .enter: 3
        case .page: 4
        case .layout: 5
        case .hide: 6
        }
    }

    static func keyboardAction(_ tag: UInt8) -> KeyboardAction? {
        [KeyboardAction.shift, .backspace, .enter, .page, .layout, .hide].first { keyboardKeyTag($0) == tag }
    }

    /// A method's byte: its place in `AuthMethod.allCases`.
    static func methodTag(_ method: AuthMethod) -> UInt8 {
        UInt8(clamping: AuthMethod.allCases.firstIndex(of: method) ?? 0)
    }

    static func wheelKeyTag(_ key: WheelKey) -> InputTag {
        switch key {
        case .digit(let d): InputTag(rawValue: InputTag.digit0.rawValue + UInt8(clamping: min(max(d, 0), 9))) ?? .digit0
        case .left: .left
        case .right: .right
        case .up: .up
        case .down: .down
        case .enter: .wheelEnter
        }
    }

    /// Whether the UI hears of `input`: the window manager's close and the signals are the
    /// decider's alone, and no message carries them.
    package static func forwards(_ input: GateInput) -> Bool {
        switch input {
        case .closeRequested, .signal: false
        default: true
        }
    }

    /// The input a tag names, with the message's x and y where it has a place.
    static func input(_ tag: InputTag, x: Double, y: Double) -> GateInput {
        switch tag {
        case .press: .press(x: x, y: y)
        case .motion: .motion(x: x, y: y)
        case .release: .release
        case .commandSucceeded: .unlockCommandFinished(succeeded: true)
        case .commandFailed: .unlockCommandFinished(succeeded: false)
        case .character: .key(.character)
        case .backspace: .key(.backspace)
        case .clear: .key(.clear)
        case .escape: .key(.escape)
        case .enter: .key(.enter)
        case .capsLockOn: .capsLock(true)
        case .capsLockOff: .capsLock(false)
        case .bannerClicked: .bannerClicked
        case .scrollDown: .scroll(x: x, y: y, down: true)
        case .scrollUp: .scroll(x: x, y: y, down: false)
        case .digit0, .digit1, .digit2, .digit3, .digit4, .digit5, .digit6, .digit7, .digit8, .digit9:
            .wheelKey(.digit(Int(clamping: tag.rawValue - InputTag.digit0.rawValue)))
        case .left: .wheelKey(.left)
        case .right: .wheelKey(.right)
        case .up: .wheelKey(.up)
        case .down: .wheelKey(.down)
        case .wheelEnter: .wheelKey(.enter)
        }
    }
}
