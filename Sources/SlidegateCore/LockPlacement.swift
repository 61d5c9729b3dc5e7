/// Where the lock screen puts its slider among the monitors the X server reports. Any
/// client can set those (`xrandr --setmonitor` makes a 1x1 primary monitor), so this is
/// total over every set of monitors: none, tiny ones, negative offsets, thousands of pixels.
package enum LockPlacement {
    /// A monitor as the server reports it.
    package struct Monitor: Equatable, Sendable {
        package var rect: Rect
        package var primary: Bool

        package init(rect: Rect, primary: Bool) {
            self.rect = rect
            self.primary = primary
        }
    }

    /// The least height of a slider at scale 1, as `--slider` must give (`Options.checkSize`).
    package static let minimumSliderHeight = 24.0

    /// Whether `monitor` holds a usable slider: three of the smallest sliders tall (the
    /// slider, its banner and clock) and five wide.
    package static func holdsSlider(_ monitor: Rect, scale: Double) -> Bool {
        let least = minimumSliderHeight * scale
        return monitor.width >= 5 * least && monitor.height >= 3 * least
    }

    /// The monitor the slider goes on: the primary one (else the first), unless it is too
    /// small for a usable slider; then the largest one that holds it (by area; the first of
    /// equals), else the largest. With no monitor at all, `screen` (the root window).
    package static func sliderMonitor(_ monitors: [Monitor], screen: Rect, scale: Double) -> Rect {
        guard let chosen = monitors.first(where: \.primary) ?? monitors.first else { return screen }
        if holdsSlider(chosen.rect, scale: scale) { return chosen.rect }
        let holding = monitors.filter { holdsSlider($0.rect, scale: scale) }
        let largest = (holding.isEmpty ? monitors : holding).max { $0.rect.width * $0.rect.height < $1.rect.width * $1.rect.height }
        return largest?.rect ?? screen
    }

    /// The slider's size without `--slider`: 7.5 % of the monitor's height (48 to 120
    /// pixels times `scale`, at most a third of the monitor), seven times as wide within the
    /// monitor — and never less than the smallest usable slider, `minimumSliderHeight`
    /// tall and twice that wide, whatever the monitor.
    package static func defaultSliderSize(on monitor: Rect, scale: Double) -> (width: Int, height: Int) {
        let least = max(Int(pixels: minimumSliderHeight * scale), 1)
        let height = max(Int(pixels: min(max(monitor.height * 0.075, 48 * scale), 120 * scale, monitor.height / 3)), least)
        let width = min(height * 7, Int(pixels: monitor.width) - height)
        return (max(width, 2 * height), height)
    }

    /// What the lock shows besides the slider and the banner strip.
    package struct Parts: Equatable, Sendable {
        package var message: Bool
        package var pinLength: Int
        package var clock: Bool
        /// `--status-command`'s line, under the clock (in the clock's window).
        package var status: Bool
        /// `--show-user`'s picture and name, above the clock (in the clock's window).
        package var user: Bool
        package var switchUser: Bool
        /// `--show-media`'s panel, above the slider (and the message line).
        package var media: Bool
        /// How many `--power-actions` buttons the row at the bottom right has room for.
        package var power: Int
        /// The label reads right to left: the power row goes to the bottom left.
        package var rightToLeft: Bool
        /// `--keyboard`'s on-screen keyboard, below the slider (which moves up to make room).
        package var keyboard: Bool

        package init(
            message: Bool = false, pinLength: Int = 0, clock: Bool = false, status: Bool = false, user: Bool = false,
            switchUser: Bool = false, media: Bool = false, power: Int = 0, rightToLeft: Bool = false, keyboard: Bool = false
        ) {
            self.keyboard = keyboard
            self.message = message
            self.pinLength = pinLength
            self.clock = clock
            self.status = status
            self.user = user
            self.switchUser = switchUser
            self.media = media
            self.power = power
            self.rightToLeft = rightToLeft
        }

        /// Whether the clock's window is there: for any of the clock, the status line and
        /// the user.
        package var clockWindow: Bool { clock || status || user }
    }

    /// Where everything goes, on the root window. A part the lock does not show has an
    /// empty rectangle.
    package struct Layout: Equatable, Sendable {
        package var slider: Rect
        package var banner: Rect
        package var message: Rect
        package var wheels = Rect.zero
        package var clock = Rect.zero
        package var switchUser = Rect.zero
        package var media = Rect.zero
        package var power = Rect.zero
        package var keyboard = Rect.zero

        /// Nothing placed yet.
        package static let empty = Layout(slider: .zero, banner: .zero, message: .zero)

        /// Every rectangle the lock places.
        package var all: [Rect] { [slider, banner, message, wheels, clock, switchUser, media, power, keyboard] }
    }

    /// The lock screen's layout on `monitors` (`screen` when there are none): the slider
    /// on `sliderMonitor`, at `--slider` (`geometry`) or its default place; the banner
    /// strip at that monitor's top; the message line, the wheels, the media panel, the
    /// clock and the switch-user button around the slider; the power row in the corner.
    package static func layout(monitors: [Monitor], screen: Rect, slider geometry: Geometry?, scale: Double, parts: Parts) -> Layout {
        let monitor = sliderMonitor(monitors, screen: screen, scale: scale)
        var slider = slider(on: monitor, geometry: geometry, scale: scale)
        var keyboard = Rect.zero
        if parts.keyboard {
            // The slider's own place goes up until the keyboard fits below it.
            let top = monitor.maxY - (slider.height * 0.3).rounded() - keyboardHeight(forSlider: slider.height)
                - (slider.height * 0.4).rounded() - slider.height
            if geometry == nil && slider.y > top { slider.y = max(top, monitor.y + bannerHeight(forSlider: slider.height, scale: scale)) }
            keyboard = Self.keyboard(below: slider, on: monitor)
        }
        let bannerWidth = max(min(monitor.width - 32, max(slider.width, 420)).rounded(), 1)
        let banner = Rect(
            x: monitor.x + ((monitor.width - bannerWidth) / 2).rounded(.down), y: monitor.y, width: bannerWidth,
            height: bannerHeight(forSlider: slider.height, scale: scale))
        let line = (slider.height * 0.6).rounded()
        let message = Rect(x: slider.x, y: slider.y - (slider.height * 0.25).rounded() - line, width: slider.width, height: line)
        var placed = Layout(slider: slider, banner: banner, message: message)
        placed.keyboard = keyboard
        if parts.pinLength > 0 {
            placed.wheels = wheelRow(count: parts.pinLength, above: parts.message ? message : slider, slider: slider, on: monitor, scale: scale)
        }
        var highest = [parts.message ? message : nil, parts.pinLength > 0 && placed.wheels.y < slider.y ? placed.wheels : nil]
            .compactMap { $0 }.reduce(slider) { $1.y < $0.y ? $1 : $0 }
        if parts.media {
            let panel = ControlPlacement.mediaPanel(above: highest, slider: slider)
            // Where there is no room above, it goes below the slider (and its wheels).
            if panel.y >= monitor.y + bannerHeight(forSlider: slider.height, scale: scale) {
                placed.media = panel
                highest = panel
            } else {
                let lowest = parts.pinLength > 0 && placed.wheels.y > slider.y ? placed.wheels : slider
                placed.media = Rect(
                    x: slider.x, y: lowest.maxY + (slider.height * 0.35).rounded(), width: panel.width, height: panel.height)
            }
        }
        if parts.clockWindow {
            placed.clock = clockArea(
                above: highest, slider: slider, on: monitor, scale: scale, clock: parts.clock, status: parts.status, user: parts.user)
        }
        if parts.switchUser {
            let lowest = parts.keyboard ? keyboard : parts.pinLength > 0 && placed.wheels.y > slider.y ? placed.wheels : slider
            placed.switchUser = switchUserButton(
                below: placed.media.y > slider.y ? placed.media : lowest, slider: slider, on: monitor, scale: scale)
        }
        if parts.power > 0 {
            placed.power = ControlPlacement.powerRow(count: parts.power, slider: slider, on: monitor, rightToLeft: parts.rightToLeft)
        }
        return placed
    }

    /// The slider on `monitor`: `--slider` relative to its top-left corner, or the default
    /// size centred horizontally in its lower part.
    package static func slider(on monitor: Rect, geometry: Geometry?, scale: Double) -> Rect {
        let defaultSize = defaultSliderSize(on: monitor, scale: scale)
        if let geometry { return geometry.resolve(in: monitor, defaultSize: defaultSize) }
        let w = Double(defaultSize.width)
        let h = Double(defaultSize.height)
        return Rect(
            x: monitor.x + ((monitor.width - w) / 2).rounded(.down),
            y: monitor.y + (monitor.height * 0.78 - h / 2).rounded(), width: w, height: h)
    }

    /// The on-screen keyboard: four rows of keys 0.8 of the slider's height, at least as
    /// wide as the slider and twelve keys (within the monitor), centred on it — right below
    /// it where there is room, else right above it, else at the monitor's bottom edge.
    package static func keyboard(below slider: Rect, on monitor: Rect) -> Rect {
        let key = (slider.height * 0.8).rounded()
        let margin = (slider.height * 0.3).rounded()
        let height = keyboardHeight(forSlider: slider.height)
        let width = max(min(monitor.width - 2 * margin, max(slider.width, key * 12)), 4)
        let x = max(monitor.x, min((slider.midX - width / 2).rounded(.down), monitor.maxX - width))
        let gap = (slider.height * 0.4).rounded()
        let below = slider.maxY + gap
        let above = slider.y - gap - height
        let y =
            below + height <= monitor.maxY - margin
            ? below : above >= monitor.y + margin ? above : max(monitor.y, monitor.maxY - margin - height)
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// The on-screen keyboard's height: 4.45 keys of 0.8 of the slider's height.
    package static func keyboardHeight(forSlider height: Double) -> Double {
        max(((height * 0.8).rounded() * 4.45).rounded(), 4)
    }

    /// The switch-user button: 0.6 of the slider's height tall, 3.6 times that wide, centred
    /// between the lowest of what the lock shows (`below`) and the monitor's bottom edge; at
    /// the monitor's top right, under the banner strip, where there is no room below.
    package static func switchUserButton(below: Rect, slider: Rect, on monitor: Rect, scale: Double) -> Rect {
        let height = (slider.height * 0.6).rounded()
        let width = max(min(monitor.width - 32, (height * 3.6).rounded()), 1)
        let room = monitor.maxY - below.maxY
        guard room >= height * 2 else {
            let margin = (height * 0.5).rounded()
            return Rect(
                x: monitor.maxX - width - margin, y: monitor.y + bannerHeight(forSlider: slider.height, scale: scale) + margin,
                width: width, height: height)
        }
        return Rect(
            x: (slider.midX - width / 2).rounded(.down), y: (below.maxY + (room - height) / 2).rounded(), width: width, height: height)
    }

    /// The wheels' row: 2.4 times the slider's height, as wide as the wheels need (at least the
    /// slider's width, within the monitor), centred above `above` (the slider, or the
    /// message line) — or below the slider when there is no room above it.
    package static func wheelRow(count: Int, above: Rect, slider: Rect, on monitor: Rect, scale: Double) -> Rect {
        let height = (slider.height * 2.4).rounded()
        let needed = (Double(count) * height * 0.5 * 1.16).rounded()
        let width = max(min(monitor.width - 32, max(slider.width, needed)), 1)
        let gap = (slider.height * 0.4).rounded()
        let x = (slider.midX - width / 2).rounded(.down)
        let top = above.y - gap - height
        let y = top >= monitor.y + bannerHeight(forSlider: slider.height, scale: scale) ? top : slider.maxY + gap
        return Rect(x: max(monitor.x, min(x, monitor.maxX - width)), y: y, width: width, height: height)
    }

    /// The clock's window: the user's picture and name (`userHeight`), the time about 1.2
    /// slider heights tall over a date line, and the status line (`statusLineHeight`), top
    /// to bottom, any part left out, centred on the slider, above the highest of what is
    /// above it, and below the banner strip. Where there is no room for it (a slider near
    /// the top), it is a single pixel of the cover's colour, and the UI draws nothing there.
    package static func clockArea(
        above: Rect, slider: Rect, on monitor: Rect, scale: Double, clock: Bool = true, status: Bool = false, user: Bool = false
    ) -> Rect {
        let height = (user ? userHeight(forSlider: slider.height) : 0) + (clock ? (slider.height * 2.2).rounded() : 0)
            + (status ? statusLineHeight(forSlider: slider.height) : 0)
        let width = max(min(monitor.width - 32, max(slider.width, 420 * scale)).rounded(), 1)
        let top = above.y - (slider.height * 0.5).rounded() - height
        guard top >= monitor.y + bannerHeight(forSlider: slider.height, scale: scale) else {
            return Rect(x: monitor.x, y: monitor.y, width: 1, height: 1)
        }
        return Rect(x: (slider.midX - width / 2).rounded(.down), y: top, width: width, height: height)
    }

    /// The user's strip at the top of the clock's window: 1.9 of the slider's height.
    package static func userHeight(forSlider height: Double) -> Double {
        max((height * 1.9).rounded(), 1)
    }

    /// The status line's strip at the bottom of the clock's window: 0.45 of the slider's height.
    package static func statusLineHeight(forSlider height: Double) -> Double {
        max((height * 0.45).rounded(), 1)
    }

    /// The banner strip's height: a box four fifths of the slider's height (at least 48
    /// pixels times `scale`), and the 12-pixel margin above it that the renderer keeps.
    package static func bannerHeight(forSlider height: Double, scale: Double) -> Double {
        max((48 * scale).rounded(), (height * 0.8).rounded()) + 12
    }
}
