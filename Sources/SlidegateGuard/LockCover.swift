import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateXlib

/// The lock itself: keyboard and pointer grabbed on the root window first, then an
/// override-redirect window over the whole screen, and inside it a child window where the
/// UI process draws the slider. Owns the grabs and the windows; releasing it unlocks.
final class LockCover {
    private let display: XDisplay
    let cover: Window
    /// The window the UI draws the slider into, a child of `cover`.
    let sliderWindow: Window
    private let sliderGeometry: Geometry?
    /// The slider's rectangle on the root window.
    private(set) var slider = Rect(x: 0, y: 0, width: 0, height: 0)
    private var coverSize = (width: 0, height: 0)

    /// How long to keep trying when another client holds a grab.
    static let grabPatience = 1.0
    /// After this long without the grabs, a small "locking…" notice shows that something
    /// is happening (it covers nothing and does not look locked).
    static let noticeDelay = 0.25

    init(display: XDisplay, background: Color, slider geometry: Geometry?) throws(UserError) {
        self.display = display
        let dpy = display.pointer
        // No cursor of our own: the pointer keeps the desktop's root cursor. Creating one
        // would make Xlib load libXcursor (a cursor theme), which a static guard must not.
        try Self.grab(display)
        sliderGeometry = geometry
        let depth = XDefaultDepth(dpy, display.screen)
        let visual = XDefaultVisual(dpy, display.screen)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = display.pixel(for: background)
        attributes.event_mask = VisibilityChangeMask
        cover = XCreateWindow(
            dpy, display.root, 0, 0, UInt32(display.width), UInt32(display.height), 0, depth, UInt32(InputOutput),
            visual, UInt(CWOverrideRedirect | CWBackPixel | CWEventMask), &attributes)
        coverSize = (display.width, display.height)
        attributes.event_mask = 0
        sliderWindow = XCreateWindow(
            dpy, cover, 0, 0, 1, 1, 0, depth, UInt32(InputOutput), visual, UInt(CWBackPixel | CWEventMask), &attributes)
        describe()
        XSelectInput(dpy, display.root, StructureNotifyMask | SubstructureNotifyMask | FocusChangeMask)
        XRRSelectInput(dpy, display.root, Int32(RRScreenChangeNotifyMask))
        layOut()
        XMapWindow(dpy, sliderWindow)
        XMapRaised(dpy, cover)
        XSetInputFocus(dpy, cover, RevertToParent, UInt(CurrentTime))
        if let code = display.sync() {
            throw UserError("the X server refused the lock window (X error \(code))", status: .noDisplayOrLock)
        }
    }

    deinit {
        let dpy = display.pointer
        XUngrabPointer(dpy, UInt(CurrentTime))
        XUngrabKeyboard(dpy, UInt(CurrentTime))
        XDestroyWindow(dpy, cover)
        XSync(dpy, 0)
    }

    private func describe() {
        let dpy = display.pointer
        let name = strdup("slidegate")
        let className = strdup("Slidegate")
        var classHint = XClassHint(res_name: name, res_class: className)
        XSetClassHint(dpy, cover, &classHint)
        free(name)
        free(className)
        var bypass: UInt = 1
        _ = withUnsafeBytes(of: &bypass) { bytes in
            XChangeProperty(
                dpy, cover, display.atom("_NET_WM_BYPASS_COMPOSITOR"), XA_CARDINAL, 32, PropModeReplace,
                bytes.bindMemory(to: UInt8.self).baseAddress, 1)
        }
    }

    /// The slider's default size on a monitor: about 7.5 % of its height tall, seven times
    /// as wide, within the monitor.
    static func defaultSize(on monitor: Rect) -> (width: Int, height: Int) {
        let height = Int(min(max(monitor.height * 0.075, 48), 120).rounded())
        let width = min(height * 7, Int(monitor.width) - height)
        return (max(width, 2 * height), height)
    }

