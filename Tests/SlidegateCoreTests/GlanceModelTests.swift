import Testing

@testable import SlidegateCore

/// The models behind --show-battery, --show-media and --power-actions: what the buses say,
/// bounded, and where the buttons are.
struct GlanceModelTests {
    @Test func upowerDisplayDeviceBecomesABattery() {
        let discharging: [String: BusValue] = ["Type": .number(2), "IsPresent": .flag(true), "Percentage": .number(61.6), "State": .number(2)]
        func with(_ changes: [String: BusValue]) -> [String: BusValue] { discharging.merging(changes, uniquingKeysWith: { $1 }) }
        #expect(Battery(upower: discharging) == Battery(percent: 62, charging: false))
        for state in [1.0, 4, 5] {
            #expect(Battery(upower: with(["State": .number(state)]))?.charging == true, "state \(state)")
        }
        #expect(Battery(upower: with(["Percentage": .number(140)]))?.percent == 100)
        #expect(Battery(upower: with(["Percentage": .number(.nan)])) == nil)
        // A desktop: the display device is line power, or not present.
        #expect(Battery(upower: with(["Type": .number(1)])) == nil)
        #expect(Battery(upower: with(["IsPresent": .flag(false)])) == nil)
        #expect(Battery(upower: [:]) == nil)
        #expect(Battery(percent: 7, charging: true).text == "7 %")
    }

    @Test func busTextIsCutAndRepaired() {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(BusValue.text(long).utf8.count == BusValue.Limits.text)
        // "é" is two bytes: a cut never splits it.
        let accents = [UInt8](String(repeating: "é", count: 600).utf8)
        let cut = BusValue.text(accents)
        #expect(cut.utf8.count <= BusValue.Limits.text && cut.allSatisfy { $0 == "é" })
        #expect(BusValue.text([0x41, 0xff, 0xfe, 0x42]) == "A\u{FFFD}\u{FFFD}B")
    }

    @Test func powerActionLists() {
        #expect(PowerAction.list("suspend") == [.suspend])
        #expect(PowerAction.list("poweroff,suspend,reboot,hibernate") == [.poweroff, .suspend, .reboot, .hibernate])
        for bad in ["", "suspend,", ",suspend", "suspend,suspend", "sleep", "Suspend", "suspend, reboot"] {
            #expect(PowerAction.list(bad) == nil, "\(bad)")
        }
        #expect(PowerAction.offered("yes") && PowerAction.offered("challenge"))
        #expect(!PowerAction.offered("no") && !PowerAction.offered("na") && !PowerAction.offered(""))
        #expect(PowerAction.poweroff.method == "PowerOff" && PowerAction.poweroff.question == "CanPowerOff")
    }

    @Test func controlsRoundTripThroughTheirBits() {
        #expect(LockControl.controls(LockControl.mask(LockControl.all)) == LockControl.all)
        #expect(LockControl.controls(LockControl.mask([.next, .power(.reboot)])) == [.next, .power(.reboot)])
        #expect(Set(LockControl.all.map(\.bit)).count == LockControl.all.count)
        #expect(LockControl(bit: UInt8(LockControl.all.count)) == nil)
        #expect(LockControl.mediaKey(0x1008_FF14) == .playPause && LockControl.mediaKey(0x1008_FF31) == .playPause)
        #expect(LockControl.mediaKey(0x1008_FF17) == .next && LockControl.mediaKey(0x1008_FF16) == .previous)
        #expect(LockControl.mediaKey(0x61) == nil)
    }

