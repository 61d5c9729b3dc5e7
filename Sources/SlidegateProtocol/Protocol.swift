import SlidegateCore

// The protocol between the lock-mode guard (`slidegate`) and the processes it supervises.
//
// The UI (`slidegate-ui --lock-ui`) draws the slider in a window the guard owns. The guard
// holds one end of a Unix stream socket, the UI the other as its descriptor 3. The
// authentication helper's protocol (AuthProtocol.swift) uses the same framing. Each kind is
// a case of `GuardMessage.Kind` or `UIMessage.Kind`, whose raw value is the byte below.
//
// FRAMING
//   Every message is one frame: a 4-byte little-endian length N (1 ≤ N ≤ 65536), then N
//   bytes: one byte naming the kind, then the kind's fields in order. A message that would
//   not fit is not sent (`appendFrame` says false; the sender handles it): the limits on
//   options, banners and texts keep every message the guard sends well inside. Fields are
//     u8, u32, u64         little-endian unsigned integers
//     f64                  an IEEE 754 double's bits, little-endian
//     string               u32 byte count, then that many bytes of UTF-8
//   A frame whose length is out of range, whose kind is unknown, whose fields run past its
//   end or leave bytes over, or whose string is not UTF-8, is malformed.
//
// HANDSHAKE
//   The guard speaks first: `hello`, then `settings`. The UI answers `hello`. Each side
//   checks that the other's first message is `hello` and that its protocol number equals
//   its own (a second `hello` is malformed); the build string is for messages only.
//   A boolean (u8) is 0 or 1; any other byte is malformed. A UI that gets a malformed frame, an unknown kind or another protocol
//   number exits with status 10 (`GuardProtocol.uiStatus`), which the guard reports by
//   name; a guard that gets a malformed frame from the UI ends that UI and starts another.
//
// GUARD → UI
//   hello    (1)  u32 protocol, string build
//   settings (2)  u32 count, (string name, string value) × count: the look options in
//                 effect (`OptionSpec.look`, each once, a flag's value ""), which the UI
//                 parses with the option table; u32 count, string × count: the words the
//                 gate shows (`Strings.all`, translated by the guard); u32 fps (capped at
//                 the fastest monitor's refresh rate); f64 the size factor; u32 the PIN's
//                 length (the number of wheels; 0 without a PIN); u8 has grace, [f64 when
//                 --grace ends]; u8 whether a match made before the slide is held (0 in a
//                 lock taken for sleep); u8 has deadline, [f64 when the timeout ends]
//   windows  (3)  u64 the cover (the UI draws --image on it), u64 the slider window, u64 the
//                 banner strip, u64 the --message line, u64 the wheels, u64 the clock,
//                 u64 the switch-user button (0: none): the first message after settings,
//                 and `layout` the next. They are of the screen's default visual and depth.
//                 The UI asks the server the sizes of all but the slider, again after each
//                 `layout`.
//   layout   (4)  u32 width, u32 height: the slider's size; u8 has wheels, [f64 x, y,
//                 width, height: the wheels' row relative to the slider's top-left corner,
//                 which is where both gates put it]; lay out anew
//   state    (5)  the gate's snapshot: u8 slide phase (0 resting, 1 dragging, 2 springing,
//                 3 at end), f64 a, f64 b (resting: since, 0; dragging: grab offset, value;
//                 springing: from, start; at end: 0, 0), u8 verification (0 idle,
//                 1 verifying, 2 refused, 3 granted), f64 refused-until (else 0); the
//                 password entry: u8 open, u8 has prompt, [string prompt, u8 echo],
//                 u32 count, u8 checking, f64 last activity, u8 has shake, [f64 shake
//                 start], u8 submit when asked; the attempt limiter: u32 failures, u8 blocked, [f64 until]; the
//                 banners: u8 showing, [banner, f64 start, u8 leaving, [f64 leaving]],
//                 u32 waiting, banner × waiting; u8 Caps Lock. A banner is u8 kind (0 info,
//                 1 warning, 2 error), string text, u8 countdown, [f64 until], u8 persistent.
//                 Then the wheels: u8 present, [u32 count, u32 focus, u8 held, [u32 which],
//                 count × (u8 motion (0 still, 1 held, 2 coasting, 3 settling), f64 × 5: the
//                 motion's fields in `Wheel.Motion`'s order, 0 where unused)]; the PIN
//                 limiter: u32 failures, u8 blocked, [f64 until]; u8 checking the PIN;
//                 u8 has held match, [u8 method (2 fingerprint, 3 key), f64 until];
//                 u8 awaiting a method, [f64 since]; the no-typing methods' limiter:
//                 u32 failures, u8 blocked, [f64 until]; u8 has keyboard layout, [string
//                 its short name].
//                 [..] is present only when the u8 before it is 1.
//   input    (6)  f64 time, u8 input (0 press, 1 motion, 2 release, 3 unlock command
//                 succeeded, 4 unlock command failed, 5 key character, 6 backspace,
//                 7 clear, 8 escape, 9 enter, 10 Caps Lock on, 11 Caps Lock off,
//                 12 banner clicked, 13 scroll down, 14 scroll up, 15–24 wheel key digit
//                 0–9, 25 left, 26 right, 27 up, 28 down, 29 enter), f64 x, f64 y (0 where
//                 unused). Times are seconds on CLOCK_BOOTTIME, which both processes share.
//   prompt   (9)  f64 time, string text, u8 echo: PAM asked (an input to the gate)
//   notice   (10) f64 time, u8 kind (0 info, 1 warning, 2 error), string: PAM said so
//   verdict  (11) f64 time, u8 granted, u8 has message, [string message]
//   pin      (13) f64 time, u8 granted, u8 has message, [string message]: the helper's
//                 verdict on the wheels' digits (the digits themselves never go to the UI)
//   scramble (14) f64 time, u32 count (at most 12), u8 × count: the wheels spin to these
//   method   (18) f64 time, u8 method (2 fingerprint, 3 key), u8 granted: a no-typing
//                 method's verdict
//   keyboard (19) f64 time, u8 has, [string]: the keyboard layout's short name, when the
//                 server has more than one
//   echo     (12) string: what was typed for a prompt whose answer may be shown (never
//                 sent for a hidden prompt)
//   key      (7)  a key was pressed: nothing moves, but DPMS-blanked monitors woke up
//   ping     (8)  u32 sequence: answer with `pong` of the same sequence
//   first frame (15) string path, u64 key, u64 checksum: where the slider's first frame
//                 is kept between locks and for which key (`FirstFrameFile`), and the
//                 checksum of the kept frame the guard put in the slider window (0: none).
//                 Once the UI has painted the slider at rest between two sweeps, it writes
//                 that frame there unless its checksum is this one. Sent after `state`.
//   lend     (16) the thumb is held: the guard asks for the slider's parts (`lent`) so
//                 that it draws the drag itself, a few XRender requests a frame, and the
//                 UI sleeps through it
//   give back (17) the guard draws the slider no more (the drag ended, or anything but
//                 the thumb's place is about to change): the UI frees the parts and paints
//                 the whole slider. Sent after the newest motion the guard drew, and before
//                 whatever ended the loan.
//
// UI → GUARD
//   hello    (1)  u32 protocol, string build
//   drawn    (9)  the UI has put a whole frame in the slider window, or is ready to and
//                 waits for a blank screen to come back
//   pong     (10) u32 sequence
//   lent     (11) the answer to `lend`: u64 the track's pixmap (the background and the
//                 track, the slider's size, at the window's top-left corner), u64 the
//                 thumb's pixmap (its glyph included, the layout's thumb side square),
//                 u8 has label, [u64 the label's pixmap, f64 x, f64 y (whole pixels, in
//                 the window, at most 16384 from its corner), u32 width, u32 height (each
//                 at most 16384), f64 the foreground's alpha, f64 the emphasis' factor
//                 (the dim text's, or 1; both from 0 to 1)]: pixmaps of depth 32 holding
//                 premultiplied ARGB, already on the server. From here until `give back`
//                 the UI paints nothing in the slider window.
//   not lent (12) the answer to `lend` when the slider shows more than a drag changes
//                 (a prompt, a busy thumb, a sweep) or the server has no 32-bit pixmaps
//
// No message ever carries a secret: the UI gets what it draws, nothing more.
package enum GuardProtocol {
    /// Bumped whenever a message's meaning or fields change.
    package static let version: UInt32 = 10
    /// The UI's exit status when it cannot understand the guard.
    package static let uiStatus: Int32 = 10
    package static let maximumFrame = 65536
}

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
        options.strings = strings
        if !options.textGiven { options.text = strings[.label] }
        options.fps = fps
        options.scale = scale
        return options
    }
}

