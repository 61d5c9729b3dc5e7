import CX11
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// Lock mode's clock: the guard's clock window, painted whole, and a timer on the wall
/// clock for when its text next changes; `--status-command`'s line in a strip under it. It wakes the UI once a minute (once a second if a
/// format shows seconds), never between, and not while the screen is blank; a clock set
/// or a machine woken from sleep repaints it at once.
final class ClockPanel {
    private let painted: PaintedWindow
    var window: Window { painted.window }
    private let renderer: ClockRenderer
    private let clock: WallClock
    private var shown: (time: String, date: String, status: String, battery: Battery?)?
    /// `--status-command`'s line as last read, and `--show-battery`'s battery.
    private var status = ""
    private var battery: Battery?
    let timer: WallClockTimer
    /// The text may have changed: the timer fired, or the screen came back.
    private(set) var due = true

    /// Nil when the window has no room for a clock (the guard made it a single pixel).
    /// `statusHeight`: the status line's strip at the window's bottom, `userHeight` the
    /// user's at its top (0: none).
    init?(
        display: XDisplay, window: Window, options: Options, fontMap: FontMap, backdrop: Backdrop?, statusHeight: Double,
        userHeight: Double
    ) throws(UserError) {
        painted = try PaintedWindow(display: display, window: window)
        guard painted.height > 1 else { return nil }
        renderer = ClockRenderer(
            width: Double(painted.width), height: Double(painted.height), statusHeight: statusHeight,
            user: (options.showUser ? UserCard.load() : nil).map { ($0.name, $0.picture?.image) }, userHeight: userHeight,
            background: options.background,
            backdrop: backdrop, foreground: options.foreground, fontMap: fontMap)
        // With --no-clock the window holds only the status line.
        clock = options.showsClock ? WallClock(time: options.clockFormat, date: options.dateFormat) : WallClock(time: "", date: "")
        timer = try WallClockTimer()
    }

    /// Repaints if the text changed since it was last painted; arms the timer for when it
    /// next changes (with --no-clock, never: the status line alone wakes no one on the minute).
    func paint() throws(UserError) {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let text = clock.text(at: wall.tv_sec)
        if let next = clock.nextChange(after: wall) { timer.arm(at: next) } else { timer.disarm() }
        due = false
        if let shown, shown.time == text.time, shown.date == text.date, shown.status == status, shown.battery == battery { return }
        let (renderer, status, battery) = (renderer, status, battery)
        try painted.paint { (cr) throws(RenderError) in
            try renderer.draw(time: text.time, date: text.date, status: status, battery: battery, into: cr)
        }
        shown = (text.time, text.date, status, battery)
    }

    /// `--status-command` printed a new line: painted in the next pass.
    func show(status line: String) {
        guard line != status else { return }
        status = line
        due = true
    }

    /// UPower's battery changed: painted in the next pass.
    func show(battery now: Battery?) {
        guard now != battery else { return }
        battery = now
        due = true
    }

    /// The timer fired, or the clock was set.
    func timerFired() {
        timer.drain()
        due = true
    }

    func exposed() throws(UserError) {
        try painted.exposed()
    }

    /// The screen went blank: no wake-ups until it comes back.
    func sleep() {
        timer.disarm()
        due = false
    }

    /// The screen came back from blank: the text is checked at once.
    func wake() {
        due = true
    }
}
