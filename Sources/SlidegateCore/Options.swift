/// The command line, parsed and validated.
package struct Options: Equatable, Sendable {
    package enum Mode: Equatable, Sendable {
        /// Cover the screen and grab input; the slider at `slider` (relative to the primary
        /// monitor) or at the default place.
        case lock(slider: Geometry?)
        /// An ordinary window of this geometry that is the slider.
        case windowed(Geometry)
    }

    /// `#15171c`.
    package static let defaultBackground = Color(red: 0x15 / 255, green: 0x17 / 255, blue: 0x1c / 255)
    /// `#ffffff`.
    package static let defaultForeground = Color(red: 1, green: 1, blue: 1)

    package var text = Strings.Key.label.english
    /// `--text` was given (else the label is the translated default).
    package var textGiven = false
    /// The words slidegate shows by itself: English, or translated once parsed.
    package var strings = Strings()

    /// Speaks `words`: the label too, unless `--text` was given.
    package mutating func speak(_ words: Strings) {
        strings = words
        if !textGiven { text = words[.label] }
    }
    package var unlockCommand: String?
    package var timeout: Double?
    package var mode = Mode.lock(slider: nil)
    package var background = Options.defaultBackground
    package var foreground = Options.defaultForeground
    package var fps = 60
    /// `--fork`: once locked, fork; the parent exits 0.
    package var fork = false
    /// Windowed mode: keep the window above others; ask for no decorations.
    package var above = false
    package var undecorated = false
    /// `--countdown`: the seconds left beside the label (needs `--timeout`).
    package var countdown = false
    /// `--reduce-motion`: no shimmer; what moves moves at once.
    package var reduceMotion = false
    package var direction = Direction.auto
    /// `--scale`: the size factor for what slidegate chooses itself, or nil for the X
    /// server's `Xft.dpi` / 96 (else 1).
    package var scale: Double?
    package static let scales = 0.5...4.0
    /// Lock mode: strftime formats for the clock and the date line, nil for the locale's
    /// ("" hides that line); `--no-clock` hides both.
    /// `--theme`: a directory of track and thumb images (checked by the programs).
    package var theme: String?
    /// `--foreground` was given (else a theme's colour wins).
    package var foregroundGiven = false
    /// `--background` was given: a theme's background does not replace it.
    package var backgroundGiven = false
    package var clockFormat: String?
    package var dateFormat: String?
    package var noClock = false
    /// Lock mode: `--image`, a PNG or JPEG drawn on every monitor, and how (`--image-mode`).
    package var image: String?
    package var imageMode = ImageMode.fill
    /// Where `--geometry` or `--slider` with a size came from, to check it again once the
    /// X server's scale is known (`checkSize(scale:)`).
    package var sizeGiven: Given?

    /// `--blank-after`: seconds without input after which the lock blanks the screen, and
    /// Escape on the slider blanks it at once (0: never, and Escape does nothing).
    package var blankAfter = 0.0

    /// `--status-command`: the command whose first line of output shows under the clock,
    /// and `--status-interval`, how often it runs.
    package var statusCommand: String?
    package var statusInterval = StatusLine.defaultInterval

    /// `--show-user`: the user's name and picture above the clock.
    package var showUser = false
    /// `--show-media`, `--show-battery`: the player's panel, the battery in the status strip.
    package var showMedia = false
    package var showBattery = false
    /// `--blur` (0: none) and `--dim` (0: none), for `--image`.
    package var blur = 0.0
    package var dim = 0.0
    /// `--image desktop`: the screen as it was when the lock came.
    package var imageIsDesktop: Bool { image == Self.desktopImage }
    package static let desktopImage = "desktop"
    /// Whether the slider's first frame is kept for the next lock: not over a picture file,
    /// whose pixels the slider shows; with `--image desktop` it is, over the plain
    /// background, the desktop following it.
    package var keepsFirstFrame: Bool { image == nil || imageIsDesktop }
    /// `--speak`: announcements through speech-dispatcher.
    package var speak = false
    /// `--power-actions`, in the order given.
    package var powerActions: [PowerAction] = []

    /// Whether the lock has an on-screen keyboard: `--keyboard` is not off, and the password
    /// is typed (with the PIN wheels, they are the touch path).
    package var hasKeyboard: Bool { keyboard != .off && auth.usesPassword && !auth.usesPin }

    /// Whether the lock screen shows a clock (or a date) at all.
    package var showsClock: Bool { !noClock && (clockFormat != "" || dateFormat != "") }

    /// Whether the thumb slides right to left, as `--direction` and the label decide.
    package var rightToLeft: Bool { direction.isRightToLeft(for: text) }
    package var auth = AuthMethods.none
    /// `--keyboard`: when the on-screen keyboard shows (with `--auth pam`, not `pin`).
    package var keyboard = KeyboardMode.auto
    /// The PAM services given for the methods that run one (`--pam-service`, …); a method
    /// missing here runs its default service.
    package var services: [AuthMethod: String] = [:]
    /// `--grace`: seconds after the lock is up in which the slide alone opens it (0: none).
    package var grace = 0.0
    package var showFailedAttempts = false
    /// `--verbose`: notes that need no action go to stderr too.
    package var verbose = false
    /// `--key-command`: while locked, each key runs its command.
    package var keyCommands: [KeyCommand] = []
    /// `--switch-user-command`: what the switch-user button runs.
    package var switchUserCommand: String?
    /// `--message`: a line above the slider for the whole lock.
    package var message: String?
    package var reveal = Reveal.none
    /// `--pin-file`, or nil for the default place (resolved from the environment when needed).
    package var pinFile: String?
    /// Seconds without a key after which the password stage closes; only the tests change
    /// it (SLIDEGATE_TEST_IDLE_LIMIT, docs/TESTING.md).
    package var idleLimit = PasswordEntry.idleLimit
    /// The look options in effect (`OptionSpec.look`), each as last given, in the table's
    /// order: what the guard sends the lock screen's drawing program.
    package var looks: [LookSetting] = []

    package init() {}

    /// The smallest slider height, and the smallest width as a multiple of the height.
    package static let minimumHeight = 24
    package static let minimumAspect = 2
    package static let maximumSide = 16384
    /// The longest value any option takes, in bytes of UTF-8 (the settings message the UI
    /// gets carries eight of them, and must stay within a frame).
    package static let maximumValue = 4096

    package var gateSettings: Gate.Settings {
        var settings = Gate.Settings(
            text: text, unlockCommand: unlockCommand, timeout: timeout, fps: fps, auth: auth,
            bannersInTrack: { if case .windowed = mode { true } else { false } }())
        settings.idleLimit = idleLimit
        settings.countdown = countdown
        settings.reduceMotion = reduceMotion
        settings.rightToLeft = rightToLeft
        settings.strings = strings
        settings.showFailedAttempts = showFailedAttempts
        return settings
    }
}