/// What the guard tells the UI.
package enum GuardMessage: Framed, Equatable, Sendable {
    case hello(protocol: UInt32, build: String)
    case settings(UISettings)
    case windows(cover: UInt64, slider: UInt64, banner: UInt64, message: UInt64, wheels: UInt64, clock: UInt64, switchUser: UInt64)
    case layout(width: Int, height: Int, wheels: Rect?)
    case state(Gate.Snapshot)
    case input(GateInput, at: Double)
    case keyPressed
    case ping(UInt32)
    case echo(String)
    case firstFrame(path: String, key: UInt64, shown: UInt64)
    case lend
    case giveBack
}

extension GuardMessage {
    /// The byte that names a message's kind on the wire (see the table at the top). The
    /// reader switches over every case, so a new kind is read as soon as it is written.
    package enum Kind: UInt8, CaseIterable, Sendable {
        case hello = 1, settings, windows, layout, state, input, keyPressed, ping, prompt, notice, verdict, echo, pin, scramble
        case firstFrame, lend, giveBack, method, keyboard
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
        }
    }

    /// The byte that names an input in an `input` message.
    package enum InputTag: UInt8, CaseIterable, Sendable {
        case press = 0, motion, release, commandSucceeded, commandFailed, character, backspace, clear, escape, enter
        case capsLockOn, capsLockOff, bannerClicked, scrollDown, scrollUp
        case digit0, digit1, digit2, digit3, digit4, digit5, digit6, digit7, digit8, digit9
        case left, right, up, down, wheelEnter
    }
}

