/// One command-line option, declared once: what `--help`, the error messages, the
/// completions, the man page and the README's option table are made from or checked
/// against (`DocumentationTests`).
package struct OptionSpec: Equatable, Sendable {
    /// Which modes take the option.
    package enum Modes: String, Equatable, Sendable {
        case both, lock, windowed
    }

    /// What follows the option's name.
    package enum Argument: Equatable, Sendable {
        /// A flag: nothing.
        case none
        /// Free text (a label, a number, a colour, a geometry).
        case text
        /// A shell command.
        case command
        /// A path to a file.
        case file
        /// One of a fixed set of words.
        case choice([String])
    }

    /// The headings `--help` and the man page group the options under, in their order.
    package enum Section: String, CaseIterable, Equatable, Sendable {
        case lockScreen = "Lock screen"
        case authentication = "Authentication"
        case looks = "Looks"
        case windowedMode = "Windowed mode"
        case configuration = "Configuration"
        case other = "Other"
    }

    /// How an administrator's enforced setting (`/etc/slidegate/enforced`) binds the
    /// user's file and the command line.
    package enum Enforcement: String, Equatable, Sendable {
        /// The enforced value is the value; another one is refused (a flag: always on).
        case exact
        /// The enforced methods must all be among the user's (`--auth`).
        case atLeast = "at least"
        /// The user's number may not be larger (`--timeout`, `--grace`).
        case atMost = "at most"

        /// Whether a user's `given` value stays within the `enforced` one (both already
        /// well-formed; nil for a flag).
        package func allows(enforced: String?, given: String?) -> Bool {
            switch self {
            case .exact:
                return given == enforced
            case .atLeast:
                guard let enforced = enforced.flatMap(AuthMethods.init(spelled:)), let given = given.flatMap(AuthMethods.init(spelled:))
                else { return false }
                return enforced.methods.allSatisfy(given.contains)
            case .atMost:
                guard let enforced = enforced.flatMap(Double.init), let given = given.flatMap(Double.init) else { return false }
                return given <= enforced
            }
        }
    }

    package var name: String
    package var argument: Argument
    /// The value's name in `--help` and the man page (`TEXT`, `SECONDS`), nil for a flag.
    package var placeholder: String?
    /// What a value must look like, for error messages.
    package var expected: String
    /// The default, as a person would write it, or nil when there is none.
    package var defaultValue: String?
    package var modes: Modes
    package var section: Section
    /// The option's lines in `--help`, already wrapped.
    package var help: [String]
    /// A few words for shell completions.
    package var summary: String
    /// Whether, and how, `/etc/slidegate/enforced` may hold it: the settings that decide who
    /// opens the lock and what runs while it is up, and those a kiosk must keep.
    package var enforcement: Enforcement? = nil
    /// Whether the lock screen's drawing program needs it (it draws it, or its copy of the
    /// gate reads it): the guard sends it as given, and the UI parses it with this table.
    package var look = false
    /// Takes the option's value (`""` for a flag) into what parsing collects, with where it
    /// was given; false when the value is not what `expected` says.
    package var set: @Sendable (inout Options.Parsed, String, Options.Given) -> Bool

    /// Options are the same option when their names are (names are unique).
    package static func == (a: OptionSpec, b: OptionSpec) -> Bool { a.name == b.name }

    package var takesValue: Bool { argument != .none }

    /// The option as `--help` and the man page show it: `--text TEXT`.
    package var usage: String { "--\(name)" + (placeholder.map { " \($0)" } ?? "") }
}

