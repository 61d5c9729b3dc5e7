/// What `slidegate --check` prints: the settings a run would use with where each came
/// from, then one finding an item, then whether the set-up is ready.
package enum SetupReport {
    /// One thing checked.
    package struct Finding: Equatable, Sendable {
        package enum Verdict: String, Equatable, Sendable {
            /// As a lock needs it.
            case ok
            /// Works, with something the person may want to know (what a missing extension
            /// costs, a fallback that is taken).
            case note
            /// A lock would not work as asked, or could not be opened: exit 2.
            case problem
        }

        package var verdict: Verdict
        /// What was checked, a word or two: "display", "pam", "theme".
        package var subject: String
        package var text: String

        package init(_ verdict: Verdict, _ subject: String, _ text: String) {
            self.verdict = verdict
            self.subject = subject
            self.text = text
        }

        /// As printed: the verdict and the subject in columns, then the text, on one line.
        package var line: String {
            "  " + padded(verdict.rawValue, 9) + padded(subject, 16) + oneLine(text)
        }

        /// As slidegate-ui hands its findings to slidegate: the three fields, tab-separated.
        package var wire: String { [verdict.rawValue, oneLine(subject), oneLine(text)].joined(separator: "\t") }

        /// A finding from its `wire` line; nil for anything else.
        package init?(wire: some StringProtocol) {
            let fields = wire.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let verdict = Verdict(rawValue: String(fields[0])) else { return nil }
            self.init(verdict, String(fields[1]), String(fields[2]))
        }
    }

    /// Where a setting came from, as the report names it.
    package static func source(of given: Options.Given?) -> String {
        switch given?.origin {
        case nil: "default"
        case .commandLine: "command line"
        case .file(let path, let line, .user): "\(path):\(line)"
        case .file(let path, let line, .system): "system \(path):\(line)"
        case .file(let path, let line, .enforced): "enforced \(path):\(line)"
        }
    }

    /// One line a setting of the mode: its name, the value it has, and where that came from
    /// (`given` is what the configuration file and the command line said, in the order
    /// parsing took them; a later one wins, and every `--key-command` counts).
    package static func settings(_ given: [Options.Given], windowed: Bool) -> [String] {
        let mode: OptionSpec.Modes = windowed ? .windowed : .lock
        return OptionSpec.all.filter { ($0.modes == .both || $0.modes == mode) && !OptionSpec.commandLineOnly.contains($0.name) }
            .flatMap { option -> [String] in
                let mine = given.filter { $0.option == option }
                let shown = option.name == "key-command" ? mine : mine.suffix(1)
                guard !shown.isEmpty else {
                    let value = option.defaultValue ?? (option.takesValue ? "(none)" : "off")
                    return [settingLine(option.name, value, source(of: nil))]
                }
                return shown.map { settingLine(option.name, $0.value ?? "on", source(of: $0)) }
            }
    }

    private static func settingLine(_ name: String, _ value: String, _ source: String) -> String {
        let cut = value.count > 30 ? String(value.prefix(29)) + "…" : value
        return "  " + padded(name, 22) + padded(oneLine(cut), 32) + source
    }

    /// The last line: what the findings add up to.
    package static func verdict(_ findings: [Finding], windowed: Bool) -> String {
        let problems = findings.filter { $0.verdict == .problem }.count
        let ready = windowed ? "ready to run the gate" : "ready to lock"
        return problems == 0 ? ready : "not \(ready): \(problems) problem\(problems == 1 ? "" : "s")"
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count < width ? text + String(repeating: " ", count: width - text.count) : text + " "
    }

    /// Control characters (a newline in a PAM prompt, a tab in a label) shown as spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    }
}
