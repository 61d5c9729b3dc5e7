import CX11
import CXShim
import Glibc
import SlidegateCore

/// The connection to the X server. Owns the `Display*`; one thread uses it.
public final class XDisplay {
    public let pointer: OpaquePointer
    public let screen: Int32
    public let root: Window
    /// The first event code of the RandR extension, or -1 without it.
    public let randrEventBase: Int32

    /// Opens the display named by `$DISPLAY`.
    public init() throws(UserError) {
        guard let name = getenv("DISPLAY").map({ String(cString: $0) }), !name.isEmpty else {
            throw UserError("cannot open a display: DISPLAY is not set", status: .noDisplayOrLock)
        }
        guard let display = XOpenDisplay(name) else {
            throw UserError("cannot open display \"\(name)\"", status: .noDisplayOrLock)
        }
        pointer = display
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        var eventBase: Int32 = -1
        var errorBase: Int32 = 0
        randrEventBase = XRRQueryExtension(display, &eventBase, &errorBase) != 0 ? eventBase : -1
        sg_trap_x_errors()
    }

    deinit {
        XCloseDisplay(pointer)
    }

    public var fileDescriptor: Int32 { XConnectionNumber(pointer) }
    public var width: Int { Int(XDisplayWidth(pointer, screen)) }
    public var height: Int { Int(XDisplayHeight(pointer, screen)) }

    public func atom(_ name: String) -> Atom { XInternAtom(pointer, name, 0) }

    /// Waits for the server to handle every request sent so far; returns the code of the
    /// first X error they caused, or nil.
    public func sync() -> Int32? {
        XSync(pointer, 0)
        let code = sg_take_x_error()
        return code == 0 ? nil : Int32(code)
    }

    /// An allocated pixel for an opaque colour in the default colormap.
    public func pixel(for color: Color) -> UInt {
        var xcolor = XColor()
        xcolor.red = UInt16(color.red * 65535)
        xcolor.green = UInt16(color.green * 65535)
        xcolor.blue = UInt16(color.blue * 65535)
        xcolor.flags = CChar(DoRed | DoGreen | DoBlue)
        XAllocColor(pointer, XDefaultColormap(pointer, screen), &xcolor)
        return xcolor.pixel
    }

    /// A monitor: its rectangle on the root window, and whether it is the primary one.
    public struct Monitor: Equatable {
        public var rect: Rect
        public var primary: Bool
    }

    /// The monitors: RandR 1.5's list, else Xinerama's screens, else the whole root window.
    public func monitors() -> [Monitor] {
        var count: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        if XRRQueryVersion(pointer, &major, &minor) != 0, major > 1 || minor >= 5,
            let list = XRRGetMonitors(pointer, root, 1, &count)
        {
            defer { XRRFreeMonitors(list) }
            let found = (0..<Int(count)).map { i in
                Monitor(
                    rect: Rect(x: Double(list[i].x), y: Double(list[i].y), width: Double(list[i].width), height: Double(list[i].height)),
                    primary: list[i].primary != 0)
            }
            if !found.isEmpty { return found }
        }
        if XineramaIsActive(pointer) != 0, let screens = XineramaQueryScreens(pointer, &count) {
            defer { XFree(screens) }
            let found = (0..<Int(count)).map { i in
                Monitor(
                    rect: Rect(x: Double(screens[i].x_org), y: Double(screens[i].y_org), width: Double(screens[i].width), height: Double(screens[i].height)),
                    primary: i == 0)
            }
            if !found.isEmpty { return found }
        }
        return [Monitor(rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), primary: true)]
    }

    /// The primary monitor's rectangle, or the first monitor's when none is primary.
    public func primaryMonitor() -> Rect {
        let all = monitors()
        return (all.first(where: \.primary) ?? all[0]).rect
    }
}

/// Waits until one of `descriptors` is readable or `timeout` seconds pass (nil: no limit);
/// returns which are readable.
public func waitReadable(_ descriptors: [Int32], timeout: Double?) throws(UserError) -> [Bool] {
    var ready = [Int32](repeating: 0, count: descriptors.count)
    if sg_wait_readable(descriptors, Int32(descriptors.count), timeout.map { max(0, $0) } ?? -1, &ready) < 0, errno != EINTR {
        throw UserError("waiting for events failed: \(String(cString: strerror(errno)))", status: .internalError)
    }
    return ready.map { $0 != 0 }
}

/// Seconds on the monotonic clock.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Once started, gives back the memory only start-up needed: freed heap, and the mappings
/// of code and read-only data used while loading (they stay in the page cache and return
/// without I/O if needed again). Called once the lock is up and once the first frame is.
public func shedStartupPages() {
    _ = sg_shed_startup_pages()
}