    @Test func tabMovesTheFocusRoundTheControlsInReadingOrder() {
        let shown: [LockControl] = [.previous, .playPause, .next, .power(.suspend), .switchUser]
        var focus = ControlFocus()
        focus.move(true, among: shown)
        #expect(focus.focused == .previous, "the first Tab focuses the first control")
        for _ in 0..<4 { focus.move(true, among: shown) }
        #expect(focus.focused == .switchUser)
        focus.move(true, among: shown)
        #expect(focus.focused == .previous, "round again")
        focus.move(false, among: shown)
        #expect(focus.focused == .switchUser, "Shift+Tab goes back")
        focus.follow([.previous, .next])
        #expect(focus.focused == nil, "a control that went takes the focus with it")
        focus.move(false, among: shown)
        #expect(focus.focused == .switchUser, "from none, Shift+Tab focuses the last")
        focus.follow(shown)
        #expect(focus.focused == .switchUser)
        focus.end()
        #expect(focus.focused == nil)
        focus.move(true, among: [])
        #expect(focus.focused == nil, "nothing to focus")
        #expect(ControlFocus.step(keysym: 0xFF09, shift: false) == .forward && ControlFocus.step(keysym: 0xFF09, shift: true) == .backward)
        #expect(ControlFocus.step(keysym: 0xFE20, shift: true) == .backward)
        #expect([0xFF0D, 0xFF8D, 0x20].allSatisfy { ControlFocus.step(keysym: $0, shift: false) == .activate })
        #expect(ControlFocus.step(keysym: 0xFF1B, shift: false) == .end && ControlFocus.step(keysym: 0x61, shift: false) == nil)
        #expect([0xFFE1, 0xFFE3, 0xFFE9, 0xFFEB, 0xFE03].allSatisfy { ControlFocus.step(keysym: $0, shift: false) == .stay }, "modifiers")
    }

    @Test func thePlayingPlayerIsShownElseTheLastChanged() {
        var players = MediaPlayers()
        #expect(players.current == nil)
        let added = [
            players.add(owner: ":1.5", name: "org.mpris.MediaPlayer2.mpv"),
            players.add(owner: ":1.5", name: "org.mpris.MediaPlayer2.mpv.instance2"),
            players.add(owner: ":1.6", name: "org.example.NotAPlayer"),
        ]
        #expect(added == [true, false, false], "one player per connection, and only players")
        #expect(players.current == nil, "nothing known of it yet")
        players.update(
            owner: ":1.5",
            [
                "PlaybackStatus": .text("Playing"),
                "Metadata": .dictionary(["xesam:title": .text("Tone"), "xesam:artist": .texts(["Ann", "Bo"])]),
            ])
        #expect(players.current == MediaPlayers.NowPlaying(owner: ":1.5", title: "Tone", artist: "Ann, Bo", playing: true))
        let vlc = players.add(owner: ":1.7", name: "org.mpris.MediaPlayer2.vlc")
        #expect(vlc)
        players.update(owner: ":1.7", ["PlaybackStatus": .text("Paused"), "Metadata": .dictionary(["xesam:title": .text("Film")])])
        #expect(players.current?.owner == ":1.5", "the one playing, though the other changed since")
        players.update(owner: ":1.5", ["PlaybackStatus": .text("Paused")])
        #expect(players.current?.owner == ":1.5", "both paused: the last that changed")
        players.update(owner: ":1.7", ["Volume": .number(0.5)])
        #expect(players.current?.title == "Film")
        players.remove(owner: ":1.7")
        #expect(players.current?.title == "Tone")
        // A player without a title is named by its bus name.
        players.update(owner: ":1.5", ["Metadata": .dictionary([:])])
        #expect(players.current?.title == "mpv")
        players.update(owner: ":9.9", ["PlaybackStatus": .text("Playing")])
        #expect(!players.follows(":9.9") && players.current?.owner == ":1.5", "a stranger's signal changes nothing")
    }

    @Test func aBusFullOfPlayersKeepsTheFirst() {
        var players = MediaPlayers()
        for i in 0..<100 { players.add(owner: ":1.\(i)", name: "org.mpris.MediaPlayer2.p\(i)") }
        #expect((0..<100).filter { players.follows(":1.\($0)") }.count == MediaPlayers.limit)
    }

