import CX11
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// What both programs that draw the slider share — lock mode's UI (`LockUI`) and windowed
/// mode (`WindowedApp`): the slider's back buffer and renderer, the shimmer's sweeps handed
/// to the X server ahead, the PIN wheels' panel, and the pace of frames. Woken only for
/// input, messages and the next frame's deadline: nothing is painted while nothing moves or
/// the screen is blank.
final class SliderPainter {
    let display: XDisplay
    let stage: any Stage
    private let options: Options
    private let fontMap: FontMap
    /// `--theme`'s images and label font, decoded once for every relayout's renderer.
    private let look: Look
    private(set) var surface: WindowSurface
    private(set) var renderer: Renderer
    /// The shimmer's sweeps handed to the X server ahead: made at the first sweep after a
    /// relayout, not at start-up (nil before, and without Present).
    private var sweep: PresentedSweep?
    /// The scene the slider window shows.
    private(set) var shown: Scene?
    /// Something other than time changed the scene (input, a new state or layout): paint
    /// in this pass even if no frame is due. A wake-up that changed nothing (a ping) paints
    /// nothing, so frames keep their even pace.
    var changed = true
    /// When the next animation frame is due.
    private var frameDue: Double?
    /// When input may next repaint: one frame interval after the last such time, or after
    /// a quarter interval less than that if frames were not coming (so at most `--fps`
    /// frames a second, however fast the pointer). The guard sends motion once a frame; the
    /// quarter lets its message paint when it comes, though delivery jitters a little.
    private(set) var nextPaint = -Double.infinity
    /// The PIN wheels, where they are drawn (lock mode: the guard's wheels window; windowed
    /// mode: the window's upper part).
    var wheelsPanel: WheelsPanel?
    /// Lock mode: the guard draws the drag from lent parts, and the slider window is not
    /// painted meanwhile.
    var lent = false
    /// Whether start-up's pages are still to be given back: right after the first frame, and
    /// again at the first long wait after it (the shimmer's first pause), when the
    /// animation's own code has run once and what only its first frames touched can go;
    /// and once more after the shimmer's frames were first made and handed over.
    private var shedAfterFirstFrame = true
    private var shedAtFirstRest = true
    private var shedAfterSweepMade = true

    init(
        display: XDisplay, stage: any Stage, options: Options, fontMap: FontMap, look: Look, backdrop: Backdrop?
    ) throws(UserError) {
        self.display = display
        self.stage = stage
        self.options = options
        self.fontMap = fontMap
        self.look = look
        (surface, renderer) = try Self.makeBuffer(display, stage, options, fontMap, look, backdrop)
    }

