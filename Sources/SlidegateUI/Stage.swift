import CX11
import SlidegateCore
import SlidegateXlib

/// Where the slider lives on the X server: the window that is the slider (pointer events,
/// if any arrive, are in its coordinates).
protocol Stage: AnyObject {
    /// The window the back buffer is copied onto.
    var window: Window { get }
    var visual: UnsafeMutablePointer<Visual> { get }
    var depth: Int32 { get }
    /// The slider's rectangle in the window: all of it, or (windowed mode with the PIN
    /// wheels) its lower part.
    var slider: Rect { get }
    /// Windowed mode with the PIN wheels: their row, the window's upper part.
    var wheelArea: Rect? { get }
    /// The whole window's size.
    var size: (width: Double, height: Double) { get }
    /// Reacts to an event that is not input; returns what it means for the gate, if anything.
    func handle(_ event: inout XEvent) -> StageChange?
}

enum StageChange {
    /// The slider's rectangle changed: lay it out again and repaint.
    case relayout
    /// The window manager asked to close the window.
    case closeRequested
}
