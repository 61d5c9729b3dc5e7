import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateXlib

/// The cover: an override-redirect window over the whole screen and, inside it, the
/// window where the UI draws the slider. It watches both and undoes whatever another
/// client does to them — unmapping, moving, resizing, reshaping, reparenting, windows put
/// inside — and says when they were destroyed, so the guard makes them anew. Owns both
/// windows.
final class LockCover {
    private let display: XDisplay
    private let background: Color
    private let sliderGeometry: Geometry?
    private let shapeEventBase: Int32?
    private(set) var cover: Window = 0
    /// The window the UI draws the slider into, a child of `cover`.
    private(set) var sliderWindow: Window = 0
    /// The slider's rectangle on the root window.
    private(set) var slider = Rect(x: 0, y: 0, width: 0, height: 0)
    private var coverSize = (width: 0, height: 0)

    init(display: XDisplay, background: Color, slider geometry: Geometry?) throws(UserError) {
        self.display = display
        self.background = background
        sliderGeometry = geometry
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        shapeEventBase = XShapeQueryExtension(display.pointer, &eventBase, &errorBase) != 0 ? eventBase : nil
        XSelectInput(display.pointer, display.root, StructureNotifyMask | SubstructureNotifyMask | FocusChangeMask)
        XRRSelectInput(display.pointer, display.root, Int32(RRScreenChangeNotifyMask))
        create()
        if let code = display.sync() {
            throw UserError("the X server refused the lock window (X error \(code))", status: .noDisplayOrLock)
        }
    }

    deinit {
        XDestroyWindow(display.pointer, cover)
        XSync(display.pointer, 0)
    }

    /// Makes the cover and the slider window, maps them on top, and focuses the cover.
    private func create() {
        let dpy = display.pointer
        let depth = XDefaultDepth(dpy, display.screen)
        let visual = XDefaultVisual(dpy, display.screen)
        let size = display.rootSize()
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = display.pixel(for: background)
        attributes.event_mask = VisibilityChangeMask | StructureNotifyMask | SubstructureNotifyMask
        cover = XCreateWindow(
            dpy, display.root, 0, 0, UInt32(size.width), UInt32(size.height), 0, depth, UInt32(InputOutput), visual,
            UInt(CWOverrideRedirect | CWBackPixel | CWEventMask), &attributes)
        coverSize = size
        attributes.event_mask = StructureNotifyMask | SubstructureNotifyMask
        slider = Rect(x: 0, y: 0, width: 0, height: 0)
        sliderWindow = XCreateWindow(
            dpy, cover, 0, 0, 1, 1, 0, depth, UInt32(InputOutput), visual, UInt(CWBackPixel | CWEventMask), &attributes)
        if shapeEventBase != nil {
            XShapeSelectInput(dpy, cover, UInt(ShapeNotifyMask))
            XShapeSelectInput(dpy, sliderWindow, UInt(ShapeNotifyMask))
        }
        describe()
        layOut()
        XMapWindow(dpy, sliderWindow)
        XMapRaised(dpy, cover)
        XSetInputFocus(dpy, cover, RevertToParent, UInt(CurrentTime))
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
    /// Both from what the server says now. Returns true when the slider moved or changed size.
    @discardableResult
    func layOut() -> Bool {
        let dpy = display.pointer
        let size = display.rootSize()
        if coverSize != size {
            coverSize = size
            XMoveResizeWindow(dpy, cover, 0, 0, UInt32(size.width), UInt32(size.height))
        }
        let monitor = display.primaryMonitor()
        let defaultSize = Self.defaultSize(on: monitor)
        let old = slider
        if let sliderGeometry {
            slider = sliderGeometry.resolve(in: monitor, defaultSize: defaultSize)
        } else {
            let w = Double(defaultSize.width)
            let h = Double(defaultSize.height)
            slider = Rect(
                x: monitor.x + ((monitor.width - w) / 2).rounded(.down),
                y: monitor.y + (monitor.height * 0.78 - h / 2).rounded(), width: w, height: h)
        }
        if slider != old { placeSlider() }
        return slider != old
    }

    private func placeSlider() {
        XMoveResizeWindow(
            display.pointer, sliderWindow, Int32(slider.x), Int32(slider.y), UInt32(slider.width), UInt32(slider.height))
    }

    func raise() {
        XRaiseWindow(display.pointer, cover)
    }

    /// What an event on or inside the cover means for the guard.
    enum Change {
        /// The cover or the slider window was destroyed: make new ones (`remake`).
        case destroyed
    }

    /// Undoes what another client did to the cover or the slider window, if `event` says it
    /// did anything. Returns `.destroyed` when they must be made anew.
    func restore(after event: inout XEvent) -> Change? {
        let dpy = display.pointer
        let ours = [cover, sliderWindow]
        switch event.type {
        case DestroyNotify where ours.contains(event.xdestroywindow.window):
            return .destroyed
        case UnmapNotify where ours.contains(event.xunmap.window):
            XMapWindow(dpy, event.xunmap.window)
            raise()
        case ReparentNotify where event.xreparent.window == cover && event.xreparent.parent != display.root:
            XReparentWindow(dpy, cover, display.root, 0, 0)
            XMapRaised(dpy, cover)
        case ReparentNotify where event.xreparent.window == sliderWindow && event.xreparent.parent != cover:
            XReparentWindow(dpy, sliderWindow, cover, Int32(slider.x), Int32(slider.y))
            XMapWindow(dpy, sliderWindow)
        case ReparentNotify where event.xreparent.parent == cover || event.xreparent.parent == sliderWindow:
            XDestroyWindow(dpy, event.xreparent.window)
        case CreateNotify where event.xcreatewindow.window != sliderWindow
            && (event.xcreatewindow.parent == cover || event.xcreatewindow.parent == sliderWindow):
            // A window another client put inside the cover would show above the lock.
            XDestroyWindow(dpy, event.xcreatewindow.window)
        case ConfigureNotify where event.xconfigure.window == cover:
            let c = event.xconfigure
            if c.x != 0 || c.y != 0 || Int(c.width) != coverSize.width || Int(c.height) != coverSize.height {
                XMoveResizeWindow(dpy, cover, 0, 0, UInt32(coverSize.width), UInt32(coverSize.height))
            }
        case ConfigureNotify where event.xconfigure.window == sliderWindow:
            let c = event.xconfigure
            if Double(c.x) != slider.x || Double(c.y) != slider.y || Double(c.width) != slider.width
                || Double(c.height) != slider.height
            {
                placeSlider()
            }
        case let type where shapeEventBase.map({ type == $0 + ShapeNotify }) ?? false:
            let shape = withUnsafePointer(to: &event) {
                $0.withMemoryRebound(to: XShapeEvent.self, capacity: 1) { $0.pointee }
            }
            if shape.shaped != 0 && ours.contains(shape.window) {
                for kind in [ShapeBounding, ShapeClip, ShapeInput] {
                    XShapeCombineMask(dpy, shape.window, kind, 0, 0, 0, ShapeSet)
                }
            }
        default:
            break
        }
        return nil
    }

    /// Makes the cover and slider window anew after another client destroyed one of them
    /// (the grabs, on the root window, were never lost).
    func remake() {
        XDestroyWindow(display.pointer, cover)
        // One of the two is gone already: the error that destroying it again causes is
        // expected, not news.
        XSync(display.pointer, 0)
        _ = sg_take_x_error()
        create()
    }
}
