import CX11
import CXShim
import Glibc
import SlidegateCore

/// The connection to the X server. Owns the `Display*`; one thread uses it.
public final class XDisplay {
    let pointer: OpaquePointer
    let screen: Int32
    let root: Window

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
        sg_trap_x_errors()
    }

    deinit {
        XCloseDisplay(pointer)
    }

    var fileDescriptor: Int32 { XConnectionNumber(pointer) }
    var width: Int { Int(XDisplayWidth(pointer, screen)) }
    var height: Int { Int(XDisplayHeight(pointer, screen)) }

    func atom(_ name: String) -> Atom { XInternAtom(pointer, name, 0) }

    /// Waits for the server to handle every request sent so far; returns the code of the
    /// first X error they caused, or nil.
    func sync() -> Int32? {
        XSync(pointer, 0)
        let code = sg_take_x_error()
        return code == 0 ? nil : Int32(code)
    }

    /// An allocated pixel for an opaque colour in the default colormap.
    func pixel(for color: Color) -> UInt {
        var xcolor = XColor()
        xcolor.red = UInt16(color.red * 65535)
        xcolor.green = UInt16(color.green * 65535)
        xcolor.blue = UInt16(color.blue * 65535)
        xcolor.flags = CChar(DoRed | DoGreen | DoBlue)
        XAllocColor(pointer, XDefaultColormap(pointer, screen), &xcolor)
        return xcolor.pixel
    }

    /// The primary monitor's rectangle (RandR), else the first monitor, else the screen.
    func primaryMonitor() -> Rect {
        var count: Int32 = 0
        let screenRect = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        guard let monitors = XRRGetMonitors(pointer, root, 1, &count) else { return screenRect }
        defer { XRRFreeMonitors(monitors) }
        let all = (0..<Int(count)).map { monitors[$0] }
        guard let chosen = all.first(where: { $0.primary != 0 }) ?? all.first else { return screenRect }
        return Rect(x: Double(chosen.x), y: Double(chosen.y), width: Double(chosen.width), height: Double(chosen.height))
    }
}

/// Seconds on the monotonic clock.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
