import CScreenCopy
import CX11
import SlidegateSystem
import SlidegateXlib

/// `--image desktop`'s copy of the screen, `shrink` times smaller each way
/// (`Blur.desktopShrink`; the server scales it with XRender, taking the nearest pixel: the
/// blur that follows evens the samples out, and at an odd factor a bilinear filter samples
/// that very pixel, for more of the server's time). Owns its pixmap.
/// Its questions (XRender's, then the picture formats and the screen's size) ride on round
/// trips the guard makes anyway, and it is made as soon as their answers are in, before
/// the grabs; its requests go with the guard's next round trip rather than waking the
/// server on their own, so all it adds is the server's time to copy, and nothing between
/// the grabs and the cover.
final class DesktopCopy {
    /// What `ask` asked, and the shrink.
    struct Asked {
        let sequences: sg_screen_copy_asked
        let shrink: Int
    }

    private let display: XDisplay
    private let made: sg_screen_copy_made
    private var checked = false
    /// The copy (0: none, or the server could not make it).
    private(set) var pixmap: Pixmap

    /// Sends XRender's own query (which `ask` waits for), for `XDisplay(asking:)`: its
    /// answer comes with the connection's first.
    static func prefetch(_ display: OpaquePointer) {
        sg_screen_copy_prefetch(display)
    }

    /// Nil, said on stderr, without XRender: the lock shows the plain background.
    static func ask(_ display: XDisplay, shrink: Int) -> Asked? {
        var asked = sg_screen_copy_asked()
        guard sg_screen_copy_ask(display.pointer, &asked) else {
            report("--image desktop: the X server has no XRender; showing the plain background")
            return nil
        }
        return Asked(sequences: asked, shrink: max(shrink, 1))
    }

    /// Copies what the screen shows now: the root window with everything in it, as the
    /// server has the screen's pixels (under a compositing manager, what it painted into the
    /// overlay window, a child of the root). Reads `asked`'s answers. Nil, said on stderr,
    /// when the server named no format for its visual or no size for its root window: the
    /// lock shows the plain background.
    init?(_ display: XDisplay, asked: Asked) {
        made = sg_screen_copy_make(display.pointer, asked.sequences, Int32(clamping: asked.shrink))
        guard made.pixmap != 0 else {
            report("--image desktop: the X server named no picture format or size for the screen; showing the plain background")
            return nil
        }
        self.display = display
        pixmap = made.pixmap
    }

    /// Whether the server made the copy, read once a round trip has followed it (the cover's
    /// own check): when it did not (out of memory, say), that is said on stderr and `pixmap`
    /// is 0, so the lock shows the plain background.
    func check() {
        guard !checked else { return }
        checked = true
        let code = sg_screen_copy_check(display.pointer, made)
        guard code != 0 else { return }
        report("--image desktop: the X server could not copy the screen (X error \(code)); showing the plain background")
        pixmap = 0
    }

    deinit {
        if pixmap != 0 { XFreePixmap(display.pointer, pixmap) }
    }
}