/// What the UI tells the guard.
package enum UIMessage: Framed, Equatable, Sendable {
    case hello(protocol: UInt32, build: String)
    case drawn
    case pong(UInt32)
    case lent(SliderParts)
    case notLent
}

extension UIMessage {
    /// The byte that names a message's kind on the wire.
    package enum Kind: UInt8, CaseIterable, Sendable {
        case hello = 1, drawn = 9, pong, lent, notLent
    }

    /// The kind this message goes out as.
    package var kind: Kind {
        switch self {
        case .hello: .hello
        case .drawn: .drawn
        case .pong: .pong
        case .lent: .lent
        case .notLent: .notLent
        }
    }
}

/// The slider's parts the UI lends the guard for a drag, as pixmaps on the server (depth
/// 32, premultiplied ARGB): a frame is the track, the label over it at the alpha the thumb's
/// place gives, and the thumb at its place.
package struct SliderParts: Equatable, Sendable {
    package struct Label: Equatable, Sendable {
        package var pixmap: UInt64
        /// Where the pixmap's top-left corner is in the window (whole pixels), and its size.
        package var rect: Rect
        /// The label is drawn at `foregroundAlpha × the scene's label alpha × emphasis`, in
        /// that order (the UI's own arithmetic).
        package var foregroundAlpha: Double
        package var emphasis: Double

        package init(pixmap: UInt64, rect: Rect, foregroundAlpha: Double, emphasis: Double) {
            self.pixmap = pixmap
            self.rect = rect
            self.foregroundAlpha = foregroundAlpha
            self.emphasis = emphasis
        }

        /// The alpha the label is drawn at when the scene's label has `alpha`.
        package func alpha(_ alpha: Double) -> Double {
            foregroundAlpha * alpha * emphasis
        }
    }

    package var track: UInt64
    package var thumb: UInt64
    package var label: Label?

    package init(track: UInt64, thumb: UInt64, label: Label?) {
        self.track = track
        self.thumb = thumb
        self.label = label
    }
}

/// Why a frame could not be read.
package struct ProtocolError: Error, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
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
            case .windows(let cover, let slider, let banner, let message, let wheels, let clock, let switchUser):
                w.kind(kind)
                w.u64(cover)
                w.u64(slider)
                w.u64(banner)
                w.u64(message)
                w.u64(wheels)
                w.u64(clock)
                w.u64(switchUser)
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
                clock: try r.u64(), switchUser: try r.u64())
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

