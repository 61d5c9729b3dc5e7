import CX11
import SlidegateCore
import SlidegateXlib

/// Lock mode's UI: the slider window the guard made and owns. The UI only draws into it;
/// input comes from the guard over its socket, in the slider's own coordinates.
final class GuardedWindow: Stage {
    let window: Window
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    private(set) var slider: Rect

    init(display: XDisplay, window: Window) throws(UserError) {
        self.window = window
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, window, &attributes) != 0, let visual = attributes.visual else {
            throw UserError("--lock-ui: no window \(window)", status: .internalError)
        }
        self.visual = visual
        depth = attributes.depth
        slider = Rect(x: 0, y: 0, width: Double(attributes.width), height: Double(attributes.height))
        XSelectInput(display.pointer, window, ExposureMask)
    }

    /// The guard's `layout` message.
    func resize(width: Int, height: Int) {
        slider = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    }
}
