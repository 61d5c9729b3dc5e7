import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateSystem

/// The connection to the X server. Owns the `Display*`; one thread uses it.
package final class XDisplay {
    package let pointer: OpaquePointer
    package let screen: Int32
    package let root: Window
    /// The first event code of the RandR extension, or -1 without it.
    package let randrEventBase: Int32

    /// Opens the display named by `$DISPLAY`; `asking` as for `init(named:asking:)`.
    package convenience init(asking: ((OpaquePointer) -> Void)? = nil) throws(UserError) {
        guard let name = getenv("DISPLAY").map({ String(cString: $0) }), !name.isEmpty else {
            throw UserError("cannot open a display: DISPLAY is not set", status: .noDisplayOrLock)
        }
        try self.init(named: name, asking: asking)
    }

    /// Opens the display `name` (`:1`). `asking` sends questions of its own before the first
    /// one this waits for (RandR's), so that their answers come with its answer.
    package init(named name: String, asking: ((OpaquePointer) -> Void)? = nil) throws(UserError) {
        guard let display = XOpenDisplay(name) else {
            throw UserError("cannot open display \"\(name)\"", status: .noDisplayOrLock)
        }
        pointer = display
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        asking?(display)
        var eventBase: Int32 = -1
        var errorBase: Int32 = 0
        randrEventBase = XRRQueryExtension(display, &eventBase, &errorBase) != 0 ? eventBase : -1
        sg_trap_x_errors()
    }

    deinit {
        XCloseDisplay(pointer)
    }

    package var fileDescriptor: Int32 { XConnectionNumber(pointer) }

    /// The root window's size, asked of the server (a round trip). Never Xlib's cached
    /// screen size, which `XRRUpdateConfiguration` copies from events another client can
    /// forge.
    package func rootSize() -> (width: Int, height: Int) {
        guard let size = size(of: root) else { return (Int(clamping: XDisplayWidth(pointer, screen)), Int(clamping: XDisplayHeight(pointer, screen))) }
        return size
    }

    /// A window's size, asked of the server; nil when it has no such window.
    package func size(of window: Window) -> (width: Int, height: Int)? {
        var rootReturn: Window = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var width: UInt32 = 0
        var height: UInt32 = 0
        var border: UInt32 = 0
        var depth: UInt32 = 0
        guard XGetGeometry(pointer, window, &rootReturn, &x, &y, &width, &height, &border, &depth) != 0 else { return nil }
        return (Int(clamping: width), Int(clamping: height))
    }

    package func atom(_ name: String) -> Atom { XInternAtom(pointer, name, 0) }

    /// Says on stderr which X error the requests sent so far caused, if any; the guard
    /// and the UI carry on (an error after start-up is a request that raced a change, such
    /// as a window another client destroyed).
    package func reportErrors() {
        var request: Int32 = 0
        var minor: Int32 = 0
        let code = sg_take_x_error_request(&request, &minor)
        if code != 0 { report("X error \(code) on request \(request).\(minor)") }
    }

    /// Waits for the server to handle every request sent so far; returns the code of the
    /// last X error they caused, or nil.
    package func sync() -> Int32? {
        XSync(pointer, 0)
        let code = sg_take_x_error()
        return code == 0 ? nil : Int32(clamping: code)
    }

    /// An allocated pixel for an opaque colour in the default colormap; black or white,
    /// whichever is nearer, when the colormap has no room.
    package func pixel(for color: Color) -> UInt {
        var xcolor = XColor()
        xcolor.red = UInt16(clamping: Int(saturating: color.red * 65535))
        xcolor.green = UInt16(clamping: Int(saturating: color.green * 65535))
        xcolor.blue = UInt16(clamping: Int(saturating: color.blue * 65535))
        xcolor.flags = CChar(DoRed | DoGreen | DoBlue)
        guard XAllocColor(pointer, XDefaultColormap(pointer, screen), &xcolor) != 0 else {
            return color.red + color.green + color.blue >= 1.5 ? XWhitePixel(pointer, screen) : XBlackPixel(pointer, screen)
        }
        return xcolor.pixel
    }

    /// A monitor: its rectangle on the root window, and whether it is the primary one.
    package typealias Monitor = LockPlacement.Monitor

    /// The monitors: RandR 1.5's list, else Xinerama's screens, else the whole root window.
    /// The safe mode's: the screen is one monitor, whatever RandR says.
    package var ignoresMonitors = false

    package func monitors() -> [Monitor] {
        guard !ignoresMonitors else { return [] }
        var count: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        if XRRQueryVersion(pointer, &major, &minor) != 0, major > 1 || minor >= 5,
            let list = XRRGetMonitors(pointer, root, 1, &count)
        {
            defer { XRRFreeMonitors(list) }
            let found = (0..<Int(clamping: count)).map { i in
                Monitor(
                    rect: Rect(x: Double(list[i].x), y: Double(list[i].y), width: Double(list[i].width), height: Double(list[i].height)),
                    primary: list[i].primary != 0)
            }
            if !found.isEmpty { return found }
        }
        if XineramaIsActive(pointer) != 0, let screens = XineramaQueryScreens(pointer, &count) {
            defer { XFree(screens) }
            let found = (0..<Int(clamping: count)).map { i in
                Monitor(
                    rect: Rect(x: Double(screens[i].x_org), y: Double(screens[i].y_org), width: Double(screens[i].width), height: Double(screens[i].height)),
                    primary: i == 0)
            }
            if !found.isEmpty { return found }
        }
        let size = rootSize()
        return [Monitor(rect: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)), primary: true)]
    }

    /// `fps`, or the fastest active monitor's refresh rate (rounded up) when that is lower:
    /// frames the screens cannot show are not drawn. RandR's mode timings say the rate; a
    /// server that gives none (Xvfb, whose screen is nominally 60 Hz) counts as 60 Hz.
    package func frameRate(cappedAt fps: Int) -> Int {
        guard let resources = XRRGetScreenResourcesCurrent(pointer, root) else { return min(fps, Self.untimedRate) }
        defer { XRRFreeScreenResources(resources) }
        let r = resources.pointee
        var fastest = 0.0
        for i in 0..<Int(clamping: r.ncrtc) {
            guard let crtc = XRRGetCrtcInfo(pointer, resources, r.crtcs[i]) else { continue }
            defer { XRRFreeCrtcInfo(crtc) }
            guard crtc.pointee.mode != 0, let mode = (0..<Int(clamping: r.nmode)).map({ r.modes[$0] }).first(where: { $0.id == crtc.pointee.mode })
            else { continue }
            var lines = Double(mode.vTotal)
            if mode.modeFlags & UInt(RR_DoubleScan) != 0 { lines *= 2 }
            if mode.modeFlags & UInt(RR_Interlace) != 0 { lines /= 2 }
            guard mode.dotClock > 0, mode.hTotal > 0, lines > 0 else { continue }
            fastest = max(fastest, Double(mode.dotClock) / (Double(mode.hTotal) * lines))
        }
        return min(fps, fastest > 0 ? Int(saturating: fastest.rounded(.up)) : Self.untimedRate)
    }

    /// The refresh rate assumed of monitors whose mode has no timings.
    static let untimedRate = 60

    /// The size factor the X server's resources ask for: `Xft.dpi` / 96 from the root
    /// window's RESOURCE_MANAGER (what `xrdb` loads), read with Xlib's resource manager,
    /// unrounded and within `Options.scales`; 1 without it.
    package func resourceScale() -> Double {
        guard let resources = XResourceManagerString(pointer) else { return 1 }
        XrmInitialize()
        guard let database = XrmGetStringDatabase(resources) else { return 1 }
        defer { XrmDestroyDatabase(database) }
        var type: UnsafeMutablePointer<CChar>?
        var value = XrmValue()
        guard XrmGetResource(database, "Xft.dpi", "Xft.Dpi", &type, &value) != 0, let address = value.addr,
            let dpi = Double(String(cString: address).filter { $0 != " " && $0 != "\t" }), dpi > 0
        else { return 1 }
        return min(max(dpi / 96, Options.scales.lowerBound), Options.scales.upperBound)
    }

    /// Where the pointer is on the root window, or relative to `window`'s origin, asked of
    /// the server (which also re-arms a motion hint); nil when it is on another screen.
    package func pointerPosition(in window: Window? = nil) -> (x: Double, y: Double)? {
        var rootReturn: Window = 0
        var child: Window = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var wx: Int32 = 0
        var wy: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(pointer, window ?? root, &rootReturn, &child, &x, &y, &wx, &wy, &mask) != 0 else { return nil }
        return window == nil ? (Double(x), Double(y)) : (Double(wx), Double(wy))
    }

    /// The whole root window.
    package var rootRect: Rect {
        let size = rootSize()
        return Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    }

    /// The monitor the lock's slider goes on (`LockPlacement.sliderMonitor`).
    package func sliderMonitor(scale: Double) -> Rect {
        LockPlacement.sliderMonitor(monitors(), screen: rootRect, scale: scale)
    }

    /// The monitor the pointer is on, or the primary one when it is on none.
    package func pointerMonitor() -> Rect {
        guard let p = pointerPosition(), let monitor = monitors().first(where: { $0.rect.contains(x: p.x, y: p.y) }) else {
            return primaryMonitor()
        }
        return monitor.rect
    }

    /// The primary monitor's rectangle, or the first monitor's when none is primary.
    package func primaryMonitor() -> Rect {
        let all = monitors()
        return (all.first(where: \.primary) ?? all.first)?.rect ?? rootRect
    }
}
