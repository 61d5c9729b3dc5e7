/// The system-wide configuration file the package installs as /etc/xdg/slidegate/config:
/// every option a file may hold, commented out with its default, under `--help`'s
/// headings (as sshd_config is). Made from the option table by `./dev docs`.
package enum ConfigTemplate {
    package static let path = "packaging/xdg/slidegate/config"

    package static var text: String {
        var lines = [
            "# slidegate's system-wide configuration (\(Completions.header)).",
            "#",
            "# Every user's slidegate reads this file first, then the user's own",
            "# ($XDG_CONFIG_HOME/slidegate/config, else ~/.config/slidegate/config), then its",
            "# command line: a later setting wins. Settings that no user may change go in",
            "# \(ConfigFile.enforcedPath) (root's, the same syntax; see slidegate(1)). One option",
            "# a line: name=value, or name alone for a flag; # starts a comment. Each line below is",
            "# commented out and shows the default; \"enforceable\" marks what the enforced file may hold.",
        ]
        for section in OptionSpec.Section.allCases {
            let options = OptionSpec.all.filter { $0.section == section && !OptionSpec.commandLineOnly.contains($0.name) }
            guard !options.isEmpty else { continue }
            lines += ["", "## \(section.rawValue)"]
            for option in options {
                let enforceable = option.enforcement.map { " (enforceable: \($0.rawValue))" } ?? ""
                lines.append("")
                lines += option.help.enumerated().map { "# " + $1 + ($0 == option.help.count - 1 ? enforceable : "") }
                if !option.takesValue {
                    lines.append("#\(option.name)")
                } else {
                    lines.append("#\(option.name)=\(literalDefault(option) ?? option.placeholder ?? "")")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ConfigTemplate {
    /// The option's default as a value the line could hold, or nil when there is none or it is
    /// a description ("the locale's", "Xft.dpi / 96", "$XDG_CONFIG_HOME/…", which the option
    /// itself would not take): the line then shows the placeholder (`FORMAT`), and the help
    /// above it says the default.
    static func literalDefault(_ option: OptionSpec) -> String? {
        guard let value = option.defaultValue, !value.contains("'"), !value.contains("$") else {
            return nil
        }
        var scratch = Options.Parsed()
        return option.set(&scratch, value, Options.Given(option: option, value: value, origin: .commandLine)) ? value : nil
    }
}

/// Everything `./dev docs` writes from the option table, and where in the tree.
package enum GeneratedFiles {
    package static let all: [(path: String, text: String)] = Completions.files + [(ConfigTemplate.path, ConfigTemplate.text), (Strings.templatePath, Strings.template)]
}
