import CX11
import Glibc
import SlidegateCore
import SlidegateSystem

/// Plays a `Reveal` on a window with the X Shape extension: its bounding shape is cut
/// frame by frame, at `fps`, for `Reveal.duration`, so it works with and without a
/// compositor and draws nothing. Nothing else happens meanwhile: in lock mode input waits
/// and the grabs stay until it ends.
package enum RevealAnimation {
    /// Plays it; false when the server cannot shape the window (the caller then takes the
    /// window away at once).
    package static func play(_ how: Reveal, on window: Window, width: Double, height: Double, fps: Int, display: XDisplay) -> Bool {
        guard how != .none else { return true }
        let dpy = display.pointer
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XShapeQueryExtension(dpy, &eventBase, &errorBase) != 0 else { return false }
        let start = boottimeNow()
        let frame = 1 / Double(max(fps, 1))
        var elapsed = 0.0
        while true {
            var rects = how.remaining(opened: Reveal.opened(after: elapsed), width: width, height: height).map {
                XRectangle(
                    x: Int16(clamping: Int(saturating: $0.x)), y: Int16(clamping: Int(saturating: $0.y)),
                    width: UInt16(clamping: Int(saturating: $0.width)), height: UInt16(clamping: Int(saturating: $0.height)))
            }
            XShapeCombineRectangles(dpy, window, ShapeBounding, 0, 0, &rects, Int32(clamping: rects.count), ShapeSet, Unsorted)
            if elapsed == 0, display.sync() != nil { return false }
            XFlush(dpy)
            if elapsed >= Reveal.duration { return true }
            let next = start + min(((elapsed / frame).rounded(.down) + 1) * frame, Reveal.duration)
            let wait = next - boottimeNow()
            if wait > 0 { usleep(UInt32(clamping: Int(saturating: wait * 1_000_000))) }
            elapsed = boottimeNow() - start
        }
    }
}
