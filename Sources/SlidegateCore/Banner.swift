/// A notice the lock has to give (a notification view): an icon, one or two lines
/// of text. It slides in, stays, and slides out by itself.
package struct Banner: Equatable, Sendable {
    package enum Kind: Int, Comparable, Sendable {
        case info, warning, error

        package static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    package var kind: Kind
    package var text: String
    /// A countdown banner shows the whole seconds left until this moment after its text,
    /// and stays until then.
    package var countdownUntil: Double?
    /// A banner that stays until it is withdrawn (Caps Lock while it is on).
    package var persistent: Bool

    /// The longest text a banner holds, in bytes of UTF-8: what one or two lines can show,
    /// and what keeps a queue of them inside one protocol frame. Longer texts are cut.
    package static let maximumText = 512

    package init(_ kind: Kind, _ text: String, countdownUntil: Double? = nil, persistent: Bool = false) {
        self.kind = kind
        self.text = text.cut(toUTF8: Self.maximumText)
        self.countdownUntil = countdownUntil
        self.persistent = persistent
    }

    /// The text at `now`, with a countdown's seconds.
    package func text(at now: Double) -> String {
        guard let until = countdownUntil else { return text }
        return "\(text) \(max(Int((until - now).rounded(.up)), 0)) s"
    }
}

/// The banners waiting and the one showing: one at a time, the most important first (error,
/// then warning, then info; in order of arrival within a kind). One slides in over
/// `slideDuration` with an ease-out, stays its time (info and warning 3 s, error 4 s, a
/// countdown until it ends, a persistent one until withdrawn), and slides out before the
/// next comes in. At most `maximumWaiting` wait (a full queue drops the least important,
/// newest first), and one countdown of a text at a time: a new one replaces it.
///
/// Time is an argument; nothing here reads a clock.
package struct BannerQueue: Equatable, Sendable {
    package static let slideDuration = 0.25

    package struct Showing: Equatable, Sendable {
        package var banner: Banner
        package var start: Double
        /// When it starts to slide out, once that is known.
        package var leaving: Double?

        package init(banner: Banner, start: Double, leaving: Double? = nil) {
            self.banner = banner
            self.start = start
            self.leaving = leaving
        }
    }

    package private(set) var showing: Showing?
    package private(set) var waiting: [Banner] = []

    package init(showing: Showing? = nil, waiting: [Banner] = []) {
        self.showing = showing
        self.waiting = waiting
    }

    package static func stay(_ banner: Banner) -> Double? {
        guard !banner.persistent, banner.countdownUntil == nil else { return nil }
        return banner.kind == .error ? 4 : 3
    }

    /// How long a passing banner stays in when a graver one comes.
    package static let leastStay = 1.0

    /// How many banners may wait behind the one showing.
    package static let maximumWaiting = 8

    /// Queues a banner; an identical one already waiting or showing is not repeated, a
    /// countdown replaces the countdown of the same text (the one showing counts on to the
    /// new moment), and a graver one does not wait behind a passing one that shows ("Failed
    /// to match fingerprint" after "Place your finger on the reader"): that one slides out once
    /// it has been in for `leastStay`.
    package mutating func post(_ banner: Banner, at now: Double) {
        advance(to: now)
        guard showing?.banner != banner, !waiting.contains(banner) else { return }
        if banner.countdownUntil != nil {
            let sameCountdown = { (other: Banner) in
                other.countdownUntil != nil && other.kind == banner.kind && other.text == banner.text
            }
            if var s = showing, sameCountdown(s.banner), s.leaving == nil {
                s.banner = banner
                showing = s
                waiting.removeAll(where: sameCountdown)
                return
            }
            waiting.removeAll(where: sameCountdown)
        }
        if var s = showing, s.banner.kind < banner.kind, s.leaving == nil, let stay = Self.stay(s.banner) {
            // Read for a second at least, then gone.
            s.leaving = max(now, s.start + Self.slideDuration + min(stay, Self.leastStay))
            showing = s
        }
        let index = waiting.firstIndex { $0.kind < banner.kind } ?? waiting.endIndex
        guard index < Self.maximumWaiting else { return }
        waiting.insert(banner, at: index)
        if waiting.count > Self.maximumWaiting { waiting.removeLast() }
        advance(to: now)
    }

    /// Takes back every banner `matching` says: waiting ones go, a showing one slides out.
    package mutating func withdraw(at now: Double, where matching: (Banner) -> Bool) {
        waiting.removeAll(where: matching)
        if let s = showing, matching(s.banner) { dismiss(at: now) }
        advance(to: now)
    }

    /// The person clicked the banner: it slides out now.
    package mutating func dismiss(at now: Double) {
        guard var s = showing, s.leaving.map({ $0 > now }) ?? true else { return }
        s.leaving = now
        showing = s
    }

    /// When the showing banner starts to slide out, if that is known.
    private func leaving(_ s: Showing) -> Double? {
        if let leaving = s.leaving { return leaving }
        if let until = s.banner.countdownUntil { return max(until, s.start + Self.slideDuration) }
        return Self.stay(s.banner).map { s.start + Self.slideDuration + $0 }
    }

    /// Lets time pass: a banner that slid out gives way to the next.
    package mutating func advance(to now: Double) {
        while true {
            if let s = showing {
                guard let leaving = leaving(s), now >= leaving + Self.slideDuration else { return }
                showing = nil
                if waiting.isEmpty { return }
                showing = Showing(banner: waiting.removeFirst(), start: leaving + Self.slideDuration)
            } else {
                guard !waiting.isEmpty else { return }
                showing = Showing(banner: waiting.removeFirst(), start: now)
            }
        }
    }

    /// The banner on screen at `now` and how far in it is (0 hidden, 1 fully in), or nil.
    package func visible(at now: Double) -> (banner: Banner, shown: Double)? {
        var q = self
        q.advance(to: now)
        guard let s = q.showing, now >= s.start else { return nil }
        let slide = Self.slideDuration
        var shown = TimingCurve.easeOut.value(at: (now - s.start) / slide)
        if let leaving = q.leaving(s), now >= leaving {
            shown = min(shown, 1 - TimingCurve.easeOut.value(at: (now - leaving) / slide))
        }
        return shown > 0 ? (s.banner, shown) : nil
    }

    /// When the banners next change by themselves: the frames of a slide (at `fps`), a
    /// countdown's next second, the moment one starts to leave; nil when nothing will.
    package func nextChange(after now: Double, fps: Int) -> Double? {
        var q = self
        q.advance(to: now)
        guard let s = q.showing else { return nil }
        let frame = now + 1 / Double(fps)
        let slide = Self.slideDuration
        if now < s.start + slide { return min(frame, s.start + slide) }
        guard let leaving = q.leaving(s) else {
            return nil
        }
        if now >= leaving { return min(frame, leaving + slide) }
        var next = leaving
        if let until = s.banner.countdownUntil {
            let left = until - now
            next = min(next, now + (left - (left.rounded(.up) - 1)))
        }
        return next
    }
}
