extension Options {
    package static let help = """
        Usage: slidegate [OPTION]...
        Show a slider and wait until it is dragged all the way to the end.

        Without --geometry, slidegate locks the screen: it covers every monitor, grabs the
        keyboard and pointer, and puts the slider on the primary monitor.

        \(OptionSpec.helpLines)

        A slider must be at least 24 pixels tall and twice as wide as it is tall.

        Exit status:
          0  the slide was completed (and the unlock command succeeded)
          1  internal error
          2  usage or configuration error
          3  no display, or the lock could not be taken
          4  timed out
          5  the window was closed by the window manager
          128+N  ended by signal N (SIGTERM 143, SIGINT 130, SIGHUP 129)

        Before trusting a lock to xss-lock, check it: slidegate --check [OPTION]...

        """

    /// Where an option was given, for error messages: the command line says `--fps: …`,
    /// the configuration file `FILE:LINE: fps: …`.
    package enum Origin: Equatable, Sendable {
        case commandLine
        case file(path: String, line: Int, layer: ConfigFile.Layer = .user)

        package func naming(_ name: String) -> String {
            switch self {
            case .commandLine: "--\(name)"
            case .file(let path, let line, _): "\(path):\(line): \(name)"
            }
        }

        /// "FILE:LINE", or "the command line".
        package var place: String {
            switch self {
            case .commandLine: "the command line"
            case .file(let path, let line, _): "\(path):\(line)"
            }
        }

        /// Which file it is, or nil for the command line.
        package var layer: ConfigFile.Layer? {
            if case .file(_, _, let layer) = self { layer } else { nil }
        }
    }

    /// One option as given: its declaration, its value (nil for a flag), and where.
    package struct Given: Equatable, Sendable {
        package var option: OptionSpec
        package var value: String?
        package var origin: Origin

        package init(option: OptionSpec, value: String?, origin: Origin) {
            self.option = option
            self.value = value
            self.origin = origin
        }
    }

    /// What parsing collects: the options, and what is checked once all are read.
    package struct Parsed: Sendable {
        package var options = Options()
        /// `--help` or `--version`: nothing else is looked at.
        package var stop: Invocation?
        package var setPin = false
        package var geometry: (value: Geometry, given: Given)?
        package var slider: (value: Geometry, given: Given)?
        package var backgroundGiven: Given?
        package var pinFileGiven: Given?

        package init() {}
    }

    private static func fail(_ given: Given) -> UserError {
        let shown = given.value.map { "\"\($0)\"" } ?? "nothing"
        return UserError("\(given.origin.naming(given.option.name)): expected \(given.option.expected), got \(shown)", status: .usage)
    }

