/// `--power-actions`: what logind's Manager is asked for.
package enum PowerAction: String, CaseIterable, Equatable, Sendable {
    case suspend, hibernate, reboot, poweroff

    /// The Manager's method (called with `interactive` true: polkit decides).
    package var method: String {
        switch self {
        case .suspend: "Suspend"
        case .hibernate: "Hibernate"
        case .reboot: "Reboot"
        case .poweroff: "PowerOff"
        }
    }

    /// The Manager's question of whether it may be done: "yes", "challenge" (polkit will
    /// ask), "no" or "na".
    package var question: String { "Can" + method }

    /// Whether an answer to `question` shows the button.
    package static func offered(_ answer: String) -> Bool { answer == "yes" || answer == "challenge" }

    package var label: Strings.Key {
        switch self {
        case .suspend: .suspend
        case .hibernate: .hibernate
        case .reboot: .reboot
        case .poweroff: .powerOff
        }
    }

    /// `--power-actions`' value: a comma list of names, each once, in the order given.
    package static func list(_ text: String) -> [PowerAction]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        let actions = names.compactMap(PowerAction.init(rawValue:))
        guard !actions.isEmpty, actions.count == names.count, Set(actions).count == actions.count else { return nil }
        return actions
    }
}

/// A button of the lock screen besides the slider: the player's (`--show-media`) and the
/// power actions (`--power-actions`). The guard hit-tests them and the UI carries out what
/// the guard decides (it talks to the buses); neither opens the lock.
package enum LockControl: Equatable, Hashable, Sendable {
    case previous, playPause, next
    case power(PowerAction)
    /// `--switch-user-command`'s button, which the guard carries out itself.
    case switchUser

    /// Every control, in reading order (the media panel, the power row, the switch-user
    /// button), which is the order of their bits on the wire.
    package static let all: [LockControl] = [.previous, .playPause, .next] + PowerAction.allCases.map { .power($0) } + [.switchUser]

    package static let media: [LockControl] = [.previous, .playPause, .next]

    /// The control a media key acts on: XF86AudioPlay and XF86AudioPause play or pause,
    /// XF86AudioNext and XF86AudioPrev skip.
    package static func mediaKey(_ keysym: UInt32) -> LockControl? {
        switch keysym {
        case 0x1008_FF14, 0x1008_FF31: .playPause
        case 0x1008_FF17: .next
        case 0x1008_FF16: .previous
        default: nil
        }
    }

    package var bit: UInt8 { UInt8(truncatingIfNeeded: Self.all.firstIndex(of: self) ?? 0) }

    package init?(bit: UInt8) {
        guard Int(truncatingIfNeeded: bit) < Self.all.count else { return nil }
        self = Self.all[Int(truncatingIfNeeded: bit)]
    }

    /// A set of controls as a mask of `bit`s, and back (unknown bits dropped).
    package static func mask(_ controls: [LockControl]) -> UInt16 {
        controls.reduce(0) { $0 | 1 << UInt16(truncatingIfNeeded: $1.bit) }
    }

    package static func controls(_ mask: UInt16) -> [LockControl] {
        all.filter { mask & 1 << UInt16(truncatingIfNeeded: $0.bit) != 0 }
    }
}

/// A keyboard path through the controls: Tab focuses the first shown control (then the
/// next, round), Shift+Tab the last (then the one before); Return, the keypad's Enter or
/// Space carries out the focused one; Escape ends the focus, and so does any other key but
/// a modifier, or a click, which then go on as they would have.
package struct ControlFocus: Equatable, Sendable {
    package private(set) var focused: LockControl?

    package init() {}

    /// What a key does to the focus.
    package enum Step: Equatable, Sendable {
        case forward, backward, activate, end
        /// A modifier (Shift for Shift+Tab): the focus stays, and the key goes on.
        case stay
    }

    /// The step `keysym` (its first level) with or without Shift is; nil for any other key.
    package static func step(keysym: UInt32, shift: Bool) -> Step? {
        switch keysym {
        case 0xFF09: shift ? .backward : .forward
        case 0xFE20: .backward
        case 0xFF0D, 0xFF8D, 0x20: .activate
        case 0xFF1B: .end
        case 0xFFE1...0xFFEE, 0xFE01...0xFE13, 0xFF7E: .stay
        default: nil
        }
    }

    /// Moves along `shown` (in reading order); nothing when none is shown.
    package mutating func move(_ forward: Bool, among shown: [LockControl]) {
        guard !shown.isEmpty else { return focused = nil }
        guard let focused, let index = shown.firstIndex(of: focused) else {
            return self.focused = forward ? shown.first : shown.last
        }
        self.focused = shown[(index + (forward ? 1 : shown.count - 1)) % shown.count]
    }

    package mutating func end() {
        focused = nil
    }

    /// The controls shown changed: one focused that is not among them any more loses the
    /// focus.
    package mutating func follow(_ shown: [LockControl]) {
        if let focused, !shown.contains(focused) { self.focused = nil }
    }
}

