import CScreenCopy
import CX11
import CXShim
import SlidegateXlib
import Testing

/// `--image desktop`'s copy of the screen, made in the server from questions asked while
/// connecting, as the guard makes it.
@Suite struct ScreenCopyTests {
    @Test func theCopyHoldsTheScreenShrunkAndTheServerSaysItMadeIt() throws {
        let server = try TestServer()
        // Another client's desktop: the root window of one colour, a window of another on
        // the left half.
        let painter = try XDisplay(named: server.name)
        XSetWindowBackground(painter.pointer, painter.root, 0x20_4060)
        XClearWindow(painter.pointer, painter.root)
        let window = XCreateSimpleWindow(painter.pointer, painter.root, 0, 0, 160, 240, 0, 0, 0xC8_6432)
        XMapWindow(painter.pointer, window)
        XSync(painter.pointer, 0)

        let display = try XDisplay(named: server.name, asking: { sg_screen_copy_prefetch($0) })
        var asked = sg_screen_copy_asked()
        #expect(sg_screen_copy_ask(display.pointer, &asked))
        let made = sg_screen_copy_make(display.pointer, asked, 4)
        try #require(made.pixmap != 0)
        defer { XFreePixmap(display.pointer, made.pixmap) }
        XSync(display.pointer, 0)
        #expect(sg_screen_copy_check(display.pointer, made) == 0)

        var root: Window = 0
        var (x, y): (Int32, Int32) = (0, 0)
        var (width, height, border, depth): (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        #expect(XGetGeometry(display.pointer, made.pixmap, &root, &x, &y, &width, &height, &border, &depth) != 0)
        #expect(width == 80 && height == 60)
        let image = try #require(XGetImage(display.pointer, made.pixmap, 0, 0, 80, 60, UInt.max, ZPixmap))
        defer { sg_image_destroy(image) }
        #expect(sg_image_pixel(image, 10, 30) & 0xFF_FFFF == 0xC8_6432, "the window, shrunk")
        #expect(sg_image_pixel(image, 70, 30) & 0xFF_FFFF == 0x20_4060, "the root window, shrunk")
    }
}
