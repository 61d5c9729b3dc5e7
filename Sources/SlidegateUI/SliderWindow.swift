import CX11
import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// Windowed mode: an ordinary top-level window that is the slider — or, with the PIN
/// wheels, holds them above the track. Owns the window and, for a translucent background,
/// its colormap.
final class SliderWindow: Stage {
    static let defaultSize = (width: 480, height: 72)

    /// The default size times `scale`, taller with the wheels: a track of the usual height
    /// below a row of wheels twice as tall, with a gap.
    static func defaultSize(pinLength: Int, scale: Double) -> (width: Int, height: Int) {
        let width = (Double(defaultSize.width) * scale).rounded()
        let height = (Double(defaultSize.height) * scale * (pinLength == 0 ? 1 : wheelsShare)).rounded()
        return (Int(width), Int(height))
    }

    static let wheelsShare = Options.windowedWheelsShare

    private let display: XDisplay
    let window: Window
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    private let colormap: Colormap?
    private let deleteWindow: Atom
    private(set) var slider: Rect
    private(set) var wheelArea: Rect?
    private(set) var size: (width: Double, height: Double)
    private let pinLength: Int

    init(display: XDisplay, geometry: Geometry, options: Options, pinLength: Int) {
        self.pinLength = pinLength
        self.display = display
        let dpy = display.pointer
        let size = display.rootSize()
        let screenRect = Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        // A position counts from the screen's edges; without one, a dialog is centred on the
        // monitor the person is looking at: the pointer's.
        let placed = geometry.resolve(
            in: geometry.x == nil ? display.pointerMonitor() : screenRect,
            defaultSize: Self.defaultSize(pinLength: pinLength, scale: options.scale ?? display.resourceScale()))
        var attributes = XSetWindowAttributes()
        attributes.background_pixmap = 0
        attributes.border_pixel = 0
        attributes.event_mask =
            ExposureMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask | StructureNotifyMask | KeyPressMask | KeyReleaseMask
        var mask = UInt(CWBackPixmap | CWBorderPixel | CWEventMask)
        var info = XVisualInfo()
        if !options.background.isOpaque, XMatchVisualInfo(dpy, display.screen, 32, TrueColor, &info) != 0 {
            visual = info.visual
            depth = 32
            let map = XCreateColormap(dpy, display.root, info.visual, AllocNone)
            colormap = map
            attributes.colormap = map
            mask |= UInt(CWColormap)
        } else {
            if !options.background.isOpaque {
                report("--background: the X server offers no 32-bit visual, so the window is drawn opaque")
            }
            visual = XDefaultVisual(dpy, display.screen)
            depth = XDefaultDepth(dpy, display.screen)
            colormap = nil
        }
        window = XCreateWindow(
            dpy, display.root, Int32(placed.x), Int32(placed.y), UInt32(placed.width), UInt32(placed.height), 0,
            depth, UInt32(InputOutput), visual, mask, &attributes)
        (slider, wheelArea) = Self.split(width: placed.width, height: placed.height, pinLength: pinLength)
        self.size = (placed.width, placed.height)
        deleteWindow = display.atom("WM_DELETE_WINDOW")
        describe(geometry: geometry, placed: placed, title: options.text.isEmpty ? "slidegate" : options.text)
        ask(above: options.above, undecorated: options.undecorated)
        XMapWindow(dpy, window)
    }

    deinit {
        XDestroyWindow(display.pointer, window)
        if let colormap { XFreeColormap(display.pointer, colormap) }
        XSync(display.pointer, 0)
    }

    /// The track's and the wheels' parts of a window this size.
    static func split(width: Double, height: Double, pinLength: Int) -> (slider: Rect, wheels: Rect?) {
        guard pinLength > 0 else { return (Rect(x: 0, y: 0, width: width, height: height), nil) }
        let track = (height / wheelsShare).rounded()
        let wheels = (track * 2).rounded()
        return (Rect(x: 0, y: height - track, width: width, height: track), Rect(x: 0, y: 0, width: width, height: wheels))
    }