    @Test func mediaButtonsSitRightInThePanel() {
        let size = (width: 378.0, height: 70.0)
        let buttons = ControlPlacement.mediaButtons(in: size)
        #expect(buttons.map(\.0) == [.previous, .playPause, .next])
        let rects = buttons.map(\.1)
        #expect(rects.allSatisfy { $0.width == $0.height && $0.y >= 0 && $0.maxY <= size.height && $0.x >= 0 })
        #expect(zip(rects, rects.dropFirst()).allSatisfy { $0.maxX < $1.x }, "apart, left to right")
        #expect(size.width - rects[2].maxX == rects[2].y, "as far from the right edge as from the top")
        #expect(ControlPlacement.mediaText(in: size).maxX < rects[0].x)
        // Right to left: the buttons at the left, in the same order (playback controls are
        // not mirrored), the text at the right.
        let mirrored = ControlPlacement.mediaButtons(in: size, rightToLeft: true)
        #expect(mirrored.map(\.0) == [.previous, .playPause, .next])
        #expect(mirrored[0].1.x == rects[2].y && mirrored.map(\.1.width) == rects.map(\.width))
        #expect(zip(mirrored, mirrored.dropFirst()).allSatisfy { $0.1.maxX < $1.1.x })
        let text = ControlPlacement.mediaText(in: size, rightToLeft: true)
        #expect(text.x > mirrored[2].1.maxX && text.maxX < size.width)
    }

    @Test func powerButtonsFillTheRowFromItsRight() {
        let size = (width: 490.0, height: 32.0)
        let all = ControlPlacement.powerButtons([.suspend, .hibernate, .reboot, .poweroff], in: size, configured: 4)
        #expect(all.first?.1.x == 0 && all.last?.1.maxX == size.width)
        let two = ControlPlacement.powerButtons([.suspend, .poweroff], in: size, configured: 4)
        #expect(two.map(\.0) == [.suspend, .poweroff])
        #expect(two.last?.1.maxX == size.width && two.map(\.1.width) == all.prefix(2).map(\.1.width))
        #expect(ControlPlacement.powerButtons([], in: size, configured: 4).isEmpty)
        // Right to left: the first at the right of those shown, from the row's left end.
        let mirrored = ControlPlacement.powerButtons([.suspend, .poweroff], in: size, configured: 4, rightToLeft: true)
        #expect(mirrored.map(\.0) == [.suspend, .poweroff] && mirrored[1].1.x == 0 && mirrored[0].1.x > mirrored[1].1.maxX)
        #expect(ControlPlacement.powerButtons([.suspend], in: size, configured: 0).isEmpty)
    }

    @Test func theLayoutMakesRoomForTheMediaPanelAndThePowerRow() {
        let screen = Rect(x: 0, y: 0, width: 1280, height: 720)
        let monitors = [LockPlacement.Monitor(rect: screen, primary: true)]
        let plain = LockPlacement.layout(monitors: monitors, screen: screen, slider: nil, scale: 1, parts: .init(clock: true))
        let placed = LockPlacement.layout(
            monitors: monitors, screen: screen, slider: nil, scale: 1, parts: .init(clock: true, status: true, media: true, power: 3))
        #expect(placed.slider == plain.slider)
        #expect(placed.media == Rect(x: 451, y: 446, width: 378, height: 70))
        #expect(placed.clock.maxY < placed.media.y && placed.media.maxY < placed.slider.y)
        #expect(placed.power.maxX < screen.maxX && placed.power.maxY < screen.maxY && placed.power.y > placed.slider.maxY)
        #expect(placed.power.width == 3 * 115 + 2 * 10, "three buttons 3.6 times the 32-pixel row tall, 10 apart")
        let mirrored = LockPlacement.layout(
            monitors: monitors, screen: screen, slider: nil, scale: 1, parts: .init(power: 3, rightToLeft: true))
        #expect(mirrored.power == Rect(x: 19, y: placed.power.y, width: placed.power.width, height: placed.power.height), "bottom left")
        // A slider near the top: the panel goes below it.
        let high = LockPlacement.layout(
            monitors: monitors, screen: screen, slider: Geometry(parsing: "378x54+451+80"), scale: 1, parts: .init(media: true))
        #expect(high.media.y > high.slider.maxY)
        // A tiny monitor: the row stays on it.
        let tiny = Rect(x: 0, y: 0, width: 200, height: 120)
        let small = LockPlacement.layout(
            monitors: [.init(rect: tiny, primary: true)], screen: tiny, slider: nil, scale: 1, parts: .init(power: 4))
        #expect(small.power.x >= 0 && small.power.maxX <= tiny.maxX)
    }
}
