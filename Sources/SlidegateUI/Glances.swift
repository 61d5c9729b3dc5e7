import SlidegateCore
import SlidegateProtocol
import SlidegateRender
import SlidegateXlib
import SlidegateSystem

private let properties = "org.freedesktop.DBus.Properties"
private let busDaemon = (name: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus")

/// `--show-battery`: UPower's display device on the system bus, its properties read once
/// and then followed through its PropertiesChanged signals (from UPower's own connection
/// alone). No UPower, or no battery: nothing.
final class BatteryWatch {
    private static let service = "org.freedesktop.UPower"
    private static let path = "/org/freedesktop/UPower/devices/DisplayDevice"
    private static let interface = "org.freedesktop.UPower.Device"
    private var owner: String?
    private var known: [String: BusValue] = [:]
    private(set) var battery: Battery?
    var changed: () -> Void = {}

    init(bus: Bus) {
        bus.match(path: Self.path, properties, "PropertiesChanged") { [weak self] signal in self?.signalled(signal) }
        bus.call(busDaemon.name, busDaemon.path, busDaemon.interface, "GetNameOwner", [.text(Self.service)]) {
            [weak self, weak bus] reply in
            guard let self, let bus, reply.error == nil, let owner = reply.string() else { return }
            self.owner = owner
            bus.call(owner, Self.path, properties, "GetAll", [.text(Self.interface)]) { [weak self] reply in
                guard reply.error == nil, let all = reply.properties() else { return }
                self?.take(all)
            }
        }
    }

    private func signalled(_ signal: BusMessage) {
        guard let owner, signal.sender == owner, signal.string() == Self.interface, let changes = signal.properties() else { return }
        take(changes)
    }

    private func take(_ changes: [String: BusValue]) {
        known.merge(changes) { $1 }
        let now = Battery(upower: known)
        guard now != battery else { return }
        battery = now
        changed()
    }
}

/// `--power-actions`: asks logind (system bus) which of the actions it offers, and carries
/// out the one the guard says was pressed, with `interactive` true: polkit decides, and
/// may ask. Whatever happens, the lock stays up.
final class PowerWatch {
    private static let service = "org.freedesktop.login1"
    private static let path = "/org/freedesktop/login1"
    private static let interface = "org.freedesktop.login1.Manager"
    private let bus: Bus
    private let asked: [PowerAction]
    private var answers: [PowerAction: Bool] = [:]
    /// Those offered, in the order asked.
    var offered: [PowerAction] { asked.filter { answers[$0] == true } }
    var changed: () -> Void = {}

    init(bus: Bus, actions: [PowerAction]) {
        self.bus = bus
        asked = actions
        for action in actions {
            bus.call(Self.service, Self.path, Self.interface, action.question) { [weak self] reply in
                guard let self else { return }
                answers[action] = reply.error == nil && reply.string().map(PowerAction.offered) == true
                changed()
            }
        }
    }

    func perform(_ action: PowerAction) {
        guard answers[action] == true else { return }
        bus.call(Self.service, Self.path, Self.interface, action.method, [.flag(true)]) { reply in
            if let error = reply.error { report("--power-actions: logind did not \(action.rawValue): \(error)") }
        }
    }
}

/// `--show-media`: the MPRIS players on the session bus (`MediaPlayers`), found with
/// ListNames and followed through NameOwnerChanged and their PropertiesChanged signals:
/// nothing polls, and nothing wakes while nothing changes.
final class MediaWatch {
    private static let path = "/org/mpris/MediaPlayer2"
    private static let interface = "org.mpris.MediaPlayer2.Player"
    private let bus: Bus
    private(set) var players = MediaPlayers()
    /// What is shown changed (called at most once per signal; the UI paints at its pace).
    var changed: () -> Void = {}

    init(bus: Bus) {
        self.bus = bus
        bus.match(sender: busDaemon.name, path: busDaemon.path, busDaemon.interface, "NameOwnerChanged") { [weak self] signal in
            guard let self, let name = signal.string(), name.hasPrefix(MediaPlayers.namePrefix), let old = signal.string(),
                let new = signal.string()
            else { return }
            if !old.isEmpty { remove(old) }
            if !new.isEmpty { follow(owner: new, name: name) }
        }
        bus.match(path: Self.path, properties, "PropertiesChanged") { [weak self] signal in
            guard let self, let sender = signal.sender, players.follows(sender), signal.string() == Self.interface,
                let changes = signal.properties()
            else { return }
            update(sender, changes)
        }
        bus.call(busDaemon.name, busDaemon.path, busDaemon.interface, "ListNames") { [weak self] reply in
            for name in reply.strings() ?? [] where name.hasPrefix(MediaPlayers.namePrefix) {
                self?.bus.call(busDaemon.name, busDaemon.path, busDaemon.interface, "GetNameOwner", [.text(name)]) { [weak self] reply in
                    if reply.error == nil, let owner = reply.string() { self?.follow(owner: owner, name: name) }
                }
            }
        }
    }

    private func follow(owner: String, name: String) {
        guard players.add(owner: owner, name: name) else { return }
        bus.call(owner, Self.path, properties, "GetAll", [.text(Self.interface)]) { [weak self] reply in
            if reply.error == nil, let all = reply.properties() { self?.update(owner, all) }
        }
    }

    private func remove(_ owner: String) {
        let before = players.current
        players.remove(owner: owner)
        if players.current != before { changed() }
    }

    private func update(_ owner: String, _ changes: [String: BusValue]) {
        let before = players.current
        players.update(owner: owner, changes)
        if players.current != before { changed() }
    }

    /// Previous, play/pause or next, sent to the player shown.
    func perform(_ control: LockControl) {
        guard let owner = players.current?.owner else { return }
        let method =
            switch control {
            case .previous: "Previous"
            case .playPause: "PlayPause"
            case .next: "Next"
            case .power, .switchUser: ""
            }
        guard !method.isEmpty else { return }
        bus.call(owner, Self.path, Self.interface, method) { reply in
            if let error = reply.error { report("--show-media: the player did not \(method): \(error)") }
        }
    }
}

/// The lock's glances and controls that read the buses (`--show-battery`, `--power-actions`
/// on the system bus, `--show-media` on the session bus): the watches, the media panel and
/// the power row they paint, and the guard told which controls are shown. A bus that
/// cannot be reached is said once; the rest goes on without it.
final class Glances {
    private let options: Options
    private let link: GuardLink
    private var buses: [Bus] = []
    private var batteryWatch: BatteryWatch?
    private var powerWatch: PowerWatch?
    private var mediaWatch: MediaWatch?
    /// The battery changed: the clock panel shows it.
    var batteryChanged: () -> Void = {}
    var battery: Battery? { batteryWatch?.battery }
    /// The panel and the row need painting; the panel is painted at most `--fps` times a
    /// second whatever a player sends.
    private var mediaDue = true
    private var powerDue = true
    private var mediaPaintedAt = -Double.infinity
    /// The controls the guard was last told are shown, and whether a watch said something
    /// changed since.
    private var told: [LockControl]?
    private var controlsDue = true
    /// The control the keyboard's focus is on, ringed.
    var focused: LockControl? {
        didSet {
            guard focused != oldValue else { return }
            let media = Set(LockControl.media)
            if [focused, oldValue].contains(where: { $0.map(media.contains) == true }) { mediaDue = true }
            if [focused, oldValue].contains(where: { if case .power? = $0 { true } else { false } }) { powerDue = true }
        }
    }

    init(options: Options, loop: EventLoop, link: GuardLink) {
        self.options = options
        self.link = link
        if options.showBattery || !options.powerActions.isEmpty, let system = Self.open(.system, loop, for: options) {
            buses.append(system)
            if options.showBattery {
                let watch = BatteryWatch(bus: system)
                watch.changed = { [unowned self] in batteryChanged() }
                batteryWatch = watch
            }
            if !options.powerActions.isEmpty {
                let watch = PowerWatch(bus: system, actions: options.powerActions)
                watch.changed = { [unowned self] in
                    powerDue = true
                    controlsDue = true
                }
                powerWatch = watch
            }
        }
        if options.showMedia, let session = Self.open(.session, loop, for: options) {
            buses.append(session)
            let watch = MediaWatch(bus: session)
            watch.changed = { [unowned self] in
                mediaDue = true
                controlsDue = true
            }
            mediaWatch = watch
        }
    }

    private static func open(_ kind: Bus.Kind, _ loop: EventLoop, for options: Options) -> Bus? {
        let users =
            kind == .session
            ? ["--show-media"] : (options.showBattery ? ["--show-battery"] : []) + (options.powerActions.isEmpty ? [] : ["--power-actions"])
        do {
            return try Bus(kind, loop: loop)
        } catch {
            report("\(users.joined(separator: ", ")): \(error.message); shown without it")
            return nil
        }
    }

    /// The controls shown now, in reading order.
    var shown: [LockControl] {
        (mediaWatch?.players.current == nil ? [] : LockControl.media) + (powerWatch?.offered ?? []).map { .power($0) }
    }

    /// Handles what the buses sent, tells the guard of changed controls and paints what
    /// changed (not while `blank`); says when next to come back.
    func advance(to now: Double, blank: Bool, media: NoticeWindow?, power: NoticeWindow?) throws(UserError) -> Double? {
        // What a bus read but has not handled yet (its deadline is then now), and calls
        // past their timeout: a pass of the shimmer's costs no read of the buses.
        for bus in buses where bus.deadline.map({ $0 <= now }) == true { bus.process() }
        if controlsDue {
            controlsDue = false
            let controls = shown
            if controls != told {
                link.send(.controls(controls))
                told = controls
            }
        }
        var earliest = Earliest()
        buses.forEach { earliest.consider($0.deadline) }
        guard !blank else { return earliest.time }
        if powerDue, let power, let watch = powerWatch {
            powerDue = false
            let size = (power.renderer.width, power.renderer.height)
            let placed = ControlPlacement.powerButtons(
                watch.offered, in: size, configured: options.powerActions.count, rightToLeft: options.rightToLeft)
            let buttons = placed.map { (text: options.strings[$0.0.label], rect: $0.1) }
            let ringed = placed.firstIndex { focused == .power($0.0) }
            try power.paint { (renderer, cr) throws(RenderError) in try renderer.drawButtons(buttons, focused: ringed, into: cr) }
        }
        if mediaDue, let media {
            let next = mediaPaintedAt + 1 / Double(max(options.fps, 1))
            if now < next {
                earliest.consider(next)
            } else {
                mediaDue = false
                mediaPaintedAt = now
                try paint(media)
            }
        }
        return earliest.time
    }

    private func paint(_ media: NoticeWindow) throws(UserError) {
        let size = (media.renderer.width, media.renderer.height)
        let (playing, focused, rightToLeft) = (mediaWatch?.players.current, focused, options.rightToLeft)
        try media.paint { (renderer, cr) throws(RenderError) in
            try renderer.drawMedia(
                title: playing?.title, artist: playing?.artist ?? "", playing: playing?.playing ?? false,
                text: ControlPlacement.mediaText(in: size, rightToLeft: rightToLeft),
                buttons: ControlPlacement.mediaButtons(in: size, rightToLeft: rightToLeft), focused: focused, into: cr)
        }
    }

    /// The windows were made anew: everything is painted again.
    func windowsChanged() {
        mediaDue = true
        powerDue = true
        mediaPaintedAt = -Double.infinity
    }

    /// The guard says a control was pressed.
    func perform(_ control: LockControl) {
        switch control {
        case .power(let action): powerWatch?.perform(action)
        default: mediaWatch?.perform(control)
        }
    }
}

/// `--check`'s findings for the glances on the buses: what the lock would show now. A
/// missing bus, battery, player or logind is a note: the lock works without them.
enum GlancesCheck {
    static func findings(battery: Bool, media: Bool, power: [PowerAction]) -> [SetupReport.Finding] {
        var findings: [SetupReport.Finding] = []
        if battery || !power.isEmpty {
            let subjects = (battery ? ["battery"] : []) + (power.isEmpty ? [] : ["power actions"])
            do throws(UserError) {
                let system = try Bus(.system, loop: nil)
                if battery { findings += [batteryFinding(system)] }
                if !power.isEmpty { findings += [powerFinding(system, power)] }
            } catch {
                findings += subjects.map { .init(.note, $0, "\(error.message): nothing would show") }
            }
        }
        if media {
            do throws(UserError) {
                findings.append(mediaFinding(try Bus(.session, loop: nil)))
            } catch {
                findings.append(.init(.note, "media", "\(error.message): no player would show"))
            }
        }
        return findings
    }

    private static let patience = 3.0

    private static func batteryFinding(_ bus: Bus) -> SetupReport.Finding {
        let watch = BatteryWatch(bus: bus)
        bus.settle(within: patience)
        // The GetAll its answer asked for.
        bus.settle(within: patience)
        guard let battery = watch.battery else {
            return .init(.note, "battery", "UPower reports no battery (or is not running): no level would show")
        }
        return .init(.ok, "battery", battery.text + (battery.charging ? ", on mains power" : ""))
    }

    private static func powerFinding(_ bus: Bus, _ actions: [PowerAction]) -> SetupReport.Finding {
        let watch = PowerWatch(bus: bus, actions: actions)
        bus.settle(within: patience)
        let offered = watch.offered
        let withheld = actions.filter { !offered.contains($0) }.map(\.rawValue)
        guard !withheld.isEmpty else { return .init(.ok, "power actions", "logind offers \(offered.map(\.rawValue).joined(separator: ", "))") }
        return .init(
            .note, "power actions",
            "logind does not offer \(withheld.joined(separator: ", ")) (or is not running): \(withheld.count == 1 ? "its button" : "their buttons") would not show")
    }

    private static func mediaFinding(_ bus: Bus) -> SetupReport.Finding {
        let watch = MediaWatch(bus: bus)
        for _ in 0..<3 { bus.settle(within: patience) }
        guard let playing = watch.players.current else {
            return .init(.note, "media", "no MPRIS player on the session bus now: the panel shows when one plays")
        }
        return .init(.ok, "media", "\"\(playing.title)\"" + (playing.playing ? ", playing" : ""))
    }
}
