import CX11
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// Where the slider lives on the X server, as `SliderPainter` paints it: lock mode's
/// `GuardedWindow` (the guard's window), windowed mode's `SliderWindow` (a window of its own).
protocol Stage: AnyObject {
    /// The window the back buffer is copied onto.
    var window: Window { get }
    var visual: UnsafeMutablePointer<Visual> { get }
    var depth: Int32 { get }
    /// The slider's rectangle in the window: all of it, or (windowed mode with the PIN
    /// wheels) its lower part.
    var slider: Rect { get }
}

/// What an event meant for windowed mode's window.
enum StageChange {
    /// The slider's rectangle changed: lay it out again and repaint.
    case relayout
    /// The window manager asked to close the window.
    case closeRequested
}