extension UIMessage {
    @discardableResult
    package func appendFrame(to buffer: inout [UInt8]) -> Bool {
        FrameWriter.append(to: &buffer) { w in
            switch self {
            case .hello(let version, let build):
                w.hello(version, build)
            case .drawn, .notLent:
                w.kind(kind)
            case .pong(let sequence):
                w.kind(kind)
                w.u32(sequence)
            case .lent(let parts):
                w.kind(kind)
                parts.write(to: &w)
            }
        }
    }

    package init(body: ArraySlice<UInt8>) throws(ProtocolError) {
        var r = FrameReader(body)
        let byte = try r.u8()
        guard let kind = Kind(rawValue: byte) else { throw ProtocolError("unknown message kind \(byte)") }
        switch kind {
        case .hello: self = .hello(protocol: try r.u32(), build: try r.string())
        case .drawn: self = .drawn
        case .pong: self = .pong(try r.u32())
        case .lent: self = .lent(try SliderParts(reading: &r))
        case .notLent: self = .notLent
        }
        try r.end()
    }
}

// Each payload's writer and reader, side by side.

extension UISettings {
    /// `settings`' fields, in the order the table at the top gives.
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
    /// `state`'s fields, in the order the table at the top gives.
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
    /// `lent`'s fields, in the order the table at the top gives.
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

/// A message that goes out as one frame.
package protocol Framed {
    /// Appends the whole frame, length first, to `buffer`: a sender's pending bytes take a
    /// message without an allocation once the buffer has grown to its working size. A
    /// message that cannot be framed (over `GuardProtocol.maximumFrame`) leaves `buffer` as
    /// it was and says false.
    @discardableResult
    func appendFrame(to buffer: inout [UInt8]) -> Bool
}

extension Framed {
    /// The whole frame, length first, as a new array; empty when it cannot be framed.
    package var frame: [UInt8] {
        var bytes: [UInt8] = []
        appendFrame(to: &bytes)
        return bytes
    }
}

/// Splits a byte stream into frame bodies. A body is a view of the buffer, valid until the
/// next `append`; consumed frames are dropped then, in place.
package struct FrameBuffer {
    private var bytes: [UInt8] = []
    /// Where the next frame starts.
    private var start = 0

    package init() {}

    package mutating func append(_ data: ArraySlice<UInt8>) {
        if start > 0 {
            bytes.removeFirst(start)
            start = 0
        }
        bytes.append(contentsOf: data)
    }

    /// The next whole frame's body, nil until one has arrived; throws on a bad length.
    package mutating func next() throws(ProtocolError) -> ArraySlice<UInt8>? {
        guard bytes.count - start >= 4 else { return nil }
        let length = Int(clamping: bytes[start]) | Int(clamping: bytes[start + 1]) << 8 | Int(clamping: bytes[start + 2]) << 16 | Int(clamping: bytes[start + 3]) << 24
        guard (1...GuardProtocol.maximumFrame).contains(length) else { throw ProtocolError("a frame of \(length) bytes") }
        guard bytes.count - start >= 4 + length else { return nil }
        let body = bytes[(start + 4)..<(start + 4 + length)]
        start += 4 + length
        return body
    }
}

/// Writes one frame at the end of a byte buffer: the length, patched in once the body is
/// written, then the body.
struct FrameWriter {
    private(set) var body: [UInt8] = []
    /// The message is not one that can be sent.
    private var refused = false

    /// Appends the frame `write` writes to `buffer`, in `buffer`'s own storage; a frame that
    /// is too long, or that `write` refused, is taken back, and the answer is false.
    static func append(to buffer: inout [UInt8], _ write: (inout FrameWriter) -> Void) -> Bool {
        var w = FrameWriter()
        swap(&w.body, &buffer)
        let start = w.body.count
        w.u32(0)
        write(&w)
        let length = w.body.count - start - 4
        let fits = !w.refused && length <= GuardProtocol.maximumFrame
        if fits {
            for i in 0..<4 { w.body[start + i] = UInt8(truncatingIfNeeded: length >> (8 * i)) }
        } else {
            w.body.removeSubrange(start...)
        }
        swap(&w.body, &buffer)
        return fits
    }

    /// The message being written is not sent at all.
    mutating func refuse() { refused = true }

    mutating func u8(_ v: UInt8) { body.append(v) }

