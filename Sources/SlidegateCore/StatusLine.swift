/// `--status-command`'s line: what of a command's output the lock screen shows, and how
/// its runs are judged. Pure: the UI runs the command and feeds in its bytes and its end.
package enum StatusLine {
    /// The most of a line shown, in bytes of UTF-8.
    package static let maximumBytes = 200
    /// The most output read from one run: more is a flood, and the run is stopped.
    package static let maximumOutput = 64 * 1024
    /// How long one run may take before it is killed, in seconds.
    package static let timeLimit = 5
    /// `--status-interval`'s bounds and default, in seconds.
    package static let intervals = 5.0...3600.0
    package static let defaultInterval = 60.0

    /// The first line of `output`: invalid UTF-8 replaced, a tab made a space, terminal
    /// escape sequences (ESC `[` … a final letter, as colours are written; else ESC and the
    /// character after it) and every other control character removed, then cut to
    /// `maximumBytes` on a character's boundary.
    package static func clean(_ output: some Collection<UInt8>) -> String {
        let firstLine = output.prefix { $0 != UInt8(ascii: "\n") }
        var kept = String.UnicodeScalarView()
        var escape = EscapeState.none
        for scalar in String(decoding: firstLine, as: UTF8.self).unicodeScalars {
            switch escape {
            case .none:
                if scalar == "\u{1B}" {
                    escape = .started
                } else if scalar == "\t" {
                    kept.append(" ")
                } else if !scalar.properties.generalCategory.isControl {
                    kept.append(scalar)
                }
            case .started:
                escape = scalar == "[" ? .sequence : .none
            case .sequence:
                // Parameters and intermediates run to a final byte from @ to ~.
                if ("@"..."~").contains(scalar) { escape = .none }
            }
        }
        var line = ""
        var bytes = 0
        for character in String(kept) {
            let size = character.utf8.count
            guard bytes + size <= maximumBytes else { break }
            line.append(character)
            bytes += size
        }
        return line
    }

    private enum EscapeState {
        case none, started, sequence
    }

    /// How a run ended, for the one line a failure is said in.
    package enum Outcome: Equatable, Sendable {
        /// It exited 0 within the time limit, having written at most `maximumOutput`.
        case line(String)
        case failed(String)
        case timedOut
        case flooded
    }

    /// What went wrong in an outcome that is not a line ("exited with status 3").
    package static func failure(_ outcome: Outcome) -> String? {
        switch outcome {
        case .line: nil
        case .failed(let how): how
        case .timedOut: "ran longer than \(timeLimit) s and was killed"
        case .flooded: "wrote more than \(maximumOutput / 1024) KiB and was stopped"
        }
    }

    /// What to say on stderr of an outcome that is not a line.
    package static func problem(_ outcome: Outcome) -> String? {
        failure(outcome).map { "--status-command \($0); the status line stays as it was" }
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControl: Bool {
        switch self {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
