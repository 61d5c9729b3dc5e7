import CPresent
import CX11
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// The shimmer's sweeps handed to the X server ahead with the Present extension. The
/// frames of a sweep (each one's changed rectangle) are made once as pixmaps; at each
/// sweep every frame is queued for the vertical blank it belongs to, and the server copies
/// it into the window when that blank comes. A sweep wakes the UI once instead of once a
/// frame. A change before the sweep is over (input, a message) replaces the frames still
/// queued with ones that draw nothing, and the back buffer — which holds the sweep's last
/// frame, the text without the band — is sent over whatever the screen shows.
///
/// One per slider buffer: a relayout drops it, and the next sweep makes a new one. Nil
/// without Present (the frames are then painted one by one as they fall due).
final class PresentedSweep {
    private let display: XDisplay
    private let window: Window
    private let depth: Int32
    private let origin: (x: Int32, y: Int32)
    /// Each frame's pixmap and where it goes in the slider's buffer; nil where a frame
    /// changes nothing.
    private var frames: [(pixmap: Pixmap, rect: Rect)?] = []
    /// The scene the frames end on and the time between them: what they were made for.
    private var madeFor: (final: Scene, step: Double)?
    /// The vertical blanks still to come that frames are queued for.
    private var queued: [UInt64] = []
    private var serial: UInt32 = 0
    /// A 1x1 pixmap presented off the window in place of a queued frame: draws nothing.
    private let blank: Pixmap
    /// Seconds between vertical blanks of the window's monitor, once measured.
    private var blankInterval: Double?
    /// Sweeps in a row that Present did not answer for in time, and whether it is given up
    /// (after `patience` of them, or frames too big for `budget`): then every sweep is
    /// painted frame by frame.
    private var unanswered = 0
    private var givenUp = false
    static let patience = 3
    /// Milliseconds to wait for Present's answer (a blank away, or a loaded server).
    static let answerWait: Int32 = 250
    /// Whether a sweep's frames are made.
    var isMade: Bool { madeFor != nil }
    /// Until when queued frames are showing.
    private(set) var showsUntil: Double?

    /// The most the frames of a sweep may hold in the X server.
    static let budget = 16 << 20

    init?(display: XDisplay, window: Window, depth: Int32, origin: (x: Int32, y: Int32)) {
        guard sg_present_available(display.pointer) else { return nil }
        self.display = display
        self.window = window
        self.depth = depth
        self.origin = origin
        blank = XCreatePixmap(display.pointer, window, 1, 1, UInt32(depth))
    }

    deinit {
        cancel()
        free()
        XFreePixmap(display.pointer, blank)
    }

    /// Queues the sweep under way at `now` — frames at `step` intervals from the gate's
    /// scenes, made now unless made before for the same final scene — and says until when
    /// they show; the back buffer is left holding the last frame, which `shown` must be. Nil
    /// when the sweep cannot be handed over: the screen not showing the text without the
    /// band (a sweep already painted partly, like the one that starts at the moment the
    /// thumb comes to rest after locking), something else due to change before it ends, no
    /// answer from Present in time.
    func queue(
        _ gate: Gate, at now: Double, fps: Int, shown: Scene?, surface: WindowSurface, renderer: Renderer
    ) throws(UserError) -> Double? {
        // A frame of a sweep painted one by one shows the band: no need to look further.
        guard shown?.label?.emphasis == .shimmer(band: nil), showsUntil == nil, let sweep = gate.shimmerSweep(at: now)
        else { return nil }
        let final = gate.scene(at: sweep.end)
        guard shown == final, final.label?.emphasis == .shimmer(band: nil) else { return nil }
        if let other = gate.nextChangeBesidesTheSlider(after: now), other <= sweep.end { return nil }
        guard let (interval, msc) = blankNow() else { return nil }
        let perFrame = max(1, (1 / Double(fps) / interval).rounded())
        let step = interval * perFrame
        if madeFor.map({ $0.final != final || $0.step != step }) ?? true {
            free()
            guard try make(gate, from: sweep.start, to: sweep.end, step: step, final: final, surface: surface, renderer: renderer)
            else { return nil }
        }
        let first = max(0, Int(((now - sweep.start) / step).rounded(.down)))
        guard first < frames.count else { return nil }
        for (i, frame) in frames[first...].enumerated() {
            guard let frame else { continue }
            let target = msc + 1 + UInt64(i) * UInt64(perFrame)
            serial &+= 1
            sg_present_pixmap(
                display.pointer, window, frame.pixmap, serial, origin.x + Int32(frame.rect.x), origin.y + Int32(frame.rect.y), target)
            queued.append(target)
        }
        XFlush(display.pointer)
        let until = max(now + Double(frames.count - first) * step, sweep.end)
        showsUntil = until
        return until
    }