    /// Kind 1, the same both ways: the protocol number and the build.
    mutating func hello(_ version: UInt32, _ build: String) {
        u8(GuardMessage.Kind.hello.rawValue)
        u32(version)
        string(build)
    }

    mutating func kind(_ kind: GuardMessage.Kind) { u8(kind.rawValue) }
    mutating func kind(_ kind: UIMessage.Kind) { u8(kind.rawValue) }

    /// A boolean: 1 or 0 (the reader takes nothing else).
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }

    /// An `input` message's tag and place (0, 0 where the input has none).
    mutating func input(_ tag: GuardMessage.InputTag, _ x: Double = 0, _ y: Double = 0) { tagged(tag.rawValue, x, y) }

    mutating func u32(_ v: UInt32) { littleEndian(UInt64(clamping: v), bytes: 4) }

    mutating func u64(_ v: UInt64) { littleEndian(v, bytes: 8) }

    /// The low `bytes` bytes of `v`, least significant first. (A loop over a range, not
    /// `stride`: a stride's iterator is generic code of the standard library that the
    /// linker cannot place with the rest of what a resting lock runs.)
    private mutating func littleEndian(_ v: UInt64, bytes: Int) {
        for i in 0..<bytes { body.append(UInt8(truncatingIfNeeded: v >> UInt64(clamping: 8 * i))) }
    }

    mutating func f64(_ v: Double) { u64(v.bitPattern) }

    mutating func string(_ s: String) {
        u32(UInt32(clamping: s.utf8.count))
        body.append(contentsOf: s.utf8)
    }

    mutating func color(_ c: Color) {
        f64(c.red)
        f64(c.green)
        f64(c.blue)
        f64(c.alpha)
    }

    /// A tag byte and one value.
    mutating func tagged(_ tag: UInt8, _ a: Double) {
        u8(tag)
        f64(a)
    }

    /// A tag byte and two values.
    mutating func tagged(_ tag: UInt8, _ a: Double, _ b: Double) {
        u8(tag)
        f64(a)
        f64(b)
    }

    /// A tag byte and five values (a wheel's motion).
    mutating func tagged(_ tag: UInt8, _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double) {
        tagged(tag, a, b)
        f64(c)
        f64(d)
        f64(e)
    }