    private static func makeBuffer(
        _ display: XDisplay, _ stage: any Stage, _ options: Options, _ fontMap: FontMap, _ look: Look, _ backdrop: Backdrop?
    ) throws(UserError) -> (WindowSurface, Renderer) {
        let size = stage.slider
        let surface = try makeSurface(display, stage)
        let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: size.width, height: size.height), rightToLeft: options.rightToLeft)
        let renderer = Renderer(
            layout: layout, background: options.background, foreground: options.foreground, fontMap: fontMap,
            family: look.font ?? "Sans", shimmer: look.shimmer, theme: look.theme, backdrop: backdrop, glyph: look.glyph)
        return (surface, renderer)
    }

    /// Draws what `scene` shows that needs no fonts, ahead of the first frame (`Renderer.prepare`).
    func prepare(_ scene: Scene) throws(UserError) {
        do {
            try renderer.prepare(scene)
        } catch {
            throw error.userError(drawing: "the slider")
        }
    }

    /// A back buffer the size of the stage's slider.
    private static func makeSurface(_ display: XDisplay, _ stage: any Stage) throws(UserError) -> WindowSurface {
        try WindowSurface(
            display: display, drawable: stage.window, visual: stage.visual, depth: stage.depth, width: Int(stage.slider.width),
            height: Int(stage.slider.height))
    }

    /// `scene` drawn whole into a buffer of its own, as the window would show it with the
    /// backdrop the painter has now; the screen is not touched.
    func drawnApart(_ scene: Scene) throws(UserError) -> WindowSurface {
        let apart = try Self.makeSurface(display, stage)
        _ = try apart.paint(scene, after: nil, with: renderer)
        return apart
    }

    /// The stage's slider changed size or place: a new back buffer; the wheels' panel is
    /// the caller's to make anew.
    func relayout(backdrop: Backdrop?) throws(UserError) {
        sweep = nil
        (surface, renderer) = try Self.makeBuffer(display, stage, options, fontMap, look, backdrop)
        wheelsPanel = nil
        forget()
    }

    /// What the window shows is not known any more (the screen came back, the guard gave
    /// the slider back): the next pass paints it whole.
    func forget() {
        shown = nil
        changed = true
    }

    /// Where the slider's buffer goes in its window.
    var origin: (x: Int32, y: Int32) { (Int32(stage.slider.x), Int32(stage.slider.y)) }

    /// The stage's window was exposed: the slider (unless the guard draws it meanwhile; the
    /// whole slider comes when it gives it back) and the wheels drawn in the same window.
    func exposed() {
        if !lent { surface.present(on: stage.window, at: origin) }
        if let panel = wheelsPanel, panel.window == stage.window { panel.present() }
    }

    /// The animation's part of a pass: paints what `gate` shows at `now` if a frame is due
    /// (`also` paints what goes with it elsewhere, such as lock mode's banner strip), and says
    /// when the next is. `limit` is when the decider must wake anyway (PAM's time limit);
    /// `idle` when it next acts by itself, the only deadline while the screen is blank.
    func frame(
        _ gate: Gate, at now: Double, echo: String?, blanking: Blanking, clock: ClockPanel?, limit: Double?, idle: Double?,
        also: (Scene) throws(UserError) -> Void
    ) throws(UserError) -> Double? {
        guard !blanking.isBlank else {
            clock?.sleep()
            return idle
        }
        let frame = 1 / Double(options.fps)
        // A pointer at 1000 Hz must not mean 1000 frames a second: a change waits for the
        // frame interval since the last paint, and then the newest state is painted.
        let inputWaits = changed && now < nextPaint
        sweep?.finished(at: now)
        // Input or a change ends a sweep handed over early; a wake-up for nothing else
        // (a ping) leaves it running.
        if changed { sweep?.cancel(surface: surface) }
        var queuedUntil = sweep?.showsUntil
        if queuedUntil == nil && ((changed && !inputWaits) || frameDue.map({ now >= $0 }) ?? true) {
            // Not for the first frame, which shows no sweep handed over: Present's questions
            // wait until it is drawn.
            if sweep == nil, shown != nil, gate.shimmerSweep(at: now) != nil {
                sweep = PresentedSweep(display: display, window: stage.window, depth: stage.depth, origin: origin)
            }
            if let until = try sweep?.queue(gate, at: now, fps: options.fps, shown: shown, surface: surface, renderer: renderer) {
                queuedUntil = until
            } else {
                try paint(gate, at: now, echo: echo, also: also)
            }
            nextPaint = max(nextPaint, now - frame / 4) + frame
            changed = inputWaits
        }
        var deadline = gate.nextDeadline(after: queuedUntil ?? now)
        if let queuedUntil, let other = gate.nextChangeBesidesTheSlider(after: now), other < queuedUntil {
            deadline = other
        }
        frameDue = deadline
        if let limit, limit < deadline ?? .infinity { deadline = limit }
        if changed { deadline = min(deadline ?? .infinity, nextPaint) }
        // The clock after the slider: the first frame does not wait for it.
        if let clock, clock.due { try clock.paint() }
        // Before a long wait (or the clock's next minute), ask whether DPMS turned the
        // monitors off: then nothing is drawn and nothing wakes until they are back.
        if deadline.map({ $0 - now > 0.5 }) ?? (clock != nil), shown?.label != nil {
            blanking.checkMonitors()
            if blanking.isBlank {
                clock?.sleep()
                return idle
            }
        }
        return deadline
    }

    /// Repaints what changed in the back buffer and sends that part to the window.
    private func paint(_ gate: Gate, at now: Double, echo: String?, also: (Scene) throws(UserError) -> Void) throws(UserError) {
        var scene = gate.scene(at: now)
        if gate.entry.prompt?.echo == true { scene.field?.echoText = echo }
        guard scene != shown else { return }
        if !lent {
            for dirty in try surface.paint(scene, after: shown, with: renderer) {
                surface.present(on: stage.window, rect: dirty, at: origin)
            }
            shown = scene
        }
        if let wheels = scene.wheels { try wheelsPanel?.paint(wheels) }
        try also(scene)
    }

    /// Gives back start-up's pages when the pass ends in a wait until `deadline`: right after
    /// the first frame, at the first long wait after it, and after the shimmer's frames were
    /// first made.
    func shed(at now: Double, deadline: Double?) {
        let longWait = deadline.map { $0 - now > 0.5 } ?? true
        if shedAfterFirstFrame && shown != nil {
            shedAfterFirstFrame = false
            shedStartupPages()
        } else if shedAfterSweepMade && sweep?.isMade == true && longWait {
            shedAfterSweepMade = false
            shedAtFirstRest = false
            shedStartupPages()
        } else if shedAtFirstRest && shown != nil && longWait {
            shedAtFirstRest = false
            shedStartupPages()
        }
    }
}