/// A look option as given (`OptionSpec.look`): its name and its value ("" for a flag).
package struct LookSetting: Equatable, Hashable, Sendable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Options {
    /// The defaults with `looks` taken as the option table takes them (what the lock
    /// screen's drawing program draws with); nil when one is not a look option, comes
    /// twice, or has a value its option does not take.
    package init?(looks: [LookSetting]) {
        var parsed = Parsed()
        for (index, look) in looks.enumerated() {
            guard let spec = OptionSpec.named(look.name), spec.look, !looks[..<index].contains(where: { $0.name == look.name }),
                look.value.utf8.count <= Self.maximumValue,
                spec.set(&parsed, look.value, Given(option: spec, value: spec.takesValue ? look.value : nil, origin: .commandLine))
            else { return nil }
        }
        self = parsed.options
        self.looks = looks
    }
}

/// `--key-command KEYSYM=COMMAND`: a key that types no text, and what it runs while locked.
package struct KeyCommand: Equatable, Sendable {
    package var name: String
    package var keysym: UInt32
    package var command: String

    /// From `KEYSYM=COMMAND`; nil when the key may not be taken (see `Keysym.commandKey`)
    /// or the command is blank.
    package init?(spelled text: String) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let name = String(text[..<equals])
        let command = String(text[text.index(after: equals)...])
        guard let keysym = Keysym.commandKey(named: name), !command.allSatisfy(\.isWhitespace) else { return nil }
        self.name = name
        self.keysym = keysym
        self.command = command
    }
}

/// What the command line asks for.
package enum Invocation: Equatable, Sendable {
    case run(Options)
    /// `--set-pin`: write a new PIN to the PIN file (`--pin-file`, or the default place).
    case setPin(pinFile: String?)
    case help
    case version
}

extension Options {
    /// The upstream version, the one place it is written: `slidegate --version` prints it
    /// and `./dev package` reads it from here.
    package static let upstreamVersion = "0.2.0"
    package static let version = "slidegate \(upstreamVersion)"
}