    /// Fits the cover to the screen and places the slider on the primary monitor:
    /// `--slider` relative to its top-left corner, or centred horizontally in its lower part.
    /// Returns true when the slider's size changed.
    @discardableResult
    func layOut() -> Bool {
        let dpy = display.pointer
        if coverSize != (display.width, display.height) {
            coverSize = (display.width, display.height)
            XMoveResizeWindow(dpy, cover, 0, 0, UInt32(coverSize.width), UInt32(coverSize.height))
        }
        let monitor = display.primaryMonitor()
        let size = Self.defaultSize(on: monitor)
        let old = slider
        if let sliderGeometry {
            slider = sliderGeometry.resolve(in: monitor, defaultSize: size)
        } else {
            let w = Double(size.width)
            let h = Double(size.height)
            slider = Rect(
                x: monitor.x + ((monitor.width - w) / 2).rounded(.down),
                y: monitor.y + (monitor.height * 0.78 - h / 2).rounded(), width: w, height: h)
        }
        if slider != old {
            XMoveResizeWindow(dpy, sliderWindow, Int32(slider.x), Int32(slider.y), UInt32(slider.width), UInt32(slider.height))
        }
        return slider.width != old.width || slider.height != old.height
    }

    func raise() {
        XRaiseWindow(display.pointer, cover)
    }

    /// Takes the grabs again after another client or the server broke one.
    func regrab() {
        let dpy = display.pointer
        XGrabKeyboard(dpy, display.root, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
        XGrabPointer(dpy, display.root, 0, UInt32(Self.pointerEvents), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
    }

    private static let pointerEvents = ButtonPressMask | ButtonReleaseMask | PointerMotionMask

    /// Grabs the keyboard and pointer on the root window, retrying for `grabPatience`
    /// seconds; between tries input focus moves to a window of ours so that menus holding
    /// a grab close.
    private static func grab(_ display: XDisplay) throws(UserError) {
        let dpy = display.pointer
        let start = monotonicNow()
        var keyboard: Int32 = GrabNotViewable
        var pointer: Int32 = GrabNotViewable
        var focusWindow: Window = 0
        var notice: LockingNotice?
        defer {
            if focusWindow != 0 { XDestroyWindow(dpy, focusWindow) }
        }
        while true {
            if keyboard != GrabSuccess {
                keyboard = XGrabKeyboard(dpy, display.root, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
            }
            if pointer != GrabSuccess {
                pointer = XGrabPointer(
                    dpy, display.root, 0, UInt32(pointerEvents), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
            }
            if keyboard == GrabSuccess && pointer == GrabSuccess { return }
            let elapsed = monotonicNow() - start
            if elapsed >= grabPatience { break }
            if focusWindow == 0 {
                var attributes = XSetWindowAttributes()
                attributes.override_redirect = 1
                focusWindow = XCreateWindow(
                    dpy, display.root, -1, -1, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
                XMapRaised(dpy, focusWindow)
            }
            XSetInputFocus(dpy, focusWindow, RevertToParent, UInt(CurrentTime))
            if notice == nil && elapsed >= noticeDelay { notice = LockingNotice(display) }
            XSync(dpy, 0)
            _ = sg_take_x_error()
            usleep(2_000)
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
}

/// A small box at the top of the screen saying "locking..." while the grabs are being
/// fought for. Core X font and drawing only. Owns its window.
private final class LockingNotice {
    private let display: XDisplay
    private let window: Window

    init(_ display: XDisplay) {
        self.display = display
        let dpy = display.pointer
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = XBlackPixel(dpy, display.screen)
        window = XCreateWindow(
            dpy, display.root, Int32(display.width / 2 - 60), 8, 120, 28, 0, XDefaultDepth(dpy, display.screen),
            UInt32(InputOutput), XDefaultVisual(dpy, display.screen), UInt(CWOverrideRedirect | CWBackPixel), &attributes)
        XMapRaised(dpy, window)
        let gc = XCreateGC(dpy, window, 0, nil)
        XSetForeground(dpy, gc, XWhitePixel(dpy, display.screen))
        XDrawString(dpy, window, gc, 30, 18, "locking...", 10)
        XFreeGC(dpy, gc)
    }

    deinit {
        XDestroyWindow(display.pointer, window)
    }
}

