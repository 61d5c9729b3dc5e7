import CX11
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// Lock mode's UI: the slider window the guard made and owns. The UI only draws into it;
/// input comes from the guard over its socket, in the slider's own coordinates.
final class GuardedWindow: Stage {
    let window: Window
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    private(set) var slider: Rect

    /// The guard makes its windows of the screen's default visual and depth, and says the
    /// slider's size in the `layout` after them: nothing here waits for the server.
    init(display: XDisplay, window: Window, width: Int, height: Int) throws(UserError) {
        guard let visual = XDefaultVisual(display.pointer, display.screen) else {
            throw UserError("--lock-ui: the screen has no default visual", status: .internalError)
        }
        self.window = window
        self.visual = visual
        depth = XDefaultDepth(display.pointer, display.screen)
        slider = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        XSelectInput(display.pointer, window, ExposureMask)
    }

    /// The guard's `layout` message.
    func resize(width: Int, height: Int) {
        slider = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    }
}
