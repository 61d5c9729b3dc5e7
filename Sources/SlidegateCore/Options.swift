/// The command line, parsed and validated.
package struct Options: Equatable, Sendable {
    package enum Mode: Equatable, Sendable {
        /// Cover the screen and grab input; the slider at `slider` (relative to the primary
        /// monitor) or at the default place.
        case lock(slider: Geometry?)
        /// An ordinary window of this geometry that is the slider.
        case windowed(Geometry)
    }

    package static let defaultBackground = Color(hex: "#15171c")!
    package static let defaultForeground = Color(hex: "#ffffff")!

    package var text = "slide to unlock"
    package var unlockCommand: String?
    package var timeout: Double?
    package var mode = Mode.lock(slider: nil)
    package var background = Options.defaultBackground
    package var foreground = Options.defaultForeground
    package var fps = 60
    /// `--fork`: once locked, fork; the parent exits 0.
    package var fork = false

    package init() {}

    /// The smallest slider height, and the smallest width as a multiple of the height.
    package static let minimumHeight = 24
    package static let minimumAspect = 2
    package static let maximumSide = 16384

    package var gateSettings: Gate.Settings {
        Gate.Settings(text: text, unlockCommand: unlockCommand, timeout: timeout, fps: fps)
    }
}

/// What the command line asks for.
package enum Invocation: Equatable, Sendable {
    case run(Options)
    case help
    case version
}

extension Options {
    package static let version = "slidegate 0.1.0"

    package static let help = """
        Usage: slidegate [OPTION]...
        Show a slider and wait until it is dragged all the way to the end.

        Without --geometry, slidegate locks the screen: it covers every monitor, grabs the
        keyboard and pointer, and puts the slider on the primary monitor.

          --text TEXT            the label on the track (default "slide to unlock"; "" for none)
          --unlock-command CMD   on completion run CMD with /bin/sh -c; exit 0 if it exits 0,
                                 otherwise say "unlock failed" and let the person try again
          --timeout SECONDS      give up after SECONDS (a decimal > 0) without a completed
                                 slide and exit 4
          --geometry GEOMETRY    windowed mode: an ordinary window of this X geometry, such
                                 as 600x80+100+100 (negative offsets count from the right or
                                 bottom); the window is the slider
          --slider GEOMETRY      lock mode: the slider's rectangle relative to the primary
                                 monitor's top-left corner
          --background COLOR     #RGB, #RRGGBB or #RRGGBBAA (default #15171c; opaque in lock mode)
          --foreground COLOR     label and thumb-arrow colour, same forms (default #ffffff)
          --fps N                animation frame-rate cap, a whole number 1-240 (default 60)
          --fork                 lock mode: once the screen is locked, fork; the parent exits 0
                                 (slidegate --fork && systemctl suspend)
          --help                 print this help and exit
          --version              print the version and exit

        A slider must be at least 24 pixels tall and twice as wide as it is tall.

        Exit status:
          0  the slide was completed (and the unlock command succeeded)
          1  internal error
          2  usage or configuration error
          3  no display, or the lock could not be taken
          4  timed out
          5  the window was closed by the window manager
          128+N  ended by signal N (SIGTERM 143, SIGINT 130, SIGHUP 129)

        """

    private enum Name: String, CaseIterable {
        case text, unlockCommand = "unlock-command", timeout, geometry, slider, background, foreground, fps
        case fork, help, version

        var takesValue: Bool { self != .help && self != .version && self != .fork }

        /// What a value must look like, for error messages.
        var expected: String {
            switch self {
            case .text: "the label text"
            case .unlockCommand: "a shell command"
            case .timeout: "a number of seconds greater than 0, such as 30 or 2.5"
            case .geometry, .slider: "an X geometry such as 600x80+100+100"
            case .background, .foreground: "a colour as #RGB, #RRGGBB or #RRGGBBAA"
            case .fps: "a whole number from 1 to 240"
            case .fork, .help, .version: "no value"
            }
        }
    }