    /// The queued frames have all been shown.
    func finished(at now: Double) {
        guard let until = showsUntil, now >= until else { return }
        showsUntil = nil
        queued.removeAll()
    }

    /// Replaces the frames still queued with ones that draw nothing, and sends the back
    /// buffer's part the frames cover (it holds their last frame) over what shows.
    func cancel(surface: WindowSurface? = nil) {
        guard showsUntil != nil else { return }
        for target in queued {
            serial &+= 1
            sg_present_pixmap(display.pointer, window, blank, serial, -1, -1, target)
        }
        queued.removeAll()
        showsUntil = nil
        if let surface, let covered = frames.compactMap({ $0?.rect }).reduce(nil, { (all: Rect?, r) in all.map { $0.union(r) } ?? r }) {
            surface.present(on: window, rect: covered, at: origin)
        }
        XFlush(display.pointer)
    }

    /// The window's blank interval (measured once, between the next two blanks: a counter
    /// read between blanks comes with the time it was read, not the blank's) and its counter
    /// now; nil when the server does not answer in time.
    private func blankNow() -> (interval: Double, msc: UInt64)? {
        guard !givenUp else { return nil }
        var msc: UInt64 = 0
        var ust: UInt64 = 0
        var answered = sg_present_msc(display.pointer, window, 0, Self.answerWait, &msc, &ust)
        if answered && blankInterval == nil {
            var first: (msc: UInt64, ust: UInt64) = (0, 0)
            var second: (msc: UInt64, ust: UInt64) = (0, 0)
            answered =
                sg_present_msc(display.pointer, window, msc + 1, Self.answerWait, &first.msc, &first.ust)
                && sg_present_msc(display.pointer, window, first.msc + 1, Self.answerWait, &second.msc, &second.ust)
                && second.msc > first.msc && second.ust > first.ust
            if answered {
                blankInterval = Double(second.ust - first.ust) / 1e6 / Double(second.msc - first.msc)
                msc = second.msc
            }
        }
        guard answered, let blankInterval else {
            unanswered += 1
            givenUp = unanswered >= Self.patience
            return nil
        }
        unanswered = 0
        return (blankInterval, msc)
    }

    /// Paints the sweep's frames one after the other into the back buffer, from the
    /// `final` scene it shows (the sweep starts and ends on it) back to it, and keeps each
    /// one's changed rectangle as a pixmap. False when they would hold more than `budget`.
    private func make(
        _ gate: Gate, from start: Double, to end: Double, step: Double, final: Scene, surface: WindowSurface, renderer: Renderer
    ) throws(UserError) -> Bool {
        var previous = final
        var bytes = 0
        var t = start
        while true {
            let scene = t < end ? gate.scene(at: t) : final
            var bare = scene
            bare.label?.emphasis = .shimmer(band: nil)
            guard bare == final else {
                _ = try surface.paint(final, after: previous, with: renderer)
                free()
                return false
            }
            let rects = try surface.paint(scene, after: previous, with: renderer)
            previous = scene
            if let rect = rects.dropFirst().reduce(rects.first, { (all, r) in all?.union(r) })?.wholePixels {
                bytes += Int(rect.width * rect.height) * 4
                guard bytes <= Self.budget else {
                    _ = try surface.paint(final, after: scene, with: renderer)
                    free()
                    givenUp = true
                    return false
                }
                frames.append((surface.pixmap(of: rect, for: window, depth: depth), rect))
            } else {
                frames.append(nil)
            }
            if t >= end { break }
            t += step
        }
        madeFor = (final, step)
        return true
    }

    private func free() {
        for frame in frames { if let frame { XFreePixmap(display.pointer, frame.pixmap) } }
        frames.removeAll()
        madeFor = nil
    }
}
