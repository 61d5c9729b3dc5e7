import CX11
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateHost
import SlidegateSystem
import SlidegateXlib

/// `slidegate --check [OPTION]...`: everything a run with these options and the
/// configuration file needs, checked without locking. It prints the settings with where each
/// came from, one finding an item, and `ready to lock` (exit 0) or the problems (exit 2).
package enum SetupCheck {
    /// How long a helper or PAM may take to answer before the check says so.
    static let patience = 5.0

    package static func run(_ arguments: [String], uiPath given: String, authPath givenAuth: String) -> ExitStatus {
        // Named as a person would look for them (/usr/libexec/slidegate, not /usr/bin/../libexec).
        let (uiPath, authPath) = (resolvedPath(given), resolvedPath(givenAuth))
        var findings: [SetupReport.Finding] = []
        var (config, enforced) = configFiles(arguments, &findings)
        let options: Options
        let commandLine = (try? Options.tokenize(arguments)) ?? []
        // As parsing decides: a geometry anywhere is windowed mode.
        let windowed = (config + enforced + commandLine).contains { $0.option.name == "geometry" }
        do throws(UserError) {
            options = try parse(arguments, config: &config, enforced: enforced, &findings).prepared()
        } catch {
            findings.append(.init(.problem, "options", error.message))
            return finish(findings, windowed: windowed, settings: nil)
        }
        for given in config where given.option.modes == (windowed ? .lock : .windowed) {
            findings.append(
                .init(
                    .note, "configuration", "\(SetupReport.source(of: given)): \(given.option.name) is for \(windowed ? "lock" : "windowed") mode, not used here"))
        }
        let given = (try? Options.inEffect(arguments, config: config, enforced: enforced).applied) ?? []
        findings += display(options)
        findings += drawingProgram(uiPath)
        if options.auth != .none { findings += authentication(options, helperPath: authPath) }
        // What the guard checks before it locks (a run stops there with exit 2); slidegate-ui
        // then decodes what passes.
        var imageReadable = true
        if let image = options.image, !options.imageIsDesktop {
            do throws(UserError) {
                try BackgroundImageFile.check(image)
            } catch {
                findings.append(.init(.problem, "image", error.message))
                imageReadable = false
            }
        }
        if options.imageIsDesktop {
            let blur = Int(exactly: options.blur).map(String.init) ?? "\(options.blur)"
            let dimmed = options.dim > 0 ? ", dimmed by \(options.dim)" : ""
            findings.append(.init(.ok, "image", "desktop: the screen as the lock finds it, blurred by \(blur)\(dimmed), kept nowhere"))
        }
        findings += looks(options, uiPath: uiPath, decodingTheImage: imageReadable)
        findings.append(Translation.catalogueFinding())
        return finish(findings, windowed: windowed, settings: SetupReport.settings(given, windowed: windowed))
    }

    /// The options, as a run would parse them; a value of the configuration file that a run
    /// would refuse is a problem, and the file's other lines are tried without it.
    private static func parse(
        _ arguments: [String], config: inout [Options.Given], enforced: [Options.Given], _ findings: inout [SetupReport.Finding]
    ) throws(UserError) -> Options {
        while true {
            do throws(UserError) {
                guard case .run(let options) = try Options.parse(arguments, config: config, enforced: enforced) else {
                    throw UserError("--check: checks a run, and does nothing else", status: .usage)
                }
                return options
            } catch {
                let named = { (given: Options.Given) in
                    let naming = given.origin.naming(given.option.name)
                    return error.message.hasPrefix(naming + ":") || error.message.hasPrefix(naming + " ")
                }
                guard let bad = config.firstIndex(where: named) else {
                    throw error
                }
                findings.append(.init(.problem, "configuration", error.message))
                config.remove(at: bad)
            }
        }
    }

    private static func finish(_ findings: [SetupReport.Finding], windowed: Bool, settings: [String]?) -> ExitStatus {
        var lines = ["slidegate --check: \(windowed ? "windowed mode" : "lock mode")"]
        if let settings { lines += ["settings, and where each comes from:"] + settings }
        lines += ["checks:"] + findings.map(\.line) + [SetupReport.verdict(findings, windowed: windowed)]
        print(lines.joined(separator: "\n"))
        return findings.contains { $0.verdict == .problem } ? .usage : .completed
    }

    /// The files' options that can be used — the system file's, then the user's — and the
    /// enforced ones; each line a run would refuse is a problem.
    private static func configFiles(_ arguments: [String], _ findings: inout [SetupReport.Finding]) -> (
        config: [Options.Given], enforced: [Options.Given]
    ) {
        var config: [Options.Given] = []
        if let system = ConfigFile.systemFile() {
            config += readFile(system, subject: "system file", layer: .system, &findings)
        } else {
            let candidates = ConfigFile.systemCandidates(configDirs: getenv("XDG_CONFIG_DIRS").map { String(cString: $0) })
            findings.append(.init(.ok, "system file", "none (\(candidates.joined(separator: ", ")))"))
        }
        do throws(UserError) {
            if let path = try ConfigFile.userFile(for: arguments) {
                config += readFile(path, subject: "configuration", layer: .user, &findings)
            } else if ConfigFile.choice(in: arguments) == .none {
                findings.append(.init(.ok, "configuration", "the user's file is not read (--no-config)"))
            } else {
                let directories = userDirectories()
                let standard = ConfigFile.standardPath(configHome: directories.configHome, home: directories.home)
                findings.append(.init(.ok, "configuration", standard.map { "none at \($0)" } ?? "none (neither XDG_CONFIG_HOME nor HOME is set)"))
            }
        } catch {
            findings.append(.init(.problem, "configuration", error.message))
        }
        var enforced: [Options.Given] = []
        do throws(UserError) {
            if let text = try ConfigFile.enforcedText() {
                for entry in ConfigFile.enforcedEntries(text, path: ConfigFile.enforcedPath) {
                    switch entry {
                    case .success(let given): enforced.append(given)
                    case .failure(let problem): findings.append(.init(.problem, "enforced", problem.message))
                    }
                }
                let names = Set(enforced.map(\.option.name)).sorted().joined(separator: ", ")
                findings.append(.init(.ok, "enforced", "\(ConfigFile.enforcedPath): \(enforced.isEmpty ? "nothing" : names)"))
            } else {
                findings.append(.init(.ok, "enforced", "none (\(ConfigFile.enforcedPath))"))
            }
        } catch {
            findings.append(.init(.problem, "enforced", error.message))
        }
        return (config, enforced)
    }

    /// One configuration file's options; each line it refuses is a problem.
    private static func readFile(
        _ path: String, subject: String, layer: ConfigFile.Layer, _ findings: inout [SetupReport.Finding]
    ) -> [Options.Given] {
        let text: String
        do throws(UserError) {
            text = try ConfigFile.readConfig(path)
        } catch {
            findings.append(.init(.problem, subject, error.message))
            return []
        }
        var given: [Options.Given] = []
        var refused = 0
        for entry in ConfigFile.entries(text, path: path, layer: layer) {
            switch entry {
            case .success(let option): given.append(option)
            case .failure(let problem):
                findings.append(.init(.problem, subject, problem.message))
                refused += 1
            }
        }
        let read = "\(path): \(given.count) setting\(given.count == 1 ? "" : "s") read"
        findings.append(.init(refused == 0 ? .ok : .note, subject, read + (refused == 0 ? "" : ", \(refused) refused")))
        return given
    }

    /// The X display, and the extensions with what each missing one costs.
    private static func display(_ options: Options) -> [SetupReport.Finding] {
        let display: XDisplay
        do throws(UserError) {
            display = try XDisplay()
        } catch {
            return [.init(.problem, "display", error.message)]
        }
        let name = getenv("DISPLAY").map { String(cString: $0) } ?? ""
        let (width, height) = display.rootSize()
        let monitors = display.monitors().count
        var findings = [SetupReport.Finding(.ok, "display", "\(name): \(width)x\(height), \(monitors) monitor\(monitors == 1 ? "" : "s")")]
        do throws(UserError) {
            try options.checkSize(scale: options.scale ?? display.resourceScale())
        } catch {
            findings.append(.init(.problem, "display", error.message))
        }
        var present: [String] = []
        var missing: [SetupReport.Finding] = []
        for (name, shown, cost) in extensions {
            var opcode: Int32 = 0
            var event: Int32 = 0
            var error: Int32 = 0
            var found = XQueryExtension(display.pointer, name, &opcode, &event, &error) != 0
            if found && name == "XInputExtension" {
                var major: Int32 = 2
                var minor: Int32 = 2
                found = XIQueryVersion(display.pointer, &major, &minor) == Success && major >= 2
            }
            if found {
                present.append(shown)
            } else {
                missing.append(.init(.note, "extensions", "no \(shown): \(cost)"))
            }
        }
        findings.append(.init(.ok, "extensions", present.isEmpty ? "none of those slidegate uses" : present.joined(separator: ", ")))
        findings += missing
        if options.blankAfter > 0 { findings.append(blankScreen(display, after: options.blankAfter)) }
        if XGetSelectionOwner(display.pointer, display.atom("_NET_WM_CM_S\(display.screen)")) != 0 {
            findings.append(.init(.ok, "compositor", "one runs: the lock holds the Composite overlay window above it"))
        }
        return findings
    }

    /// `--blank-after`: what blanks the screen on this server.
    private static func blankScreen(_ display: XDisplay, after seconds: Double) -> SetupReport.Finding {
        let shown = Int(exactly: seconds).map(String.init) ?? String(seconds)
        let after = "after \(shown) s without input"
        switch display.dpms {
        case (enabled: true, _)?:
            return .init(.ok, "blank screen", "\(after): the screen saver on and the monitors off (DPMS)")
        case (enabled: false, _)?:
            return .init(.note, "blank screen", "\(after): the screen saver alone; DPMS is disabled (xset +dpms), so the monitors stay on")
        case nil:
            return .init(.note, "blank screen", "\(after): the screen saver alone; this server has no DPMS, so the monitors stay on")
        }
    }

    /// The extensions slidegate uses: the name the server knows, the name shown, and what a
    /// lock does without it.
    private static let extensions = [
        ("RANDR", "RandR", "the screen is covered as one monitor, with the slider in its middle"),
        ("XInputExtension", "XInput 2", "only the core keyboard and pointer are grabbed, and devices plugged in while locked are not watched"),
        ("XKEYBOARD", "XKB", "no Caps Lock warning and no keyboard layout badge"),
        ("Composite", "Composite", "no overlay window to hold (a compositor needs it)"),
        ("Present", "Present", "the shimmer is painted frame by frame"),
        ("SHAPE", "Shape", "--reveal cannot animate: the lock goes at once"),
    ]

    /// slidegate-ui: found, executable, and greeting with this protocol.
    private static func drawingProgram(_ path: String) -> [SetupReport.Finding] {
        let subject = "slidegate-ui"
        do throws(SystemError) {
            let (process, mine) = try start(try Executable(path), ["--lock-ui"], socketOn: 3)
            defer {
                process.signal(SIGKILL)
                process.stop()
            }
            let channel: MessageChannel
            do {
                channel = try MessageChannel(mine)
            } catch {
                mine.close()
                throw error
            }
            var hello: UIMessage?
            let answered = awaitFirst(on: channel) { body throws(ProtocolError) in hello = try UIMessage(body: body) }
            guard answered, case .hello(let version, let build)? = hello else {
                return [.init(.problem, subject, "\(path): gave no handshake within \(Int(patience)) s")]
            }
            guard version == GuardProtocol.version else {
                return [.init(.problem, subject, "\(path): speaks protocol \(version) (\(build)), this slidegate \(GuardProtocol.version): install them together")]
            }
            return [.init(.ok, subject, "\(path): protocol \(version), \(permissions(path))")]
        } catch {
            return [.init(.problem, subject, "\(path): \(String(cString: strerror(error.code)))")]
        }
    }

    /// Starts `program` with the far end of a new socket pair as its descriptor `number`;
    /// the near end comes back with the process.
    private static func start(_ program: Executable, _ arguments: [String], socketOn number: Int32) throws(SystemError) -> (
        ChildProcess, FileDescriptor
    ) {
        let (mine, theirs) = try FileDescriptor.socketPair()
        defer { theirs.close() }
        do {
            return (try program.start(arguments, descriptors: [number: theirs.rawValue]), mine)
        } catch {
            mine.close()
            throw error
        }
    }

    /// Polls `channel` until its first message has been read (true), or it closes or the
    /// patience runs out (false).
    private static func awaitFirst(on channel: MessageChannel, _ each: (ArraySlice<UInt8>) throws(ProtocolError) -> Void) -> Bool {
        let limit = boottimeNow() + patience
        var got = false
        while !got && boottimeNow() < limit {
            var polled = pollfd(fd: channel.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&polled, 1, 50)
            let open = try? channel.receive { (body) throws(ProtocolError) in
                if !got { try each(body) }
                got = true
            }
            guard open == true else { return got }
        }
        return got
    }

    /// Polls `channel` until it has read at least one more message, which go to `each` (every
    /// message read: true), or it closes, sends a malformed one or `limit` passes (false).
    private static func awaitMore(on channel: MessageChannel, until limit: Double, _ each: (ArraySlice<UInt8>) throws(ProtocolError) -> Void) -> Bool {
        var got = false
        while !got && boottimeNow() < limit {
            var polled = pollfd(fd: channel.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&polled, 1, 50)
            let open = try? channel.receive { (body) throws(ProtocolError) in
                try each(body)
                got = true
            }
            guard open == true else { return got }
        }
        return got
    }

    /// How long the dry run waits after the stack's first message for what it does next: a
    /// stack that prints a message and then grants (pam_echo before pam_permit) does so at
    /// once; one still waiting then (a reader that waits for a finger) is ready.
    static let afterMessage = 1.0

    /// slidegate-auth and each method of `--auth`.
    private static func authentication(_ options: Options, helperPath: String) -> [SetupReport.Finding] {
        let subject = "slidegate-auth"
        let program: Executable
        do throws(SystemError) {
            program = try Executable(helperPath)
            let helper = try AuthHelper.start(program)
            helper.process.signal(SIGKILL)
            helper.process.stop()
        } catch {
            return [.init(.problem, subject, "\(helperPath): \(error.description)")]
        }
        var findings = [SetupReport.Finding(.ok, subject, "\(helperPath): protocol \(AuthProtocol.version), \(permissions(helperPath))"), installation(helperPath)]
        for method in options.auth.methods {
            if let service = options.service(for: method) {
                findings += pamService(service, method: method, program: program)
            } else if let pinFile = options.pinFile {
                do throws(UserError) {
                    let file = try PinFile.load(pinFile)
                    findings.append(.init(.ok, "pin", "\(pinFile): a PIN of \(file.length) digits"))
                } catch {
                    findings.append(.init(.problem, "pin", error.message))
                }
            }
        }
        return findings
    }

    /// How the helper is installed: setgid to its own group, so that the kernel keeps other
    /// processes of the user out of its memory, or a plain file (a build tree).
    /// "mode 2755 root:slidegate, readable by all": how a helper is installed.
    private static func permissions(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot be examined" }
        let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
        let group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "gid \(info.st_gid)"
        let readable = info.st_mode & 0o004 != 0 ? "readable by all" : "execute-only for others"
        return "mode \(String(info.st_mode & 0o7777, radix: 8)) \(owner):\(group), \(readable)"
    }

    private static func installation(_ path: String) -> SetupReport.Finding {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_ISGID != 0, let group = getgrgid(info.st_gid) else {
            return .init(
                .note, "slidegate-auth",
                "not installed setgid: another process of yours could read a password from its memory (install the package, or ./dev install as root)")
        }
        return .init(.ok, "slidegate-auth", "setgid \(String(cString: group.pointee.gr_name)): no other process of yours can read its memory")
    }

    /// Where PAM reads a service's file: /etc/pam.d, or pam_wrapper's directory when it is
    /// preloaded (as in slidegate's tests).
    private static var serviceDirectory: String {
        if getenv("PAM_WRAPPER").map({ String(cString: $0) }) == "1", let directory = getenv("PAM_WRAPPER_SERVICE_DIR") {
            return String(cString: directory)
        }
        return "/etc/pam.d"
    }

    /// A PAM service: its file (or the fallback PAM reads without one), and a dry run of the
    /// stack up to its first prompt or message, which is never answered.
    private static func pamService(_ service: String, method: AuthMethod, program: Executable) -> [SetupReport.Finding] {
        let subject = method.rawValue
        let file = serviceDirectory + "/" + service
        var findings: [SetupReport.Finding] = []
        var shown = file
        if access(file, F_OK) != 0 {
            let other = serviceDirectory + "/other"
            guard access(other, F_OK) == 0 else {
                return [.init(.problem, subject, "\(file) does not exist, nor \(other): PAM would refuse, and unlocking would be impossible")]
            }
            findings.append(.init(.note, subject, "\(file) does not exist: PAM reads \(other) instead"))
            shown = other
        }
        if let counter = failureCounter(inStack: shown) {
            findings.append(
                .init(
                    .note, subject,
                    "\(shown) uses \(counter): the dry run below counts there as a failed attempt when the stack refuses before it asks"))
        }
        findings.append(dryRun(service, shownAs: shown, method: method, program: program))
        return findings
    }

    /// The module that counts failed attempts (pam_faillock, pam_tally2) that `file` or a file
    /// it includes (`include`, `substack`, `@include`; up to 16 files) names, if any.
    static func failureCounter(inStack file: String) -> String? {
        var queue = [file]
        var seen: Set<String> = []
        while let path = queue.first, seen.count < 16 {
            queue.removeFirst()
            guard seen.insert(path).inserted, let text = try? readTextFile(path) else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard let first = words.first, !first.hasPrefix("#") else { continue }
                if let counter = words.lazy.compactMap({ word in ["pam_faillock", "pam_tally2"].first { word.hasSuffix($0 + ".so") } }).first {
                    return counter
                }
                let included = first == "@include" ? words.dropFirst().first : words.count > 2 && ["include", "substack"].contains(words[1]) ? words[2] : nil
                if let name = included { queue.append(name.hasPrefix("/") ? String(name) : serviceDirectory + "/" + name) }
            }
        }
        return nil
    }

    private static func dryRun(_ service: String, shownAs file: String, method: AuthMethod, program: Executable) -> SetupReport.Finding {
        let subject = method.rawValue
        let helper: AuthHelper
        do throws(SystemError) {
            helper = try AuthHelper.start(program)
            try helper.channel.send(AuthRequest.begin(service: service, tty: AuthSession.tty))
        } catch {
            return .init(.problem, subject, "the helper could not start \(file): \(error.description)")
        }
        defer {
            helper.process.signal(SIGKILL)
            helper.process.stop()
        }
        var errorText: String?
        var firstMessage: String?
        var limit = boottimeNow() + patience
        var replies: [AuthReply] = []
        while true {
            if replies.isEmpty {
                let more = awaitMore(on: helper.channel, until: limit) { body throws(ProtocolError) in replies.append(try AuthReply(body: body)) }
                guard more else { break }
            }
            switch replies.removeFirst() {
            case .prompt(_, let text):
                return .init(.ok, subject, "\(file): a dry run reached its first prompt, “\(text.trimmedEnd)”")
            case .notice(false, let text):
                // Not yet the stack's answer: what it does next decides.
                if firstMessage == nil {
                    firstMessage = text
                    limit = min(limit, boottimeNow() + afterMessage)
                }
            case .notice(true, let text):
                errorText = text
            case .verdict(.refused, let message):
                let why = [message, errorText].compactMap { $0 }.first.map { " (\($0.trimmedEnd))" } ?? ""
                let cost = method.isPassive ? "\(method.brief) could never open the lock" : "unlocking would be impossible"
                return .init(.problem, subject, "\(file) refuses before it asks anything\(why): \(cost)")
            case .verdict(.granted, _), .verdict(.grantedPasswordExpired, _):
                return .init(.problem, subject, "\(file) grants without asking anything: anyone at the keyboard would unlock")
            case .verdict(.cancelled, _), .hello:
                return .init(.problem, subject, "\(file): the helper answered out of turn")
            }
        }
        if let firstMessage {
            return .init(.ok, subject, "\(file): a dry run reached its first message, “\(firstMessage.trimmedEnd)”, and waits")
        }
        let said = errorText.map { ", only the error “\($0.trimmedEnd)”" } ?? ""
        return .init(.problem, subject, "\(file): no prompt within \(Int(patience)) s\(said)")
    }

    /// The theme, the picture and the fonts, as slidegate-ui (which has the drawing
    /// libraries) finds them.
    private static func looks(_ options: Options, uiPath: String, decodingTheImage: Bool) -> [SetupReport.Finding] {
        var settings = ["text=\(options.text)"]
        if let theme = options.theme { settings.append("theme=\(theme)") }
        if let image = options.image, decodingTheImage, !options.imageIsDesktop { settings.append("image=\(image)") }
        if let scale = options.scale { settings.append("scale=\(scale)") }
        // The drawing program runs the status command, as while locked: the guard never does.
        if let command = options.statusCommand { settings.append("status-command=\(command)") }
        if options.showUser { settings.append("show-user=1") }
        // As do the buses' glances.
        if options.showBattery { settings.append("show-battery=1") }
        if options.showMedia { settings.append("show-media=1") }
        if !options.powerActions.isEmpty { settings.append("power-actions=\(options.powerActions.map(\.rawValue).joined(separator: ","))") }
        // And speech.
        if options.speak { settings.append("speak=1") }
        do throws(SystemError) {
            let (process, mine) = try start(try Executable(uiPath), ["--check-looks"] + settings, socketOn: 1)
            defer { mine.close() }
            defer {
                process.signal(SIGKILL)
                process.stop()
            }
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            // A status command may take its whole time limit.
            let buses = options.showBattery || options.showMedia || !options.powerActions.isEmpty
            let limit = boottimeNow() + patience + (options.statusCommand == nil ? 0 : Double(StatusLine.timeLimit)) + (buses ? 9 : 0)
            while boottimeNow() < limit {
                var polled = pollfd(fd: mine.rawValue, events: Int16(POLLIN), revents: 0)
                _ = poll(&polled, 1, 100)
                guard polled.revents != 0 else { continue }
                let n = read(mine.rawValue, &buffer, buffer.count)
                guard n > 0, output.count < 1 << 16 else { break }
                output += buffer[..<n]
            }
            let findings = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { SetupReport.Finding(wire: $0) }
            return findings.isEmpty && !options.text.isEmpty
                ? [.init(.problem, "slidegate-ui", "\(uiPath) did not report on the theme, picture and fonts")] : findings
        } catch {
            return [.init(.problem, "slidegate-ui", "\(uiPath): \(String(cString: strerror(error.code)))")]
        }
    }
}

extension String {
    /// Without the spaces, colons and newlines PAM ends its prompts with.
    fileprivate var trimmedEnd: String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\n" { text = text.dropLast() }
        return String(text)
    }
}
