import Glibc
import SlidegateCore
import Testing

/// Everything that lists slidegate's options is made from, or checked against, the one
/// option table (`OptionSpec.all`): `--help` (generated, and pinned here word for word), the
/// shell completions (generated; `SLIDEGATE_RECORD_DOCS=1 swift test --filter
/// DocumentationTests` rewrites them and fails, so a recording run never passes), the man
/// page and the README (written by hand, checked for the same options and values).
@Suite struct DocumentationTests {
    static let root = String(#filePath.dropLast("Tests/SlidegateCoreTests/DocumentationTests.swift".count))

    static func read(_ path: String) -> String? {
        guard let f = fopen(root + path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&buffer, 1, buffer.count, f), n > 0 { bytes += buffer[..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func helpIsPinned() {
        #expect(
            Options.help == """
                Usage: slidegate [OPTION]...
                Show a slider and wait until it is dragged all the way to the end.

                Without --geometry, slidegate locks the screen: it covers every monitor, grabs the
                keyboard and pointer, and puts the slider on the primary monitor.

                  --text TEXT            the label on the track (default "slide to unlock"; "" for none)
                  --unlock-command CMD   on completion run CMD with /bin/sh -c; exit 0 if it exits 0,
                                         otherwise say "unlock failed" and let the person try again
                  --timeout SECONDS      give up after SECONDS (a decimal > 0) without a completed
                                         slide and exit 4
                  --theme DIR            draw the track and thumb from DIR/track.png and thumb.png,
                                         stretched nine-slice (resources/themes/classic)
                  --scale FACTOR         size factor for what slidegate sizes itself, 0.5-4 (default: the
                                         Xft.dpi X resource / 96, else 1)
                  --direction DIR        which way the thumb slides: ltr, rtl, or auto (default: right to
                                         left when the label's first letter is Arabic, Hebrew, …)
                  --countdown            with --timeout: show the whole seconds left beside the label
                  --reduce-motion        no shimmer (the label stays bright), no spring, wheel spin or
                                         reveal: what moves moves at once
                  --auth METHOD          what opens the gate once the slide completes: none (default),
                                         pam (the user's password, checked by PAM), pin (the PIN set on
                                         the wheels), or pin,pam (the wheels, or the password by keyboard)
                  --pin-file PATH        the PIN file for --auth pin and --set-pin (default
                                         $XDG_CONFIG_HOME/slidegate/pin, else ~/.config/slidegate/pin)
                  --set-pin              read a new PIN (4-12 digits) twice and write the PIN file; exit 0
                  --pam-service NAME     the PAM service for --auth pam (default slidegate)
                  --message TEXT         lock mode: a line shown above the slider for the whole lock
                  --clock-format FORMAT  lock mode: strftime format of the clock above the slider (default:
                                         the locale's hours and minutes; "" for none)
                  --date-format FORMAT   lock mode: strftime format of the date under the clock (default:
                                         weekday, day and month in the locale's words; "" for none)
                  --no-clock             lock mode: no clock and no date
                  --image PATH           lock mode: a background image (PNG or JPEG) on every monitor
                  --image-mode MODE      lock mode: how the image meets each monitor: fill (default),
                                         fit, center, tile or stretch
                  --reveal HOW           how the gate opens: none (default), center, left, right, top
                                         or bottom (the cover is cut away over 0.35 s)
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
                  --above                windowed mode: keep the window above others (_NET_WM_STATE_ABOVE)
                  --undecorated          windowed mode: ask for no title bar or border (_MOTIF_WM_HINTS)
                  --config PATH          read options from PATH (default $XDG_CONFIG_HOME/slidegate/config,
                                         else ~/.config/slidegate/config): one per line, name=value or name
                  --no-config            read no configuration file
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

                """)
    }

    @Test func theReadmeListsEveryOptionAndNoOther() throws {
        let readme = try #require(Self.read("README.md"))
        let usage = try #require(readme.firstRange(of: "## Usage").map { readme[$0.upperBound...] })
        let section = usage[..<(usage.firstRange(of: "\n## ")?.lowerBound ?? usage.endIndex)]
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `--") }
        let listed = rows.flatMap { row in
            row.split(separator: "|")[0].matches(of: /`(--[^`]+)`/).map { String($0.output.1) }
        }
        #expect(listed == OptionSpec.all.map(\.usage), "the README's option table, in --help's order")
        for option in OptionSpec.all {
            guard case .choice(let values) = option.argument else { continue }
            let row = try #require(rows.first { $0.contains("`\(option.usage)`") })
            for value in values { #expect(row.contains("`\(value)`"), "--\(option.name): \(value)") }
        }
    }

    @Test func theManPageListsEveryOptionAndNoOther() throws {
        let page = try #require(Self.read("packaging/slidegate.1.scd"))
        let options = try #require(page.firstRange(of: "# OPTIONS").map { page[$0.upperBound...] })
        let section = options[..<(options.firstRange(of: "\n# ")?.lowerBound ?? options.endIndex)]
        let listed = section.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.wholeMatch(of: /\*(--[a-z-]+)\*( _[A-Z]+_)?/) else { return nil }
            return String(match.output.1) + (match.output.2.map { $0.replacing("_", with: "") } ?? "")
        }
        #expect(listed == OptionSpec.all.map(\.usage), "the man page's OPTIONS, in --help's order")
        for option in OptionSpec.all {
            guard case .choice(let values) = option.argument else { continue }
            for value in values { #expect(section.contains("*\(value)*"), "--\(option.name): \(value)") }
        }
    }

    /// Each completion file, as the table makes it.
    static let completions: [(path: String, text: String)] = [
        ("packaging/completions/slidegate", bash), ("packaging/completions/_slidegate", zsh),
        ("packaging/completions/slidegate.fish", fish),
    ]

    @Test(arguments: completions.map(\.path))
    func completionsAreGeneratedFromTheTable(_ path: String) throws {
        let expected = try #require(Self.completions.first { $0.path == path }).text
        if getenv("SLIDEGATE_RECORD_DOCS") != nil {
            let f = try #require(fopen(Self.root + path, "w"))
            fputs(expected, f)
            fclose(f)
            Issue.record("recorded \(path); run again without SLIDEGATE_RECORD_DOCS")
            return
        }
        #expect(Self.read(path) == expected, "\(path) is stale: SLIDEGATE_RECORD_DOCS=1 swift test --filter DocumentationTests")
    }

    static let header = "generated from slidegate's option table by Tests/SlidegateCoreTests/DocumentationTests.swift"

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
            let value: String =
                switch option.argument {
                case .none: ""
                case .text: ":\(option.placeholder!): "
                case .command: ":\(option.placeholder!):_command_names -e"
                case .file: ":\(option.placeholder!):_files"
                case .choice(let values): ":\(option.placeholder!):(\(values.joined(separator: " ")))"
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
