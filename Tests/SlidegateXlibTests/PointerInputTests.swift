import CX11
import SlidegateXlib
import Testing

/// Both modes read a pointer event the same way: the guard in the root window's
/// coordinates, windowed mode in its window's, each less where the slider is.
@Suite struct PointerInputTests {
    func button(_ type: Int32, _ button: Int32, x: Int32 = 5, y: Int32 = 6, rootX: Int32 = 105, rootY: Int32 = 206) -> XEvent {
        var event = XEvent()
        event.xbutton.type = type
        event.xbutton.button = UInt32(button)
        (event.xbutton.x, event.xbutton.y, event.xbutton.x_root, event.xbutton.y_root) = (x, y, rootX, rootY)
        return event
    }

    @Test func buttonsInTheRootsOrTheWindowsCoordinates() {
        var press = button(ButtonPress, Button1)
        #expect(PointerInput(&press, origin: (100, 200), root: true) == .press(x: 5, y: 6))
        #expect(PointerInput(&press, origin: (0, 0), root: false) == .press(x: 5, y: 6))
        var release = button(ButtonRelease, Button1, rootX: 700)
        #expect(PointerInput(&release, origin: (100, 200), root: true) == .release(x: 600, y: 6))
        var down = button(ButtonPress, Button5)
        #expect(PointerInput(&down, origin: (0, 0), root: false) == .scroll(x: 5, y: 6, down: true))
        var up = button(ButtonPress, Button4)
        #expect(PointerInput(&up, origin: (0, 0), root: false) == .scroll(x: 5, y: 6, down: false))
    }

    @Test func otherButtonsAndAWheelsReleaseAreNotTheGates() {
        for (type, number) in [(ButtonPress, Button2), (ButtonPress, Button3), (ButtonRelease, Button4), (ButtonRelease, Button5)] {
            var event = button(type, number)
            #expect(PointerInput(&event, origin: (0, 0), root: false) == nil)
        }
        var key = XEvent()
        key.type = KeyPress
        #expect(PointerInput(&key, origin: (0, 0), root: true) == nil)
    }

    @Test func motionSaysWhetherItWasOnlyHinted() {
        var event = XEvent()
        event.xmotion.type = MotionNotify
        (event.xmotion.x_root, event.xmotion.y_root, event.xmotion.is_hint) = (140, 240, 1)
        #expect(PointerInput(&event, origin: (100, 200), root: true) == .motion(x: 40, y: 40, hinted: true))
        event.xmotion.is_hint = 0
        #expect(PointerInput(&event, origin: (100, 200), root: true) == .motion(x: 40, y: 40, hinted: false))
    }
}