/// Where the controls' buttons are inside their windows, for the guard to hit-test and the
/// UI to draw: the same arithmetic on both sides.
package enum ControlPlacement {
    /// The media panel's buttons (previous, play/pause, next), at its right (its left
    /// `rightToLeft`, in the same order: playback controls are not mirrored), square, 0.56
    /// of the panel's height; the rest of the panel holds the title and artist.
    package static func mediaButtons(in size: (width: Double, height: Double), rightToLeft: Bool = false) -> [(LockControl, Rect)] {
        let side = (size.height * 0.56).rounded()
        let gap = (side * 0.3).rounded()
        let top = ((size.height - side) / 2).rounded()
        // As far from the panel's edge as from its top.
        let start = rightToLeft ? top : size.width - top - 3 * side - 2 * gap
        return LockControl.media.enumerated().map { index, control in
            (control, Rect(x: start + Double(index) * (side + gap), y: top, width: side, height: side))
        }
    }

    /// The text's room in the media panel: beside the buttons.
    package static func mediaText(in size: (width: Double, height: Double), rightToLeft: Bool = false) -> Rect {
        let buttons = mediaButtons(in: size, rightToLeft: rightToLeft).map(\.1)
        let gap = (size.height * 0.25).rounded()
        guard let first = buttons.first, let last = buttons.last else { return Rect(x: 0, y: 0, width: size.width, height: size.height) }
        let (from, to) = rightToLeft ? (last.maxX + gap, size.width - gap) : (gap, first.x - gap)
        return Rect(x: from, y: 0, width: max(to - from, 1), height: size.height)
    }

    /// The power row's buttons: those `shown`, in the order given, filling the row from
    /// its right end (from its left end, mirrored, `rightToLeft`); the row is as wide as
    /// every configured button needs.
    package static func powerButtons(
        _ shown: [PowerAction], in size: (width: Double, height: Double), configured: Int, rightToLeft: Bool = false
    ) -> [(PowerAction, Rect)] {
        guard configured > 0 else { return [] }
        let gap = (size.height * 0.3).rounded()
        let width = max(((size.width - Double(configured - 1) * gap) / Double(configured)).rounded(.down), 1)
        let start = size.width - Double(shown.count) * (width + gap) + gap
        return shown.enumerated().map { index, action in
            let x = start + Double(index) * (width + gap)
            return (action, Rect(x: rightToLeft ? size.width - x - width : x, y: 0, width: width, height: size.height))
        }
    }

    /// The power row: 0.6 of the slider's height tall, each button 3.6 times that wide
    /// (within the monitor), at the monitor's bottom right corner (left, `rightToLeft`).
    package static func powerRow(count: Int, slider: Rect, on monitor: Rect, rightToLeft: Bool = false) -> Rect {
        let height = (slider.height * 0.6).rounded()
        let gap = (height * 0.3).rounded()
        let margin = (height * 0.6).rounded()
        let width = max(min(monitor.width - 2 * margin, Double(count) * (height * 3.6).rounded() + Double(count - 1) * gap), 1)
        return Rect(
            x: rightToLeft ? monitor.x + margin : monitor.maxX - width - margin, y: monitor.maxY - height - margin, width: width,
            height: height)
    }

    /// The media panel: as wide as the slider, 1.3 of its height tall, above it (above
    /// the message line when there is one), `gap` over it.
    package static func mediaPanel(above: Rect, slider: Rect) -> Rect {
        let height = (slider.height * 1.3).rounded()
        return Rect(x: slider.x, y: above.y - (slider.height * 0.35).rounded() - height, width: slider.width, height: height)
    }
}