    private static func fail(_ name: String, _ expected: String, got value: String?) -> UserError {
        let given = value.map { "\"\($0)\"" } ?? "nothing"
        return UserError("--\(name): expected \(expected), got \(given)", status: .usage)
    }

    /// Parses the arguments (without the program name). Each option takes its value as the
    /// next argument or after `=`; a later occurrence replaces an earlier one.
    package static func parse(_ arguments: [String]) throws(UserError) -> Invocation {
        var options = Options()
        var geometry: Geometry?
        var slider: Geometry?
        var backgroundText: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UserError("unexpected argument \"\(argument)\"; see slidegate --help", status: .usage)
            }
            let body = argument.dropFirst(2)
            let nameText = String(body.prefix(while: { $0 != "=" }))
            guard let name = Name(rawValue: nameText) else {
                throw UserError("unknown option \"--\(nameText)\"; see slidegate --help", status: .usage)
            }
            var value: String?
            if body.contains("=") {
                value = String(body.drop(while: { $0 != "=" }).dropFirst())
                guard name.takesValue else {
                    throw fail(name.rawValue, name.expected, got: value)
                }
            } else if name.takesValue {
                guard index < arguments.count else { throw fail(name.rawValue, name.expected, got: nil) }
                value = arguments[index]
                index += 1
            }
            func bad() -> UserError { fail(name.rawValue, name.expected, got: value) }
            let v = value ?? ""
            switch name {
            case .help: return .help
            case .version: return .version
            case .fork: options.fork = true
            case .text: options.text = v
            case .unlockCommand:
                guard !v.allSatisfy(\.isWhitespace) else { throw bad() }
                options.unlockCommand = v
            case .timeout:
                guard let seconds = parseSeconds(v) else { throw bad() }
                options.timeout = seconds
            case .fps:
                guard v.count <= 3, v.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(v), (1...240).contains(n)
                else { throw bad() }
                options.fps = n
            case .background, .foreground:
                guard let color = Color(hex: v) else { throw bad() }
                if name == .background {
                    options.background = color
                    backgroundText = v
                } else {
                    options.foreground = color
                }
            case .geometry, .slider:
                guard let g = Geometry(parsing: v) else { throw bad() }
                try checkSize(g, option: name.rawValue, text: v)
                if name == .geometry { geometry = g } else { slider = g }
            }
        }
        if let geometry {
            if slider != nil {
                throw UserError(
                    "--slider: places the slider on the lock screen and cannot be combined with --geometry (windowed mode)",
                    status: .usage)
            }
            if options.fork {
                throw UserError("--fork: locks the screen and cannot be combined with --geometry (windowed mode)", status: .usage)
            }
            options.mode = .windowed(geometry)
        } else {
            options.mode = .lock(slider: slider)
            if !options.background.isOpaque {
                throw UserError(
                    "--background: lock mode needs an opaque colour so nothing behind the lock shows through, got \"\(backgroundText ?? "")\"",
                    status: .usage)
            }
        }
        return .run(options)
    }

    private static func checkSize(_ g: Geometry, option: String, text: String) throws(UserError) {
        guard let w = g.width, let h = g.height else { return }
        guard h >= minimumHeight, w >= minimumAspect * h, w <= maximumSide, h <= maximumSide else {
            throw UserError(
                "--\(option): expected a slider at least \(minimumHeight) pixels tall and at least twice as wide as tall, at most \(maximumSide) pixels either way, got \"\(text)\"",
                status: .usage)
        }
    }

    /// A plain decimal: digits with an optional fraction, greater than 0, at most a year.
    static func parseSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty || parts.count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            parts.contains(where: { !$0.isEmpty }), text.count <= 20,
            let seconds = Double(text), seconds > 0, seconds <= 366 * 86400
        else { return nil }
        return seconds
    }
}
