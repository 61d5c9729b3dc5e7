/// What the lock-mode guard tells the UI process, one line per message on a pipe.
///
/// The guard owns the grabs and decides; the UI mirrors the guard's gate to draw it. Times
/// are seconds on the monotonic clock, which both processes share, so both gates see the
/// same input at the same moments.
public enum GuardMessage: Equatable, Sendable {
    /// The window to draw the slider in (the first message a UI gets).
    case window(UInt)
    /// The slider's size; the UI lays out anew.
    case layout(width: Int, height: Int)
    /// The gate's state, sent when a UI starts.
    case state(Gate.Snapshot)
    /// Input, in slider coordinates, and when it happened.
    case input(GateInput, at: Double)
    /// A key was pressed: it moves nothing, but it wakes monitors that DPMS turned off.
    case keyPressed

    public var line: String {
        switch self {
        case .window(let id): "window \(id)"
        case .layout(let w, let h): "layout \(w) \(h)"
        case .state(let s): "state \(Self.words(s.phase).joined(separator: " ")) \(s.messageUntil.map { "\($0)" } ?? "-")"
        case .input(let input, let t): "input \(t) \(Self.words(input).joined(separator: " "))"
        case .keyPressed: "key"
        }
    }

    public init?(line: String) {
        let words = line.split(separator: " ").map(String.init)
        guard let kind = words.first else { return nil }
        let rest = Array(words.dropFirst())
        switch kind {
        case "window":
            guard rest.count == 1, let id = UInt(rest[0]) else { return nil }
            self = .window(id)
        case "layout":
            guard rest.count == 2, let w = Int(rest[0]), let h = Int(rest[1]) else { return nil }
            self = .layout(width: w, height: h)
        case "state":
            guard let last = rest.last, let phase = Self.phase(rest.dropLast()) else { return nil }
            let until = last == "-" ? nil : Double(last)
            guard last == "-" || until != nil else { return nil }
            self = .state(Gate.Snapshot(phase: phase, messageUntil: until))
        case "key":
            guard rest.isEmpty else { return nil }
            self = .keyPressed
        case "input":
            guard let t = rest.first.flatMap(Double.init), let input = Self.input(rest.dropFirst()) else { return nil }
            self = .input(input, at: t)
        default:
            return nil
        }
    }

    private static func words(_ phase: Gate.Phase) -> [String] {
        switch phase {
        case .resting(let since): ["resting", "\(since)"]
        case .dragging(let offset, let value): ["dragging", "\(offset)", "\(value)"]
        case .springing(let from, let start): ["springing", "\(from)", "\(start)"]
        case .unlocking: ["unlocking"]
        case .finished(let status): ["finished", "\(status.code)"]
        }
    }

    private static func phase(_ words: ArraySlice<String>) -> Gate.Phase? {
        let numbers = words.dropFirst().compactMap(Double.init)
        guard numbers.count == words.count - 1 else { return nil }
        switch (words.first, numbers.count) {
        case ("resting", 1): return .resting(since: numbers[0])
        case ("dragging", 2): return .dragging(grabOffset: numbers[0], value: numbers[1])
        case ("springing", 2): return .springing(from: numbers[0], start: numbers[1])
        case ("unlocking", 0): return .unlocking
        case ("finished", 1): return .finished(ExitStatus(code: Int32(numbers[0])))
        default: return nil
        }
    }

    private static func words(_ input: GateInput) -> [String] {
        switch input {
        case .press(let x, let y): ["press", "\(x)", "\(y)"]
        case .motion(let x, let y): ["motion", "\(x)", "\(y)"]
        case .release: ["release"]
        case .unlockCommandFinished(let ok): ["finished", ok ? "1" : "0"]
        case .closeRequested: ["close"]
        case .signal(let n): ["signal", "\(n)"]
        }
    }

    private static func input(_ words: ArraySlice<String>) -> GateInput? {
        let numbers = words.dropFirst().compactMap(Double.init)
        guard numbers.count == words.count - 1 else { return nil }
        switch (words.first, numbers.count) {
        case ("press", 2): return .press(x: numbers[0], y: numbers[1])
        case ("motion", 2): return .motion(x: numbers[0], y: numbers[1])
        case ("release", 0): return .release
        case ("finished", 1): return .unlockCommandFinished(succeeded: numbers[0] == 1)
        case ("close", 0): return .closeRequested
        case ("signal", 1): return .signal(Int32(numbers[0]))
        default: return nil
        }
    }
}

extension ExitStatus {
    /// The status a process exit code stands for.
    public init(code: Int32) {
        switch code {
        case 0: self = .completed
        case 2: self = .usage
        case 3: self = .noDisplayOrLock
        case 4: self = .timedOut
        case 5: self = .windowClosed
        case 129...255: self = .signal(code - 128)
        default: self = .internalError
        }
    }
}