    /// Sets what window managers read: size hints, WM_CLASS, the UTF-8 title, WM_PROTOCOLS.
    private func describe(geometry: Geometry, placed: Rect, title: String) {
        let dpy = display.pointer
        var hints = XSizeHints()
        hints.flags = PSize | PBaseSize
        if geometry.width != nil { hints.flags |= USSize }
        hints.width = Int32(placed.width)
        hints.height = Int32(placed.height)
        hints.base_width = hints.width
        hints.base_height = hints.height
        hints.flags |= PPosition
        hints.x = Int32(placed.x)
        hints.y = Int32(placed.y)
        if let gx = geometry.x, let gy = geometry.y {
            hints.flags |= USPosition | PWinGravity
            hints.x = Int32(placed.x)
            hints.y = Int32(placed.y)
            hints.win_gravity =
                switch (gx.fromFarEdge, gy.fromFarEdge) {
                case (false, false): NorthWestGravity
                case (true, false): NorthEastGravity
                case (false, true): SouthWestGravity
                case (true, true): SouthEastGravity
                }
        }
        XSetWMNormalHints(dpy, window, &hints)
        let name = strdup("slidegate")
        let className = strdup("Slidegate")
        defer {
            free(name)
            free(className)
        }
        var classHint = XClassHint(res_name: name, res_class: className)
        XSetClassHint(dpy, window, &classHint)
        XStoreName(dpy, window, "slidegate")
        let utf8 = Array(title.utf8)
        XChangeProperty(
            dpy, window, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8, PropModeReplace, utf8,
            Int32(utf8.count))
        var pid = UInt(getpid())
        _ = withUnsafeBytes(of: &pid) { bytes in
            XChangeProperty(
                dpy, window, display.atom("_NET_WM_PID"), XA_CARDINAL, 32, PropModeReplace,
                bytes.bindMemory(to: UInt8.self).baseAddress, 1)
        }
        var protocols = [deleteWindow]
        XSetWMProtocols(dpy, window, &protocols, 1)
    }

    /// What the window manager is asked for before the window is mapped: a dialog; kept
    /// above other windows (`--above`); without decorations (`--undecorated`).
    private func ask(above: Bool, undecorated: Bool) {
        let dpy = display.pointer
        func set(_ property: String, _ type: Atom, _ values: [UInt]) {
            let count = Int32(values.count)
            let name = display.atom(property)
            var values = values
            _ = values.withUnsafeMutableBytes { bytes in
                XChangeProperty(dpy, window, name, type, 32, PropModeReplace, bytes.bindMemory(to: UInt8.self).baseAddress, count)
            }
        }
        set("_NET_WM_WINDOW_TYPE", XA_ATOM, [display.atom("_NET_WM_WINDOW_TYPE_DIALOG")])
        if above { set("_NET_WM_STATE", XA_ATOM, [display.atom("_NET_WM_STATE_ABOVE")]) }
        // Motif's hints: flags (2: the decorations field counts), functions, decorations (0:
        // none), input mode, status.
        if undecorated { set("_MOTIF_WM_HINTS", display.atom("_MOTIF_WM_HINTS"), [2, 0, 0, 0, 0]) }
    }

    func handle(_ event: inout XEvent) -> StageChange? {
        switch event.type {
        case ConfigureNotify:
            let c = event.xconfigure
            guard c.window == window, Double(c.width) != size.width || Double(c.height) != size.height else {
                return nil
            }
            size = (Double(c.width), Double(c.height))
            (slider, wheelArea) = Self.split(width: size.width, height: size.height, pinLength: pinLength)
            return .relayout
        case ClientMessage:
            let m = event.xclient
            guard m.window == window, m.format == 32, Atom(m.data.l.0) == deleteWindow else { return nil }
            return .closeRequested
        default:
            return nil
        }
    }
}
