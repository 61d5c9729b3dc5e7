import CX11
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateXlib

/// Lock mode's clock: the guard's clock window, its back buffer, and when its text next
/// changes. It wakes the UI once a minute (once a second if a format shows seconds), never
/// between, and not while the screen is blank.
final class ClockPanel {
    let window: Window
    let surface: WindowSurface
    private let renderer: ClockRenderer
    private let clock: WallClock
    private var shown: (time: String, date: String)?
    /// When, on the monotonic clock, the text next changes.
    private(set) var due = -Double.infinity

    /// Nil when the window has no room for a clock (the guard made it a single pixel).
    init?(display: XDisplay, window: Window, options: Options, fontMap: FontMap, backdrop: Backdrop?) throws(UserError) {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, window, &attributes) != 0, let visual = attributes.visual else {
            throw UserError("--lock-ui: no window \(window)", status: .internalError)
        }
        guard attributes.height > 1 else { return nil }
        XSelectInput(display.pointer, window, ExposureMask)
        self.window = window
        surface = try WindowSurface(
            display: display, drawable: window, visual: visual, depth: attributes.depth, width: Int(attributes.width),
            height: Int(attributes.height))
        renderer = ClockRenderer(
            width: Double(attributes.width), height: Double(attributes.height), background: options.background,
            backdrop: backdrop, foreground: options.foreground, fontMap: fontMap)
        clock = WallClock(time: options.clockFormat, date: options.dateFormat)
    }

    /// Repaints if the text changed since it was last painted; sets when it next changes.
    func paint(at now: Double) throws(UserError) {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let text = clock.text(at: wall.tv_sec)
        due = now + clock.secondsToNextChange(from: wall)
        guard shown.map({ $0 != text }) ?? true else { return }
        try surface.paint { (cr) throws(RenderError) in try renderer.draw(time: text.time, date: text.date, into: cr) }
        surface.present(on: window)
        shown = text
    }

    /// The screen came back from blank: the text is checked at once.
    func wake() {
        due = -Double.infinity
    }
}