    /// The command line's options in order (without the program name). Each option takes
    /// its value as the next argument or after `=`.
    package static func tokenize(_ arguments: [String]) throws(UserError) -> [Given] {
        var given: [Given] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UserError("unexpected argument \"\(argument)\"; see slidegate --help", status: .usage)
            }
            let body = argument.dropFirst(2)
            let nameText = String(body.prefix(while: { $0 != "=" }))
            guard let option = OptionSpec.named(nameText) else {
                throw UserError("unknown option \"--\(nameText)\"; see slidegate --help", status: .usage)
            }
            var value: String?
            if body.contains("=") {
                value = String(body.drop(while: { $0 != "=" }).dropFirst())
                guard option.takesValue else { throw fail(Given(option: option, value: value, origin: .commandLine)) }
            } else if option.takesValue {
                guard index < arguments.count else { throw fail(Given(option: option, value: nil, origin: .commandLine)) }
                value = arguments[index]
                index += 1
            }
            given.append(Given(option: option, value: value, origin: .commandLine))
        }
        return given
    }

    /// Parses the arguments (without the program name) over the configuration files'
    /// options, if any (`config`: the system file's, then the user's): the command line
    /// overrides the files, and a later occurrence replaces an earlier one. In a file, an
    /// option of the other mode is ignored, so one file serves lock screens and windowed
    /// gates alike. `enforced` (the administrator's file) overrides everything, and a user's
    /// file or command line that asks for something else is exit 2 naming both places.
    package static func parse(_ arguments: [String], config: [Given] = [], enforced: [Given] = []) throws(UserError)
        -> Invocation
    {
        let (inEffect, commandLine) = try inEffect(arguments, config: config, enforced: enforced)
        var parsed = Parsed()
        for given in inEffect {
            let v = given.value ?? ""
            // Every value fits in what the guard sends its drawing program, with room to spare.
            guard v.utf8.count <= maximumValue else {
                throw UserError(
                    "\(given.origin.naming(given.option.name)): expected at most \(maximumValue) bytes, got \(v.utf8.count)", status: .usage)
            }
            guard given.option.set(&parsed, v, given) else { throw fail(given) }
            if let stop = parsed.stop { return stop }
        }
        var options = parsed.options
        options.looks = OptionSpec.all.filter(\.look).compactMap { spec in
            inEffect.last { $0.option == spec }.map { LookSetting(name: spec.name, value: $0.value ?? "") }
        }
        let (geometry, geometryGiven) = (parsed.geometry?.value, parsed.geometry?.given)
        let (slider, sliderGiven) = (parsed.slider?.value, parsed.slider?.given)
        let backgroundGiven = parsed.backgroundGiven
        let pinFileGiven = parsed.pinFileGiven
        let setPin = parsed.setPin
        if setPin { return .setPin(pinFile: options.pinFile) }
        if options.countdown && options.timeout == nil {
            throw UserError("--countdown: counts down --timeout, which is not given", status: .usage)
        }
        if pinFileGiven?.origin == .commandLine && !options.auth.usesPin {
            throw UserError("--pin-file: the PIN file is only read with pin in --auth, or with --set-pin", status: .usage)
        }
        for method in AuthMethod.allCases where !options.auth.contains(method) {
            guard let name = method.service?.option, commandLine.contains(where: { $0.option.name == name }) else { continue }
            throw UserError("--\(name): the service is only used with \(method.rawValue) in --auth", status: .usage)
        }
        if options.statusCommand == nil, commandLine.contains(where: { $0.option.name == "status-interval" }) {
            throw UserError("--status-interval: says how often --status-command runs, which is not given", status: .usage)
        }
        for name in ["blur", "dim"] where options.image == nil && commandLine.contains(where: { $0.option.name == name }) {
            throw UserError("--\(name): applies to --image, which is not given", status: .usage)
        }
        if options.imageIsDesktop && options.blur < Blur.leastForDesktop {
            throw UserError(
                "--blur: --image desktop needs --blur \(Int(Blur.leastForDesktop)) or more, or the screen's text could be read on the lock",
                status: .usage)
        }
        if options.grace > 0 && options.auth == .none {
            throw UserError("--grace: with --auth none the slide alone always opens the lock; give --auth too", status: .usage)
        }
        if options.showFailedAttempts && options.auth == .none {
            throw UserError("--show-failed-attempts: with --auth none nothing can fail; give --auth too", status: .usage)
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
            if options.message != nil {
                throw UserError(
                    "--message: shows on the lock screen and cannot be combined with --geometry (windowed mode)", status: .usage)
            }
            if let lockOnly = commandLine.first(where: { $0.option.modes == .lock }) {
                throw UserError(
                    "--\(lockOnly.option.name): belongs to the lock screen and cannot be combined with --geometry (windowed mode)",
                    status: .usage)
            }
            options.mode = .windowed(geometry)
            options.sizeGiven = geometryGiven
            try options.checkSize(scale: options.scale ?? 1)
        } else if let windowedOnly = commandLine.first(where: { $0.option.modes == .windowed && $0.option.name != "geometry" }) {
            throw UserError(
                "--\(windowedOnly.option.name): asks the window manager for something, and only windowed mode (--geometry) has a window it manages",
                status: .usage)
        } else {
            options.mode = .lock(slider: slider)
            options.sizeGiven = sliderGiven
            try options.checkSize(scale: options.scale ?? 1)
            if !options.background.isOpaque {
                let naming = backgroundGiven.map { $0.origin.naming("background") } ?? "--background"
                throw UserError(
                    "\(naming): lock mode needs an opaque colour so nothing behind the lock shows through, got \"\(backgroundGiven?.value ?? "")\"",
                    status: .usage)
            }
        }
        return .run(options)
    }

    /// What parsing applies, in order (the files' options of this mode, the command line's,
    /// the enforced ones that stand), and the command line's options as given.
    package static func inEffect(_ arguments: [String], config: [Given], enforced: [Given]) throws(UserError) -> (
        applied: [Given], commandLine: [Given]
    ) {
        let commandLine = try tokenize(arguments)
        let windowed = (config + enforced + commandLine).contains { $0.option.name == "geometry" }
        let inMode: (Given) -> Bool = { $0.option.modes != (windowed ? .lock : .windowed) }
        let (fromFile, given, rules) = try applyingEnforced(enforced.filter(inMode), to: config.filter(inMode), commandLine)
        let pinned = try pinnedByEnforcedAuth(enforced.filter(inMode), windowed: windowed, fromFile, given)
        return (pinned.config + pinned.commandLine + rules, commandLine)
    }

    /// The lock-mode settings that open the lock without `--auth` or run a command while it
    /// is up: with an enforced `auth` each is what the enforced file sets, or none.
    package static let pinnedByEnforcedAuth = ["grace", "timeout", "key-command", "switch-user-command", "status-command"]

    /// With an enforced `auth`, a user's value of a `pinnedByEnforcedAuth` setting the
    /// enforced file does not set is exit 2 naming both (the enforced `auth` would be
    /// bypassed: `--grace` opens by slide, `--timeout` ends the lock, a key command can kill
    /// the guard); the system file's is dropped, as it never overrides an enforced setting.
    private static func pinnedByEnforcedAuth(_ rules: [Given], windowed: Bool, _ config: [Given], _ commandLine: [Given]) throws(UserError)
        -> (config: [Given], commandLine: [Given])
    {
        guard !windowed, let auth = rules.last(where: { $0.option.name == "auth" }) else { return (config, commandLine) }
        let pinned = pinnedByEnforcedAuth.filter { name in !rules.contains { $0.option.name == name } }
        if let given = (config + commandLine).first(where: { pinned.contains($0.option.name) && $0.origin.layer != .system }) {
            let name = given.option.name
            let shown = [given.value].compactMap { $0 }.map { " " + $0 }.joined()
            throw UserError(
                "\(given.origin.naming(name))\(shown): enforced by \(auth.origin.place) (auth=\(auth.value ?? ""): no \(name) unless that file sets one)",
                status: .usage)
        }
        return (config.filter { !pinned.contains($0.option.name) }, commandLine)
    }

    /// The enforced settings against the files' and the command line's: each value must be
    /// well-formed and what a user gives must stay within it (else exit 2 naming both). What
    /// is left to apply: the files' and the command line's entries, then the enforced ones
    /// that are not met by an allowed value of the user's (an `exact` setting is always the
    /// enforced value; the system file never overrides one).
    private static func applyingEnforced(_ rules: [Given], to config: [Given], _ commandLine: [Given]) throws(UserError)
        -> (config: [Given], commandLine: [Given], rules: [Given])
    {
        var config = config
        var commandLine = commandLine
        var applied: [Given] = []
        for name in OptionSpec.all.map(\.name) {
            let every = rules.filter { $0.option.name == name }
            guard let first = every.first, let enforcement = first.option.enforcement else { continue }
            for rule in every where !(name == "key-command" && rule.value == OptionSpec.noKeyCommands) {
                var scratch = Parsed()
                guard first.option.set(&scratch, rule.value ?? "", rule) else { throw fail(rule) }
            }
            // Every key-command line is a binding; of another setting's, as anywhere, the last counts.
            let mine = name == "key-command" ? every : Array(every.suffix(1))
            let users = (config + commandLine).filter { $0.option.name == name && $0.origin.layer != .system }
            for given in users where !mine.contains(where: { enforcement.allows(enforced: $0.value, given: given.value) }) {
                let rule = mine.last ?? first
                let shown = [given.value].compactMap { $0 }.map { " " + $0 }.joined()
                throw UserError(
                    "\(given.origin.naming(name))\(shown): enforced by \(rule.origin.place) (\(name)\(rule.value.map { "=" + $0 } ?? "")\(enforcement == .atMost ? " at most" : ""))",
                    status: .usage)
            }
            let keepUsers = enforcement != .exact && !users.isEmpty
            config.removeAll { $0.option.name == name && (!keepUsers || $0.origin.layer == .system) }
            if !keepUsers {
                commandLine.removeAll { $0.option.name == name }
                applied += mine.filter { !(name == "key-command" && $0.value == OptionSpec.noKeyCommands) }
            }
        }
        return (config, commandLine, applied)
    }

    /// Windowed mode with the PIN wheels: the window is this many track heights tall (the
    /// wheels 2, a gap 0.4, the track 1).
    package static let windowedWheelsShare = 3.4

    /// The given slider's (or window's) size against the minimum at `scale`: at parsing
    /// with `--scale` (else 1), and again once connected with the scale `Xft.dpi` gives.
    package func checkSize(scale: Double) throws(UserError) {
        guard let sizeGiven else { return }
        switch mode {
        case .windowed(let geometry): try Self.checkSize(geometry, sizeGiven, withWheels: auth.usesPin, scale: scale)
        case .lock(let slider?): try Self.checkSize(slider, sizeGiven, scale: scale)
        case .lock(nil): return
        }
    }

    /// A slider's size must leave room for a thumb and a label (24 pixels at scale 1, more
    /// at a larger `--scale`); with the wheels, the track below them (a
    /// `windowedWheelsShare`-th of the window's height) must.
    private static func checkSize(_ g: Geometry, _ given: Given, withWheels: Bool = false, scale: Double = 1) throws(UserError)
    {
        guard let w = g.width, let h = g.height else { return }
        let track = withWheels ? Int(saturating: (Double(h) / windowedWheelsShare).rounded()) : h
        let minimum = Int(saturating: (Double(minimumHeight) * scale).rounded())
        guard track >= minimum, w >= minimumAspect * track, w <= maximumSide, h <= maximumSide else {
            let what = withWheels ? "a window whose track (below the wheels, 1/3.4 of its height) is" : "a slider"
            throw UserError(
                "\(given.origin.naming(given.option.name)): expected \(what) at least \(minimum) pixels tall and at least twice as wide as tall, at most \(maximumSide) pixels either way, got \"\(given.value ?? "")\"",
                status: .usage)
        }
    }

    /// A PAM service's name: a file name in /etc/pam.d, so not empty and without "/".
    static func serviceName(_ text: String) -> String? {
        text.isEmpty || text.contains("/") || text == "." || text == ".." ? nil : text
    }

    /// The PAM service a method runs (nil for the PIN, which the helper checks itself).
    package func service(for method: AuthMethod) -> String? {
        guard let service = method.service else { return nil }
        return services[method] ?? service.defaultName
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
