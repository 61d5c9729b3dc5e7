import CX11
import Glibc
import SlidegateCore

/// Lock mode: keyboard and pointer grabbed on the root window first, then an
/// override-redirect window over the whole screen with the slider on the primary monitor.
/// Owns the grabs, the cover window and its cursor; letting go of it unlocks.
final class LockCover: Stage {
    private let display: XDisplay
    let window: Window
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    private let cursor: Cursor
    private let sliderGeometry: Geometry?
    private(set) var slider: Rect
    private(set) var sliderOrigin = (x: 0, y: 0)

    /// How long to keep trying when another client holds a grab.
    static let grabPatience = 1.0

    init(display: XDisplay, options: Options, slider geometry: Geometry?) throws(UserError) {
        self.display = display
        let dpy = display.pointer
        cursor = XCreateFontCursor(dpy, UInt32(XC_left_ptr))
        do throws(UserError) {
            try Self.grab(display, cursor: cursor)
        } catch {
            XFreeCursor(dpy, cursor)
            throw error
        }
        visual = XDefaultVisual(dpy, display.screen)
        depth = XDefaultDepth(dpy, display.screen)
        sliderGeometry = geometry
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = display.pixel(for: options.background)
        attributes.event_mask = ExposureMask | VisibilityChangeMask
        window = XCreateWindow(
            dpy, display.root, 0, 0, UInt32(display.width), UInt32(display.height), 0, depth, UInt32(InputOutput),
            visual, UInt(CWOverrideRedirect | CWBackPixel | CWEventMask), &attributes)
        slider = Rect(x: 0, y: 0, width: 0, height: 0)
        XSelectInput(dpy, display.root, StructureNotifyMask)
        let name = strdup("slidegate")
        let className = strdup("Slidegate")
        var classHint = XClassHint(res_name: name, res_class: className)
        XSetClassHint(dpy, window, &classHint)
        free(name)
        free(className)
        var bypass: UInt = 1
        _ = withUnsafeBytes(of: &bypass) { bytes in
            XChangeProperty(
                dpy, window, display.atom("_NET_WM_BYPASS_COMPOSITOR"), XA_CARDINAL, 32, PropModeReplace,
                bytes.bindMemory(to: UInt8.self).baseAddress, 1)
        }
        layOut()
        XMapRaised(dpy, window)
        if let code = display.sync() {
            throw UserError("the X server refused the lock window (X error \(code))", status: .noDisplayOrLock)
        }
    }

    deinit {
        let dpy = display.pointer
        XUngrabPointer(dpy, UInt(CurrentTime))
        XUngrabKeyboard(dpy, UInt(CurrentTime))
        XDestroyWindow(dpy, window)
        XFreeCursor(dpy, cursor)
        XSync(dpy, 0)
    }

    /// The slider's default size on a monitor: about 7.5 % of its height tall, seven times
    /// as wide, within the monitor.
    static func defaultSize(on monitor: Rect) -> (width: Int, height: Int) {
        let height = Int(min(max(monitor.height * 0.075, 48), 120).rounded())
        let width = min(height * 7, Int(monitor.width) - 2 * height / 2)
        return (max(width, 2 * height), height)
    }

    /// Places the slider on the primary monitor: `--slider` relative to its top-left
    /// corner, or centred horizontally in its lower part.
    private func layOut() {
        let monitor = display.primaryMonitor()
        let size = Self.defaultSize(on: monitor)
        if let sliderGeometry {
            slider = sliderGeometry.resolve(in: monitor, defaultSize: size)
        } else {
            let w = Double(size.width)
            let h = Double(size.height)
            slider = Rect(
                x: monitor.x + ((monitor.width - w) / 2).rounded(.down), y: monitor.y + (monitor.height * 0.78 - h / 2).rounded(),
                width: w, height: h)
        }
        sliderOrigin = (Int(slider.x), Int(slider.y))
    }

    private static func grab(_ display: XDisplay, cursor: Cursor) throws(UserError) {
        let dpy = display.pointer
        let giveUp = monotonicNow() + grabPatience
        var keyboard: Int32 = GrabNotViewable
        var pointer: Int32 = GrabNotViewable
        while true {
            if keyboard != GrabSuccess {
                keyboard = XGrabKeyboard(dpy, display.root, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
            }
            if pointer != GrabSuccess {
                pointer = XGrabPointer(
                    dpy, display.root, 0, UInt32(ButtonPressMask | ButtonReleaseMask | PointerMotionMask), GrabModeAsync,
                    GrabModeAsync, 0, cursor, UInt(CurrentTime))
            }
            if keyboard == GrabSuccess && pointer == GrabSuccess { return }
            if monotonicNow() >= giveUp { break }
            usleep(10_000)
        }
        if keyboard == GrabSuccess { XUngrabKeyboard(dpy, UInt(CurrentTime)) }
        if pointer == GrabSuccess { XUngrabPointer(dpy, UInt(CurrentTime)) }
        XSync(dpy, 0)
        let (what, result) = keyboard != GrabSuccess ? ("keyboard", keyboard) : ("pointer", pointer)
        throw UserError(
            "cannot lock: the \(what) grab failed (\(grabResultName(result))) for \(grabPatience) s; another client holds it",
            status: .noDisplayOrLock)
    }

    private static func grabResultName(_ result: Int32) -> String {
        switch result {
        case AlreadyGrabbed: "AlreadyGrabbed"
        case GrabFrozen: "GrabFrozen"
        case GrabInvalidTime: "GrabInvalidTime"
        case GrabNotViewable: "GrabNotViewable"
        default: "error \(result)"
        }
    }

    func handle(_ event: inout XEvent) -> StageChange? {
        switch event.type {
        case VisibilityNotify where event.xvisibility.window == window:
            if event.xvisibility.state != VisibilityUnobscured { XRaiseWindow(display.pointer, window) }
            return nil
        case ConfigureNotify where event.xconfigure.window == display.root:
            XMoveResizeWindow(display.pointer, window, 0, 0, UInt32(event.xconfigure.width), UInt32(event.xconfigure.height))
            layOut()
            return .relayout
        default:
            return nil
        }
    }
}