    /// A flag byte, then the value when there is one.
    mutating func optional<T>(_ value: T?, _ write: (inout FrameWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func banner(_ b: Banner) {
        u8(UInt8(clamping: b.kind.rawValue))
        string(b.text)
        optional(b.countdownUntil) { $0.f64($1) }
        bool(b.persistent)
    }

    mutating func entry(_ e: PasswordEntry) {
        bool(e.isOpen)
        optional(e.prompt) { w, prompt in
            w.string(prompt.text)
            w.bool(prompt.echo)
        }
        u32(UInt32(clamping: e.count))
        bool(e.checking)
        f64(e.lastActivity)
        optional(e.shakeStart) { $0.f64($1) }
        bool(e.submitWhenAsked)
    }

    mutating func wheels(_ wheels: Wheels) {
        u32(UInt32(clamping: wheels.count))
        u32(UInt32(clamping: wheels.focus))
        optional(wheels.held) { $0.u32(UInt32(clamping: $1)) }
        for wheel in wheels.wheels {
            switch wheel.motion {
            case .still(let p): tagged(0, p, 0, 0, 0, 0)
            case .held(let anchor, let anchorY, let y, let velocity, let lastTime): tagged(1, anchor, anchorY, y, velocity, lastTime)
            case .coasting(let from, let velocity, let rate, let start, let target): tagged(2, from, velocity, rate, start, target)
            case .settling(let from, let velocity, let target, let start, let end): tagged(3, from, velocity, target, start, end)
            }
        }
    }
}

struct FrameReader {
    private var rest: ArraySlice<UInt8>

    init(_ body: ArraySlice<UInt8>) {
        rest = body
    }

    private mutating func take(_ n: Int) throws(ProtocolError) -> ArraySlice<UInt8> {
        guard rest.count >= n else { throw ProtocolError("a message ends early") }
        defer { rest = rest.dropFirst(n) }
        return rest.prefix(n)
    }

    private mutating func unsigned(_ bytes: Int) throws(ProtocolError) -> UInt64 {
        try take(bytes).reversed().reduce(0) { $0 << 8 | UInt64(clamping: $1) }
    }

    mutating func u8() throws(ProtocolError) -> UInt8 { UInt8(clamping: try unsigned(1)) }
    mutating func u32() throws(ProtocolError) -> UInt32 { UInt32(clamping: try unsigned(4)) }
    mutating func u64() throws(ProtocolError) -> UInt64 { try unsigned(8) }
    mutating func f64() throws(ProtocolError) -> Double { Double(bitPattern: try u64()) }

    mutating func string() throws(ProtocolError) -> String {
        let count = Int(clamping: try u32())
        guard count <= rest.count else { throw ProtocolError("a string runs past its message") }
        guard let text = String(validating: try take(count), as: UTF8.self) else {
            throw ProtocolError("a string is not UTF-8")
        }
        return text
    }

    mutating func color() throws(ProtocolError) -> Color {
        Color(red: try f64(), green: try f64(), blue: try f64(), alpha: try f64())
    }

    /// A boolean: 1 or 0, nothing else.
    mutating func bool() throws(ProtocolError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let flag: throw ProtocolError("a boolean of \(flag)")
        }
    }

    /// A presence flag: true when a value follows.
    mutating func present() throws(ProtocolError) -> Bool { try bool() }

    mutating func optionalF64() throws(ProtocolError) -> Double? { try present() ? try f64() : nil }
    mutating func optionalString() throws(ProtocolError) -> String? { try present() ? try string() : nil }

    /// A method that needs no typing, by its byte (`GuardMessage.methodTag`).
    mutating func passiveMethod() throws(ProtocolError) -> AuthMethod {
        let raw = Int(clamping: try u8())
        guard raw < AuthMethod.allCases.count, AuthMethod.allCases[raw].isPassive else {
            throw ProtocolError("unknown no-typing method \(raw)")
        }
        return AuthMethod.allCases[raw]
    }

    mutating func bannerKind() throws(ProtocolError) -> Banner.Kind {
        let raw = try u8()
        guard let kind = Banner.Kind(rawValue: Int(clamping: raw)) else { throw ProtocolError("unknown banner kind \(raw)") }
        return kind
    }

    mutating func banner() throws(ProtocolError) -> Banner {
        let kind = try bannerKind()
        let text = try string()
        let until = try optionalF64()
        return Banner(kind, text, countdownUntil: until, persistent: try bool())
    }

    mutating func entry() throws(ProtocolError) -> PasswordEntry {
        let isOpen = try bool()
        let prompt = try present() ? PasswordEntry.Prompt(text: try string(), echo: try bool()) : nil
        return PasswordEntry(
            isOpen: isOpen, prompt: prompt, count: Int(clamping: try u32()), checking: try bool(), lastActivity: try f64(),
            shakeStart: try optionalF64(), submitWhenAsked: try bool())
    }

    mutating func wheels() throws(ProtocolError) -> Wheels {
        let count = Int(clamping: try u32())
        guard (1...12).contains(count) else { throw ProtocolError("state: \(count) wheels") }
        let focus = Int(clamping: try u32())
        let held = try present() ? Int(clamping: try u32()) : nil
        guard focus < count, (held ?? 0) < count else { throw ProtocolError("state: wheel focus or hold out of range") }
        var wheels: [Wheel] = []
        for _ in 0..<count {
            let tag = try u8()
            let f = [try f64(), try f64(), try f64(), try f64(), try f64()]
            let motion: Wheel.Motion =
                switch tag {
                case 0: .still(f[0])
                case 1: .held(anchor: f[0], anchorY: f[1], y: f[2], velocity: f[3], lastTime: f[4])
                case 2: .coasting(from: f[0], velocity: f[1], rate: f[2], start: f[3], target: f[4])
                case 3: .settling(from: f[0], velocity: f[1], target: f[2], start: f[3], end: f[4])
                default: throw ProtocolError("state: unknown wheel motion \(tag)")
                }
            wheels.append(Wheel(motion: motion))
        }
        return Wheels(wheels: wheels, focus: focus, held: held)
    }

    func end() throws(ProtocolError) {
        guard rest.isEmpty else { throw ProtocolError("\(rest.count) bytes left over in a message") }
    }
}
