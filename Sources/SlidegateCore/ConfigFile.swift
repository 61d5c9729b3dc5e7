/// The configuration file (`--config`; swaylock's convention): one long option per line
/// without the leading `--`, `name=value` or `name` alone for a flag; `#` starts a comment
/// line; blank lines are fine; spaces around a line are dropped, those inside a value kept.
package enum ConfigFile {
    /// Where a file's options stand: the system file (`$XDG_CONFIG_DIRS`) under the user's,
    /// and the administrator's enforced settings above both and the command line.
    package enum Layer: String, Equatable, Sendable {
        case system, user, enforced
    }

    /// The administrator's settings that neither the user's file nor the command line can
    /// change. A fixed place: nothing a user sets may point elsewhere.
    package static let enforcedDirectory = "/etc/slidegate"
    package static let enforcedPath = enforcedDirectory + "/enforced"

    /// Where the system file may be, in order: `slidegate/config` in each directory of
    /// `$XDG_CONFIG_DIRS` (absolute ones only, as the XDG Base Directory specification says),
    /// else in /etc/xdg. The first that exists is read.
    package static func systemCandidates(configDirs: String?) -> [String] {
        let directories = (configDirs ?? "").split(separator: ":").filter { $0.hasPrefix("/") }
        return (directories.isEmpty ? ["/etc/xdg"] : directories.map(String.init)).map { $0 + "/slidegate/config" }
    }

    /// Which file the command line asks for.
    package enum Choice: Equatable, Sendable {
        /// `$XDG_CONFIG_HOME/slidegate/config`, else `~/.config/slidegate/config`; a missing
        /// one is fine.
        case standard
        /// `--config PATH`: it must exist.
        case given(String)
        /// `--no-config`.
        case none
    }

    /// The choice the command line makes (the last of `--config` and `--no-config`). The
    /// arguments are checked in full later; this only looks for those two.
    package static func choice(in arguments: [String]) -> Choice {
        var choice = Choice.standard
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--no-config" {
                choice = .none
            } else if argument == "--config", index < arguments.count {
                choice = .given(arguments[index])
                index += 1
            } else if argument.hasPrefix("--config=") {
                choice = .given(String(argument.dropFirst("--config=".count)))
            } else if let option = OptionSpec.named(String(argument.dropFirst(2).prefix { $0 != "=" })), option.takesValue,
                !argument.contains("=")
            {
                // Skip the value, which may look like an option (--text --config).
                index += 1
            }
        }
        return choice
    }

    /// The standard place for the file.
    package static func standardPath(configHome: String?, home: String?) -> String? {
        userFile("config", configHome: configHome, home: home)
    }

    /// Where slidegate keeps a file of the user's (`config`, `pin`): in
    /// `$XDG_CONFIG_HOME/slidegate`, else `~/.config/slidegate`; nil without either.
    package static func userFile(_ name: String, configHome: String?, home: String?) -> String? {
        if let configHome, configHome.hasPrefix("/") { return configHome + "/slidegate/" + name }
        guard let home, !home.isEmpty else { return nil }
        return home + "/.config/slidegate/" + name
    }

    /// The file's options in order; an error names the file and the line.
    package static func parse(_ text: String, path: String, layer: Layer = .user) throws(UserError) -> [Options.Given] {
        var given: [Options.Given] = []
        for entry in layer == .enforced ? enforcedEntries(text, path: path) : entries(text, path: path, layer: layer) {
            switch entry {
            case .success(let option): given.append(option)
            case .failure(let problem): throw problem
            }
        }
        return given
    }

    /// Each option line of the file, read or refused with the file and the line named;
    /// `slidegate --check` reports them all, a run stops at the first refused.
    package static func entries(_ text: String, path: String, layer: Layer = .user) -> [Result<Options.Given, UserError>] {
        var entries: [Result<Options.Given, UserError>] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let origin = Options.Origin.file(path: path, line: number + 1, layer: layer)
            let name = String(line.prefix { $0 != "=" }).trimmingSpaces
            func problem(_ text: String) -> Result<Options.Given, UserError> {
                .failure(UserError("\(path):\(number + 1): \(text)", status: .usage))
            }
            guard let option = OptionSpec.named(name) else {
                entries.append(problem(name.hasPrefix("-") ? "write \"\(line.drop { $0 == "-" })\", without the dashes" : "unknown option \"\(name)\""))
                continue
            }
            guard !OptionSpec.commandLineOnly.contains(name) else {
                entries.append(problem("\(name): only on the command line"))
                continue
            }
            let value = line.contains("=") ? String(line.drop { $0 != "=" }.dropFirst()).trimmingSpaces : nil
            guard option.takesValue == (value != nil) else {
                let shown = value.map { "\"\($0)\"" } ?? "nothing"
                entries.append(problem("\(name): expected \(option.expected), got \(shown)"))
                continue
            }
            entries.append(.success(Options.Given(option: option, value: value, origin: origin)))
        }
        return entries
    }
}

extension ConfigFile {
    /// The enforced file's lines, as `entries` reads them, where each option must be one the
    /// table marks enforceable; `key-command=none` allows no key commands at all.
    package static func enforcedEntries(_ text: String, path: String) -> [Result<Options.Given, UserError>] {
        entries(text, path: path, layer: .enforced).map { entry in
            guard case .success(let given) = entry, given.option.enforcement == nil else { return entry }
            let enforceable = OptionSpec.all.filter { $0.enforcement != nil }.map(\.name).joined(separator: ", ")
            return .failure(UserError("\(given.origin.naming(given.option.name)): cannot be enforced (these can: \(enforceable))", status: .usage))
        }
    }
}

extension StringProtocol {
    /// Without spaces, tabs and carriage returns at either end.
    package var trimmingSpaces: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
