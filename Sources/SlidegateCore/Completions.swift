/// The shell completions (bash, zsh, fish), made from the option table; `./dev docs` writes
/// them to packaging/completions, and DocumentationTests checks that they are current.
package enum Completions {
    /// Each completion file: its path in the tree, and its text.
    package static let files: [(path: String, text: String)] = [
        ("packaging/completions/slidegate", bash), ("packaging/completions/_slidegate", zsh),
        ("packaging/completions/slidegate.fish", fish),
    ]

    static let header = "generated from slidegate's option table by ./dev docs"

    static var bash: String {
        var cases: [String] = []
        let free = OptionSpec.all.filter { $0.argument == .text }.map { "--\($0.name)" }
        if !free.isEmpty { cases.append("        \(free.joined(separator: "|"))) return ;;") }
        for option in OptionSpec.all {
            switch option.argument {
            case .command: cases.append("        --\(option.name)) COMPREPLY=($(compgen -c -- \"$cur\")) ;;")
            case .file: cases.append("        --\(option.name)) COMPREPLY=($(compgen -f -- \"$cur\")) ;;")
            case .choice(let values):
                cases.append("        --\(option.name)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")) ;;")
            case .none, .text: continue
            }
        }
        return """
            # bash completion for slidegate(1), \(header).
            _slidegate() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                case $prev in
            \(cases.joined(separator: "\n"))
                    *) COMPREPLY=($(compgen -W "\(OptionSpec.all.map { "--\($0.name)" }.joined(separator: " "))" -- "$cur")) ;;
                esac
            }
            complete -F _slidegate slidegate

            """
    }

    static var zsh: String {
        let specs = OptionSpec.all.map { option -> String in
            let exclusive = ["help", "version"].contains(option.name) ? "(- *)" : ""
            let placeholder = option.placeholder ?? "VALUE"
            let value: String =
                switch option.argument {
                case .none: ""
                case .text: ":\(placeholder): "
                case .command: ":\(placeholder):_command_names -e"
                case .file: ":\(placeholder):_files"
                case .choice(let values): ":\(placeholder):(\(values.joined(separator: " ")))"
                }
            // Inside single quotes, a quote is written '\''.
            let summary = option.summary.replacingQuotes(with: "'\\''")
            return "  '\(exclusive)--\(option.name)\(option.takesValue ? "=" : "")[\(summary)]\(value)'"
        }
        return """
            #compdef slidegate
            # zsh completion for slidegate(1), \(header).
            _arguments \\
            \(specs.joined(separator: " \\\n"))

            """
    }

    static var fish: String {
        let lines = OptionSpec.all.map { option -> String in
            let value: String =
                switch option.argument {
                case .none: ""
                case .text: " -x"
                case .command: " -x -a '(__fish_complete_command)'"
                case .file: " -r -F"
                case .choice(let values): " -x -a '\(values.joined(separator: " "))'"
                }
            // fish's single quotes take \' for a quote.
            return "complete -c slidegate -l \(option.name)\(value) -d '\(option.summary.replacingQuotes(with: "\\'"))'"
        }
        return """
            # fish completion for slidegate(1), \(header).
            complete -c slidegate -f
            \(lines.joined(separator: "\n"))

            """
    }
}

extension String {
    /// With every single quote written as `replacement`.
    fileprivate func replacingQuotes(with replacement: String) -> String {
        split(separator: "'", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
