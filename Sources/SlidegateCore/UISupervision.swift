/// When lock mode's guard starts its drawing program (the UI), asks whether it still
/// answers, replaces it, and draws a plain slider in its stead. The wanted state is a UI that
/// runs, has drawn and answers; every event moves toward it, and `due` says what to do now.
///
/// A still lock costs no wake-ups: the UI is asked only while it animates on its own and
/// after input, never while the screen is blank.
///
/// Time is an argument; nothing here reads a clock, starts a process or draws.
package struct UISupervision: Equatable, Sendable {
    /// How often a UI that animates on its own is asked whether it still answers.
    package static let pingInterval = 1.0
    /// How soon after input (or a start) a UI is asked whether it took it.
    package static let pingAfterInput = 0.25
    /// How long the slider may go undrawn before the guard draws a plain one.
    package static let fallbackDelay = 2.0
    /// How long after a UI's first frame the guard and the UI leave the processor to the X
    /// server and a compositor, which are putting that frame on the screen: what the start
    /// leaves to do (keeping the frame for the next lock, giving start-up's pages back,
    /// logind's LockedHint) waits that long. Done at once, it made the cold first frame
    /// about 2 ms later on two cores.
    package static let settleAfterFirstFrame = 0.1

    /// What to do with the UI now.
    package enum Action: Equatable, Sendable {
        /// Start a UI (none runs).
        case start
        /// Ask the running UI whether it answers.
        case ping
        /// End the running UI, which did not answer its ping in time, and start another.
        case replace
    }

    /// What is due at a moment: something to do with the UI, and whether to draw the plain
    /// slider. A plain value: asking costs the guard no allocation on any pass.
    package struct Due: Equatable, Sendable {
        package var action: Action?
        package var drawFallback = false

        package init(action: Action? = nil, drawFallback: Bool = false) {
            self.action = action
            self.drawFallback = drawFallback
        }
    }

    /// When to start the next UI, while none runs.
    package private(set) var restartAt: Double?
    /// When to ask the UI whether it answers.
    package private(set) var nextPing: Double?
    /// When to draw the plain slider if no UI has drawn by then.
    package private(set) var fallbackAt: Double?
    /// The plain slider is drawn (until a UI draws).
    package private(set) var fallbackShown = false
    private var restarts = RestartPolicy.drawingProgram
    private var running = false
    private var blank = false

    /// The lock is up at `now`: a UI starts; if none has drawn within `fallbackDelay`, the
    /// guard draws.
    package init(start now: Double) {
        fallbackAt = now + Self.fallbackDelay
    }

    /// A UI started.
    package mutating func started(at now: Double) {
        restartAt = nil
        running = true
        nextPing = blank ? nil : now + Self.pingAfterInput
    }

    /// No UI could start: try again (after a back-off while starts keep failing).
    package mutating func couldNotStart(at now: Double) {
        ended(at: now, after: 0)
    }

    /// The UI ended (or was ended) after running `lifetime` seconds: another starts at once,
    /// or after a back-off (0.1 s doubling to 5 s) while UIs keep dying within 2 s of starting.
    package mutating func ended(at now: Double, after lifetime: Double) {
        running = false
        nextPing = nil
        restartAt = now + restarts.died(after: lifetime)
        if !fallbackShown && fallbackAt == nil { fallbackAt = now + Self.fallbackDelay }
    }

    /// The lock ends: the UI is stopped and nothing more is due.
    package mutating func stopped() {
        running = false
        nextPing = nil
        restartAt = nil
        fallbackAt = nil
    }

    /// The UI has put a frame on the screen: the plain slider goes. True the first time
    /// after a start or a replacement (what start-up touched can be given back).
    package mutating func drew() -> Bool {
        let first = fallbackAt != nil || fallbackShown
        fallbackAt = nil
        fallbackShown = false
        return first
    }

    /// The UI answered a ping; while it animates it is asked again a `pingInterval` on.
    package mutating func answered(at now: Double, animating: Bool) {
        if nextPing == nil && !blank && animating { nextPing = now + Self.pingInterval }
    }

    /// Input went to the UI: it is asked soon whether it took it, or at the usual pace while
    /// the guard draws a drag itself and the UI takes no input.
    package mutating func input(at now: Double, guardDraws: Bool) {
        if nextPing == nil && !blank { nextPing = now + (guardDraws ? Self.pingInterval : Self.pingAfterInput) }
    }

    /// The screen saver came on or went off: a blank screen's UI sleeps and owes no
    /// answers; once the screen is back it is asked at once.
    package mutating func blankChanged(_ isBlank: Bool, at now: Double) {
        blank = isBlank
        if isBlank {
            nextPing = nil
        } else if running {
            nextPing = now
        }
    }

    /// What to do at `now`; `answerDue` is when the running UI must have answered the ping
    /// it has (nil: it owes none).
    package mutating func due(at now: Double, answerDue: Double?) -> Due {
        var due = Due()
        if let at = restartAt, now >= at, !running {
            due.action = .start
        } else if running, let answer = answerDue, now >= answer {
            due.action = .replace
        } else if running, let at = nextPing, now >= at {
            nextPing = nil
            due.action = .ping
        }
        if let at = fallbackAt, now >= at, !fallbackShown {
            fallbackAt = nil
            fallbackShown = true
            due.drawFallback = true
        }
        return due
    }

    /// When `due` has something to do next.
    package var deadline: Double? {
        var earliest = Earliest()
        earliest.consider(restartAt)
        earliest.consider(nextPing)
        earliest.consider(fallbackAt)
        return earliest.time
    }
}