extension OptionSpec {
    /// Every option, in the order `--help` lists them.
    package static let all: [OptionSpec] = [
        OptionSpec(
            name: "slider", argument: .text, placeholder: "GEOMETRY", expected: "an X geometry such as 600x80+100+100",
            defaultValue: nil, modes: .lock, section: .lockScreen,
            help: ["lock mode: the slider's rectangle relative to the primary", "monitor's top-left corner"], summary: "lock mode: the slider rectangle on the primary monitor",
            set: { p, v, g in
                guard let slider = Geometry(parsing: v) else { return false }
                p.slider = (slider, g)
                return true
            }),
        OptionSpec(
            name: "message", argument: .text, placeholder: "TEXT", expected: "a line of text", defaultValue: nil,
            modes: .lock, section: .lockScreen, help: ["lock mode: a line shown above the slider for the whole lock"],
            summary: "lock mode: a line shown above the slider",
            look: true,
            set: { p, v, _ in
                p.options.message = v
                return true
            }),
        OptionSpec(
            name: "clock-format", argument: .text, placeholder: "FORMAT", expected: "a strftime format such as %H:%M",
            defaultValue: "the locale's", modes: .lock, section: .lockScreen,
            help: ["lock mode: strftime format of the clock above the slider (default:", #"the locale's hours and minutes; "" for none)"#],
            summary: "lock mode: the clock's strftime format",
            look: true,
            set: { p, v, _ in
                p.options.clockFormat = v
                return true
            }),
        OptionSpec(
            name: "date-format", argument: .text, placeholder: "FORMAT", expected: "a strftime format such as \"%A %e %B\"",
            defaultValue: "the locale's", modes: .lock, section: .lockScreen,
            help: ["lock mode: strftime format of the date under the clock (default:", #"weekday, day and month in the locale's words; "" for none)"#],
            summary: "lock mode: the date's strftime format",
            look: true,
            set: { p, v, _ in
                p.options.dateFormat = v
                return true
            }),
        OptionSpec(
            name: "no-clock", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .lock, section: .lockScreen,
            help: ["lock mode: no clock and no date"], summary: "lock mode: no clock",
            look: true,
            set: { p, _, _ in
                p.options.noClock = true
                return true
            }),
        OptionSpec(
            name: "blank-after", argument: .text, placeholder: "SECONDS",
            expected: "0 (never) or a number of seconds from 1 to 86400, such as 30", defaultValue: "0", modes: .lock,
            section: .lockScreen,
            help: [
                "lock mode: blank the screen after SECONDS without input (0:",
                "never); Escape on the slider blanks it at once",
            ],
            summary: "lock mode: blank the screen after a while without input",
            enforcement: .exact,
            set: { p, v, _ in
                if v == "0" {
                    p.options.blankAfter = 0
                    return true
                }
                guard let seconds = Options.parseSeconds(v), seconds >= 1, seconds <= 86400 else { return false }
                p.options.blankAfter = seconds
                return true
            }),
        OptionSpec(
            name: "status-command", argument: .command, placeholder: "CMD", expected: "a shell command", defaultValue: nil,
            modes: .lock, section: .lockScreen,
            help: [
                "lock mode: a line under the clock: the first line CMD prints",
                "(/bin/sh -c), run again every --status-interval seconds",
            ],
            summary: "lock mode: a status line from a command's output",
            enforcement: .exact,
            look: true,
            set: { p, v, _ in
                guard !v.allSatisfy(\.isWhitespace) else { return false }
                p.options.statusCommand = v
                return true
            }),
        OptionSpec(
            name: "status-interval", argument: .text, placeholder: "SECONDS", expected: "a number of seconds from 5 to 3600, such as 60",
            defaultValue: "60", modes: .lock, section: .lockScreen,
            help: ["lock mode: how often --status-command runs (default 60)"],
            summary: "lock mode: how often the status command runs",
            look: true,
            set: { p, v, _ in
                guard let seconds = Options.parseSeconds(v), StatusLine.intervals.contains(seconds) else { return false }
                p.options.statusInterval = seconds
                return true
            }),
        OptionSpec(
            name: "show-user", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .lock,
            section: .lockScreen,
            help: ["lock mode: who is locked above the clock: the full name, and", "AccountsService's picture (else ~/.face) in a circle"],
            summary: "lock mode: the user's name and picture",
            look: true,
            set: { p, _, _ in
                p.options.showUser = true
                return true
            }),
        OptionSpec(
            name: "show-media", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .lock,
            section: .lockScreen,
            help: [
                "lock mode: the MPRIS player that plays (else the last that", "changed) above the slider, with previous, play/pause and",
                "next; the media keys act on it",
            ],
            summary: "lock mode: now playing, with media buttons",
            look: true,
            set: { p, _, _ in
                p.options.showMedia = true
                return true
            }),
        OptionSpec(
            name: "show-battery", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .lock,
            section: .lockScreen,
            help: ["lock mode: the battery's level and charging under the clock", "(UPower; nothing without a battery)"],
            summary: "lock mode: the battery level",
            look: true,
            set: { p, _, _ in
                p.options.showBattery = true
                return true
            }),
        OptionSpec(
            name: "speak", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both,
            section: .lockScreen,
            help: [
                "say through speech-dispatcher what the gate shows (never what is", "typed, only how much; never a PIN)",
            ],
            summary: "speak through speech-dispatcher",
            look: true,
            set: { p, _, _ in
                p.options.speak = true
                return true
            }),
        OptionSpec(
            name: "power-actions", argument: .text, placeholder: "LIST",
            expected: "a comma list of suspend, hibernate, reboot and poweroff, such as suspend,poweroff", defaultValue: nil,
            modes: .lock, section: .lockScreen,
            help: [
                "lock mode: buttons for logind's suspend, hibernate, reboot,", "poweroff (a comma list; polkit decides; each shows only when",
                "logind offers it)",
            ],
            summary: "lock mode: power buttons (suspend, hibernate, reboot, poweroff)",
            enforcement: .exact,
            look: true,
            set: { p, v, _ in
                guard let actions = PowerAction.list(v) else { return false }
                p.options.powerActions = actions
                return true
            }),
        OptionSpec(
            name: "image", argument: .file, placeholder: "PATH", expected: "a PNG or JPEG image, or desktop", defaultValue: nil, modes: .lock,
            section: .lockScreen,
            help: ["lock mode: a background image (PNG or JPEG) on every monitor;", "desktop: the screen as it was, blurred (--blur 8 or more)"],
            summary: "lock mode: a background image",
            look: true,
            set: { p, v, _ in
                guard !v.isEmpty else { return false }
                p.options.image = v
                return true
            }),
        OptionSpec(
            name: "blur", argument: .text, placeholder: "RADIUS", expected: "a radius in pixels from 0 to 200, such as 20", defaultValue: "0",
            modes: .lock, section: .lockScreen,
            help: ["lock mode: blur --image by RADIUS pixels (the Gaussian's", "standard deviation at scale 1)"],
            summary: "lock mode: blur the background image",
            look: true,
            set: { p, v, _ in
                guard let radius = Double(v), radius.isFinite, (0...Blur.maximumRadius).contains(radius) else { return false }
                p.options.blur = radius
                return true
            }),
        OptionSpec(
            name: "dim", argument: .text, placeholder: "FRACTION", expected: "a fraction from 0 to 0.9, such as 0.4", defaultValue: "0",
            modes: .lock, section: .lockScreen,
            help: ["lock mode: darken --image by FRACTION (0 to 0.9)"],
            summary: "lock mode: darken the background image",
            look: true,
            set: { p, v, _ in
                guard let fraction = Double(v), fraction.isFinite, (0...0.9).contains(fraction) else { return false }
                p.options.dim = fraction
                return true
            }),
        OptionSpec(
            name: "image-mode", argument: .choice(ImageMode.allCases.map(\.rawValue)), placeholder: "MODE",
            expected: "fill, fit, center, tile or stretch", defaultValue: "fill", modes: .lock, section: .lockScreen,
            help: ["lock mode: how the image meets each monitor: fill (default),", "fit, center, tile or stretch"],
            summary: "lock mode: how the image meets each monitor",
            look: true,
            set: { p, v, _ in
                guard let mode = ImageMode(rawValue: v) else { return false }
                p.options.imageMode = mode
                return true
            }),
        OptionSpec(
            name: "reveal", argument: .choice(Reveal.allCases.map(\.rawValue)), placeholder: "HOW",
            expected: "none, center, left, right, top or bottom", defaultValue: "none", modes: .both, section: .lockScreen,
            help: ["how the gate opens: none (default), center, left, right, top", "or bottom (the cover is cut away over 0.35 s)"],
            summary: "how the gate opens",
            set: { p, v, _ in
                guard let how = Reveal(rawValue: v) else { return false }
                p.options.reveal = how
                return true
            }),
        OptionSpec(
            name: "fork", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .lock, section: .lockScreen,
            help: [
                "lock mode: once the screen is locked, fork; the parent exits 0",
                "(slidegate --fork && systemctl suspend)",
            ], summary: "lock mode: fork once locked; the parent exits 0",
            set: { p, _, _ in
                p.options.fork = true
                return true
            }),
        OptionSpec(
            name: "key-command", argument: .text, placeholder: "KEYSYM=CMD",
            expected: "KEYSYM=COMMAND with a key that types no text (F1-F35, an XF86 key such as XF86AudioRaiseVolume, Print, Pause, Scroll_Lock, Sys_Req, Break, Help or Menu) and a command",
            defaultValue: nil, modes: .lock, section: .lockScreen,
            help: [
                "lock mode: the key KEYSYM (F1-F35, an XF86 key such as",
                "XF86AudioRaiseVolume, Print, Pause…) runs CMD with /bin/sh -c",
                "while locked; repeatable, one a key (the last wins)",
            ],
            summary: "lock mode: a key that runs a command while locked",
            enforcement: .exact,
            set: { p, v, _ in
                guard let binding = KeyCommand(spelled: v) else { return false }
                p.options.keyCommands.removeAll { $0.keysym == binding.keysym }
                p.options.keyCommands.append(binding)
                return true
            }),
        OptionSpec(
            name: "switch-user-command", argument: .command, placeholder: "CMD", expected: "a shell command", defaultValue: nil,
            modes: .lock, section: .lockScreen,
            help: [
                "lock mode: a \"switch user\" button (and Ctrl+Alt+S) runs CMD with",
                "/bin/sh -c, such as dm-tool switch-to-greeter; the lock stays",
            ],
            summary: "lock mode: a switch-user button's command",
            enforcement: .exact,
            set: { p, v, _ in
                guard !v.allSatisfy(\.isWhitespace) else { return false }
                p.options.switchUserCommand = v
                return true
            }),
        OptionSpec(
            name: "auth", argument: .choice(["none"] + AuthMethod.allCases.map(\.rawValue)), placeholder: "METHODS",
            expected: "none, or a comma list of "
                + listed(AuthMethod.allCases.map { "\($0.rawValue) (\($0.brief))" }, last: " and ") + ", each at most once",
            defaultValue: "none", modes: .both, section: .authentication,
            help: wrapped(
                "what opens the gate once the slide completes: none (the slide alone, the default), or a comma list of "
                    + listed(AuthMethod.allCases.map { "\($0.rawValue) (\($0.explained))" }, last: " and ") + ": whichever comes first"),
            summary: "what opens the gate after the slide",
            enforcement: .atLeast,
            look: true,
            set: { p, v, _ in
                guard let methods = AuthMethods(spelled: v) else { return false }
                p.options.auth = methods
                return true
            }),
    ] + AuthMethod.allCases.compactMap(OptionSpec.service) + [
        OptionSpec(
            name: "keyboard", argument: .choice(KeyboardMode.allCases.map(\.rawValue)), placeholder: "WHEN",
            expected: "auto, on or off", defaultValue: "auto", modes: .lock, section: .authentication,
            help: [
                "lock mode, --auth pam: an on-screen keyboard below the password", "field: auto (default: when a slide or tap opened it and no key",
                "was typed since), on (whenever it is open) or off",
            ],
            summary: "lock mode: the on-screen keyboard for the password",
            set: { p, v, _ in
                guard let mode = KeyboardMode(rawValue: v) else { return false }
                p.options.keyboard = mode
                return true
            }),
        OptionSpec(
            name: "pin-file", argument: .file, placeholder: "PATH", expected: "a path to the PIN file",
            defaultValue: "$XDG_CONFIG_HOME/slidegate/pin", modes: .both, section: .authentication,
            help: ["the PIN file for --auth pin and --set-pin (default", "$XDG_CONFIG_HOME/slidegate/pin, else ~/.config/slidegate/pin)"],
            summary: "the PIN file",
            enforcement: .exact,
            set: { p, v, g in
                guard !v.isEmpty else { return false }
                p.options.pinFile = v
                p.pinFileGiven = g
                return true
            }),
        OptionSpec(
            name: "set-pin", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .authentication,
            help: ["read a new PIN (4-12 digits) twice and write the PIN file; exit 0"],
            summary: "set the PIN and exit",
            set: { p, _, _ in
                p.setPin = true
                return true
            }),
        OptionSpec(
            name: "grace", argument: .text, placeholder: "SECONDS", expected: "a number of seconds, 0 or more, such as 5 or 2.5",
            defaultValue: "0", modes: .lock, section: .authentication,
            help: ["lock mode: for SECONDS after the lock is up, the slide alone", "opens it, whatever --auth says"],
            summary: "lock mode: the slide alone opens the lock for a while",
            enforcement: .atMost,
            set: { p, v, _ in
                guard let seconds = v.allSatisfy({ $0 == "0" || $0 == "." }) && v.contains("0") && v.filter({ $0 == "." }).count <= 1
                    ? 0 : Options.parseSeconds(v)
                else { return false }
                p.options.grace = seconds
                return true
            }),
        OptionSpec(
            name: "show-failed-attempts", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .authentication,
            help: [
                "show how many passwords and PINs were refused; in lock mode, a",
                "desktop notification after unlocking says how many, and when",
            ],
            summary: "show the count of failed attempts",
            enforcement: .exact,
            look: true,
            set: { p, _, _ in
                p.options.showFailedAttempts = true
                return true
            }),
        OptionSpec(
            name: "unlock-command", argument: .command, placeholder: "CMD", expected: "a shell command", defaultValue: nil,
            modes: .both, section: .authentication,
            help: [
                "on completion run CMD with /bin/sh -c; exit 0 if it exits 0,",
                #"otherwise say "unlock failed" and let the person try again"#,
            ], summary: "a command that must succeed to unlock",
            enforcement: .exact,
            look: true,
            set: { p, v, _ in
                guard !v.allSatisfy(\.isWhitespace) else { return false }
                p.options.unlockCommand = v
                return true
            }),
        OptionSpec(
            name: "text", argument: .text, placeholder: "TEXT", expected: "the label text", defaultValue: "slide to unlock",
            modes: .both, section: .looks, help: [#"the label on the track (default "slide to unlock"; "" for none)"#], summary: "the label on the track",
            look: true,
            set: { p, v, _ in
                p.options.text = v
                p.options.textGiven = true
                return true
            }),
        OptionSpec(
            name: "theme", argument: .file, placeholder: "DIR", expected: "a theme directory", defaultValue: nil, modes: .both, section: .looks,
            help: ["draw the track and thumb from DIR/track.png and thumb.png,", "stretched nine-slice (resources/themes/classic)"],
            summary: "draw the track and thumb from a theme's images",
            look: true,
            set: { p, v, _ in
                guard !v.isEmpty else { return false }
                p.options.theme = v
                return true
            }),
        OptionSpec(
            name: "background", argument: .text, placeholder: "COLOR", expected: "a colour as #RGB, #RRGGBB or #RRGGBBAA",
            defaultValue: "#15171c", modes: .both, section: .looks,
            help: ["#RGB, #RRGGBB or #RRGGBBAA (default #15171c; opaque in lock mode)"], summary: "background colour",
            look: true,
            set: { p, v, g in
                guard let color = Color(hex: v) else { return false }
                p.options.background = color
                p.options.backgroundGiven = true
                p.backgroundGiven = g
                return true
            }),
        OptionSpec(
            name: "foreground", argument: .text, placeholder: "COLOR", expected: "a colour as #RGB, #RRGGBB or #RRGGBBAA",
            defaultValue: "#ffffff", modes: .both, section: .looks, help: ["label and thumb-arrow colour, same forms (default #ffffff)"], summary: "label and arrow colour",
            look: true,
            set: { p, v, _ in
                guard let color = Color(hex: v) else { return false }
                p.options.foreground = color
                p.options.foregroundGiven = true
                return true
            }),
        OptionSpec(
            name: "scale", argument: .text, placeholder: "FACTOR", expected: "a size factor from 0.5 to 4, such as 1.5",
            defaultValue: "Xft.dpi / 96", modes: .both, section: .looks,
            help: ["size factor for what slidegate sizes itself, 0.5-4 (default: the", "Xft.dpi X resource / 96, else 1)"],
            summary: "size factor (HiDPI)",
            set: { p, v, _ in
                guard v.count <= 8, v.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let factor = Double(v), Options.scales.contains(factor) else { return false }
                p.options.scale = factor
                return true
            }),
        OptionSpec(
            name: "direction", argument: .choice(Direction.allCases.map(\.rawValue)), placeholder: "DIR",
            expected: "ltr, rtl or auto", defaultValue: "auto", modes: .both, section: .looks,
            help: ["which way the thumb slides: ltr, rtl, or auto (default: right to", "left when the label's first letter is Arabic, Hebrew, …)"],
            summary: "which way the thumb slides",
            look: true,
            set: { p, v, _ in
                guard let direction = Direction(rawValue: v) else { return false }
                p.options.direction = direction
                return true
            }),
        OptionSpec(
            name: "fps", argument: .text, placeholder: "N", expected: "a whole number from 1 to 240", defaultValue: "60",
            modes: .both, section: .looks, help: ["animation frame-rate cap, a whole number 1-240 (default 60)"], summary: "animation frame-rate cap",
            set: { p, v, _ in
                guard v.count <= 3, v.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(v, radix: 10), (1...240).contains(n) else { return false }
                p.options.fps = n
                return true
            }),
        OptionSpec(
            name: "reduce-motion", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .looks,
            help: ["no shimmer (the label stays bright), no spring, wheel spin or", "reveal: what moves moves at once"],
            summary: "no animation: what moves moves at once",
            look: true,
            set: { p, _, _ in
                p.options.reduceMotion = true
                return true
            }),
        OptionSpec(
            name: "geometry", argument: .text, placeholder: "GEOMETRY", expected: "an X geometry such as 600x80+100+100",
            defaultValue: nil, modes: .windowed, section: .windowedMode,
            help: [
                "windowed mode: an ordinary window of this X geometry, such",
                "as 600x80+100+100 (negative offsets count from the right or",
                "bottom); the window is the slider",
            ], summary: "windowed mode: the window geometry",
            set: { p, v, g in
                guard let geometry = Geometry(parsing: v) else { return false }
                p.geometry = (geometry, g)
                return true
            }),
        OptionSpec(
            name: "above", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .windowed, section: .windowedMode,
            help: ["windowed mode: keep the window above others (_NET_WM_STATE_ABOVE)"],
            summary: "windowed mode: keep the window above others",
            enforcement: .exact,
            set: { p, _, _ in
                p.options.above = true
                return true
            }),
        OptionSpec(
            name: "undecorated", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .windowed, section: .windowedMode,
            help: ["windowed mode: ask for no title bar or border (_MOTIF_WM_HINTS)"],
            summary: "windowed mode: no window decorations",
            enforcement: .exact,
            set: { p, _, _ in
                p.options.undecorated = true
                return true
            }),
        OptionSpec(
            name: "config", argument: .file, placeholder: "PATH", expected: "a path to a configuration file",
            defaultValue: "$XDG_CONFIG_HOME/slidegate/config", modes: .both, section: .configuration,
            help: [
                "read the user's options from PATH instead of",
                "$XDG_CONFIG_HOME/slidegate/config (else ~/.config/slidegate/config),",
                "after the first slidegate/config of $XDG_CONFIG_DIRS (/etc/xdg);",
                "/etc/slidegate/enforced overrides both and the command line",
            ], summary: "the user's configuration file",
            set: { _, _, _ in true }),
        OptionSpec(
            name: "no-config", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .configuration,
            help: ["read no user's configuration file (the system-wide and enforced", "ones still apply)"],
            summary: "read no user's configuration file",
            set: { _, _, _ in true }),
        OptionSpec(
            name: "check", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both,
            section: .configuration,
            help: [
                "check what a run with these options needs, without locking: where",
                "each setting comes from, the display, the helpers, each --auth",
                "method (a dry run to PAM's first prompt), the files and fonts;",
                "exit 0 when ready, 2 otherwise",
            ], summary: "check the set-up without locking",
            set: { _, _, _ in true }),
        OptionSpec(
            name: "timeout", argument: .text, placeholder: "SECONDS",
            expected: "a number of seconds greater than 0, such as 30 or 2.5", defaultValue: nil, modes: .both, section: .other,
            help: ["give up after SECONDS (a decimal > 0) without a completed", "slide and exit 4"], summary: "give up after this many seconds (exit 4)",
            enforcement: .atMost,
            set: { p, v, _ in
                guard let seconds = Options.parseSeconds(v) else { return false }
                p.options.timeout = seconds
                return true
            }),
        OptionSpec(
            name: "countdown", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .other,
            help: ["with --timeout: show the whole seconds left beside the label"],
            summary: "show the seconds left before the timeout",
            enforcement: .exact,
            look: true,
            set: { p, _, _ in
                p.options.countdown = true
                return true
            }),
        OptionSpec(
            name: "verbose", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .other,
            help: [
                "also say on stderr what needs no action (such as the kernel refusing",
                "the guard's protection from the OOM killer)",
            ],
            summary: "also say what needs no action",
            set: { p, _, _ in
                p.options.verbose = true
                return true
            }),
        OptionSpec(
            name: "help", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .other,
            help: ["print this help and exit"], summary: "print the help and exit",
            set: { p, _, _ in
                p.stop = .help
                return true
            }),
        OptionSpec(
            name: "version", argument: .none, placeholder: nil, expected: "no value", defaultValue: nil, modes: .both, section: .other,
            help: ["print the version and exit"], summary: "print the version and exit",
            set: { p, _, _ in
                p.stop = .version
                return true
            }),
    ]

    /// "a, b or c": `items` joined with commas, the last one with `last`.
    /// The option naming the PAM service `method` runs, for each method that runs one.
    private static func service(_ method: AuthMethod) -> OptionSpec? {
        guard let service = method.service else { return nil }
        return OptionSpec(
            name: service.option, argument: .text, placeholder: "NAME", expected: "a PAM service name without \"/\"",
            defaultValue: service.defaultName, modes: .both, section: .authentication, help: service.help,
            summary: service.summary,
            enforcement: .exact,
            set: { p, v, _ in
                guard let name = Options.serviceName(v) else { return false }
                p.options.services[method] = name
                return true
            })
    }

    static func listed(_ items: [String], last: String) -> String {
        items.dropLast().joined(separator: ", ") + (items.count > 1 ? last : "") + (items.last ?? "")
    }

    /// `text` in lines of at most 66 characters, broken between words.
    static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > 66 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    /// What may not appear in the configuration file: what picks the file, and what does
    /// something other than run the gate.
    package static let commandLineOnly: Set<String> = ["config", "no-config", "help", "version", "set-pin", "check"]

    /// `key-command=none` in the enforced file: no key commands may be given.
    package static let noKeyCommands = "none"

    package static func named(_ name: String) -> OptionSpec? {
        all.first { $0.name == name }
    }

    /// The options' part of `--help`: under each section's heading, each usage in a
    /// 25-column gutter, then its lines.
    package static var helpLines: String {
        Section.allCases.map { section in
            ([section.rawValue + ":"] + all.filter { $0.section == section }.map(\.helpEntry)).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    private var helpEntry: String {
        let gutter = "  " + usage
        let indent = String(repeating: " ", count: 25)
        // A name too long for the gutter stands on a line of its own.
        let first = gutter.count < 24 ? [gutter + String(repeating: " ", count: 25 - gutter.count) + help[0]] : [gutter, indent + help[0]]
        return (first + help.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }
}
