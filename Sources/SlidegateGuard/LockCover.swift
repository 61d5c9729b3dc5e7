import CX11
import CScreenCopy
import CXShim
import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// The cover: an override-redirect window over the whole screen, inside the Composite
/// overlay window where the server has Composite, and, inside it, the windows where the UI
/// draws — the slider, the banner strip at the top of the primary
/// monitor, the `--message` line above the slider, and the PIN wheels above that. It watches them all and undoes
/// whatever another client does to them — unmapping, moving, resizing, reshaping,
/// reparenting, windows put inside — and says when they were destroyed, so the guard makes
/// them anew. Owns all of them.
final class LockCover {
    private let display: XDisplay
    private let background: Color
    private let sliderGeometry: Geometry?
    private let shapeEventBase: Int32?
    /// What the lock shows besides the slider and the banner strip: the message line, the
    /// PIN wheels, the clock, the switch-user button.
    private let parts: LockPlacement.Parts
    /// `--scale`: the factor for the sizes the cover chooses itself.
    private let scale: Double
    /// The Composite overlay window, held while locked: it is above every other window,
    /// any client may paint in it, and a compositing manager shows the desktop there. The
    /// cover inside it is above what is painted in it, and is shown by the server itself, so
    /// neither a painter nor a hung compositor can show the desktop. Nil without Composite,
    /// and once let go (`leaveOverlay`).
    private var overlay: Window?
    /// The cover's parent: the overlay window, else the root window.
    private(set) var parent: Window
    private(set) var cover: Window = 0
    /// With the cover in the overlay window: a plain window of the cover's colour over the
    /// whole screen, above every other window of the root, so that what a compositor paints
    /// (over the overlay window's children too) is never the desktop. 0 without.
    private var obscurer: Window = 0
    /// The window the UI draws the slider into, a child of `cover`.
    private(set) var sliderWindow: Window = 0
    /// Where banners slide in: a strip at the top of the primary monitor.
    private(set) var bannerWindow: Window = 0
    /// The `--message` line above the slider, when there is one.
    private(set) var messageWindow: Window = 0
    /// The PIN wheels' row, when there is one.
    private(set) var wheelsWindow: Window = 0
    /// The clock and date, when shown.
    private(set) var clockWindow: Window = 0
    /// The switch-user button, when there is one.
    private(set) var switchUserWindow: Window = 0
    /// `--image desktop`: the screen as it was before the lock covered it, copied in the
    /// server. The UI blurs it; no pixel of it comes through the guard.
    private let desktopCopy: DesktopCopy?
    /// The copy's pixmap (0: none).
    var desktop: Pixmap { desktopCopy?.pixmap ?? 0 }
    /// `--show-media`'s panel and `--power-actions`' row, when there are.
    private(set) var mediaWindow: Window = 0
    private(set) var powerWindow: Window = 0
    /// The on-screen keyboard, at its place while shown, else out of sight (0: none).
    private(set) var keyboardWindow: Window = 0
    private var keyboardShown = false
    /// Where everything inside the cover is, on the root window (`layOut`).
    private var placed = LockPlacement.Layout.empty
    var slider: Rect { placed.slider }
    var banner: Rect { placed.banner }
    var message: Rect { placed.message }
    var wheels: Rect { placed.wheels }
    var clock: Rect { placed.clock }
    var switchUser: Rect { placed.switchUser }
    var media: Rect { placed.media }
    var power: Rect { placed.power }
    /// Where the on-screen keyboard is while shown.
    var keyboard: Rect { placed.keyboard }
    /// The window that had the keyboard focus before the lock took it.
    private let focusBefore: Window
    private var coverSize = (width: 0, height: 0)

    /// `desktop`: the copy of the screen the cover holds for the UI.
    init(
        display: XDisplay, background: Color, slider geometry: Geometry?, parts: LockPlacement.Parts, scale: Double,
        desktop: DesktopCopy? = nil
    ) throws(UserError) {
        desktopCopy = desktop
        self.scale = scale
        self.parts = parts
        self.display = display
        self.background = background
        sliderGeometry = geometry
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        shapeEventBase = XShapeQueryExtension(display.pointer, &eventBase, &errorBase) != 0 ? eventBase : nil
        overlay = Self.takeOverlay(display)
        parent = overlay ?? display.root
        XSelectInput(display.pointer, display.root, StructureNotifyMask | SubstructureNotifyMask | FocusChangeMask)
        if let overlay {
            XSelectInput(display.pointer, overlay, StructureNotifyMask | SubstructureNotifyMask)
            if shapeEventBase != nil { XShapeSelectInput(display.pointer, overlay, UInt(ShapeNotifyMask)) }
        }
        XRRSelectInput(display.pointer, display.root, Int32(RRScreenChangeNotifyMask))
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display.pointer, &focus, &revert)
        focusBefore = focus
        create()
        // After the cover is mapped: what follows waits for the server's answers.
        watchCompositor()
        if let code = display.sync() {
            throw UserError("the X server refused the lock window (X error \(code))", status: .noDisplayOrLock)
        }
        desktop?.check()
    }

    deinit {
        XDestroyWindow(display.pointer, cover)
        if obscurer != 0 { XDestroyWindow(display.pointer, obscurer) }
        if let overlay { XCompositeReleaseOverlayWindow(display.pointer, overlay) }
        XSync(display.pointer, 0)
    }

    /// Gives the keyboard focus back to the window that had it before the lock, if that is
    /// still on screen: a window manager does not always (i3 leaves it on the root, where
    /// the cover's focus reverts to, and typing goes nowhere until a click).
    func restoreFocus() {
        let dpy = display.pointer
        if focusBefore != UInt(PointerRoot) && focusBefore != display.root {
            var attributes = XWindowAttributes()
            guard focusBefore != 0, XGetWindowAttributes(dpy, focusBefore, &attributes) != 0, attributes.map_state == IsViewable else {
                _ = sg_take_x_error()
                return
            }
        }
        XSetInputFocus(dpy, focusBefore, RevertToParent, UInt(CurrentTime))
        XSync(dpy, 0)
        _ = sg_take_x_error()
    }

    /// The Composite overlay window, mapped and with any shape of its bounds undone (a
    /// compositor may have done either); nil without Composite.
    private static func takeOverlay(_ display: XDisplay) -> Window? {
        let dpy = display.pointer
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        // GetOverlayWindow is Composite 0.3's (2004): a server without it answers with an
        // error, which makes the call's answer 0. Its reply is the only round trip here.
        guard XCompositeQueryExtension(dpy, &eventBase, &errorBase) != 0 else { return nil }
        let overlay = XCompositeGetOverlayWindow(dpy, display.root)
        _ = sg_take_x_error()
        guard overlay != 0 else { return nil }
        // A compositor that stopped redirecting may have unmapped it.
        XShapeCombineMask(dpy, overlay, ShapeBounding, 0, 0, 0, ShapeSet)
        XMapWindow(dpy, overlay)
        return overlay
    }

    /// The event base of XFixes, whose selection events say that a compositing manager came
    /// or went; nil without the overlay window (or XFixes).
    private(set) var fixesEventBase: Int32?

    /// Whether a compositing manager paints the screen, over the cover too: one owns
    /// `_NET_WM_CM_Sn` while the cover is in the overlay window.
    var underCompositor: Bool {
        overlay != nil && XGetSelectionOwner(display.pointer, display.atom("_NET_WM_CM_S\(display.screen)")) != 0
    }

    /// Has the server say when the compositing manager's selection changes hands.
    private func watchCompositor() {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard overlay != nil, XFixesQueryExtension(display.pointer, &eventBase, &errorBase) != 0 else { return }
        fixesEventBase = eventBase
        XFixesSelectSelectionInput(
            display.pointer, display.root, display.atom("_NET_WM_CM_S\(display.screen)"), UInt(XFixesSetSelectionOwnerNotifyMask))
    }

    /// Whether `event` says a compositing manager started or ended. A new one paints the
    /// whole screen once, over the overlay window's children too, so the cover is to be
    /// painted again (`exposeAll`) after it.
    func compositorChanged(_ event: XEvent) -> Bool {
        fixesEventBase.map { event.type == $0 + XFixesSelectionNotify } ?? false
    }

    /// Asks every window of the lock to be painted again (an Expose for the UI); the slider
    /// window too once `slider` says the UI paints it (before, it may hold the kept frame).
    func exposeAll(slider: Bool) {
        for (window, _) in inner where slider || window != sliderWindow { XClearArea(display.pointer, window, 0, 0, 0, 0, 1) }
        XClearArea(display.pointer, cover, 0, 0, 0, 0, 1)
        XFlush(display.pointer)
    }

    /// Unlocking: the cover moves to the root window, above the rest, then the obscurer and
    /// the overlay window go, so that what a reveal cuts away shows the desktop (painted by
    /// the server, or by a compositor, which composites the cover again like any window).
    func leaveOverlay() {
        guard let overlay else { return }
        let dpy = display.pointer
        self.overlay = nil
        parent = display.root
        XReparentWindow(dpy, cover, display.root, 0, 0)
        XMapRaised(dpy, cover)
        XDestroyWindow(dpy, obscurer)
        obscurer = 0
        XCompositeReleaseOverlayWindow(dpy, overlay)
        XSync(dpy, 0)
    }

    /// The windows inside the cover, with where each belongs.
    private var inner: [(window: Window, rect: Rect)] {
        [(sliderWindow, slider), (bannerWindow, banner)] + (parts.message ? [(messageWindow, message)] : [])
            + (parts.pinLength > 0 ? [(wheelsWindow, wheels)] : []) + (parts.clockWindow ? [(clockWindow, clock)] : [])
            + (parts.switchUser ? [(switchUserWindow, switchUser)] : []) + (parts.media ? [(mediaWindow, media)] : [])
            + (parts.power > 0 ? [(powerWindow, power)] : [])
            + (parts.keyboard ? [(keyboardWindow, keyboardShown ? keyboard : Rect(x: -1, y: -1, width: 1, height: 1))] : [])
    }

    /// Shows the on-screen keyboard at its place, above the rest, or puts it out of sight.
    func showKeyboard(_ shown: Bool) {
        guard keyboardWindow != 0, shown != keyboardShown else { return }
        keyboardShown = shown
        place(keyboardWindow, shown ? keyboard : Rect(x: -1, y: -1, width: 1, height: 1))
        if shown { XRaiseWindow(display.pointer, keyboardWindow) }
        // The UI asks the window's size when it hears of it, after this.
        XSync(display.pointer, 0)
    }

    /// Makes the cover and the windows inside it, maps them on top, and focuses the cover.
    private func create() {
        let dpy = display.pointer
        let depth = XDefaultDepth(dpy, display.screen)
        let visual = XDefaultVisual(dpy, display.screen)
        let size = display.rootSize()
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = display.pixel(for: background)
        attributes.event_mask = VisibilityChangeMask | StructureNotifyMask | SubstructureNotifyMask
        if overlay != nil {
            obscurer = XCreateWindow(
                dpy, display.root, 0, 0, UInt32(clamping: size.width), UInt32(clamping: size.height), 0, depth, UInt32(InputOutput), visual,
                UInt(clamping: CWOverrideRedirect | CWBackPixel | CWEventMask), &attributes)
            // A compositor must go on compositing it (2: do not unredirect).
            setCardinal(obscurer, "_NET_WM_BYPASS_COMPOSITOR", 2)
            XMapRaised(dpy, obscurer)
        }
        cover = XCreateWindow(
            dpy, parent, 0, 0, UInt32(clamping: size.width), UInt32(clamping: size.height), 0, depth, UInt32(InputOutput), visual,
            UInt(clamping: CWOverrideRedirect | CWBackPixel | CWEventMask), &attributes)
        coverSize = size
        attributes.event_mask = StructureNotifyMask | SubstructureNotifyMask
        func child() -> Window {
            XCreateWindow(dpy, cover, 0, 0, 1, 1, 0, depth, UInt32(InputOutput), visual, UInt(clamping: CWBackPixel | CWEventMask), &attributes)
        }
        placed = .empty
        sliderWindow = child()
        bannerWindow = child()
        messageWindow = parts.message ? child() : 0
        wheelsWindow = parts.pinLength > 0 ? child() : 0
        clockWindow = parts.clockWindow ? child() : 0
        switchUserWindow = parts.switchUser ? child() : 0
        mediaWindow = parts.media ? child() : 0
        powerWindow = parts.power > 0 ? child() : 0
        keyboardWindow = parts.keyboard ? child() : 0
        if shapeEventBase != nil {
            XShapeSelectInput(dpy, cover, UInt(ShapeNotifyMask))
            for (window, _) in inner { XShapeSelectInput(dpy, window, UInt(ShapeNotifyMask)) }
        }
        describe()
        layOut()
        for (window, _) in inner { XMapWindow(dpy, window) }
        XMapRaised(dpy, cover)
        XSetInputFocus(dpy, cover, RevertToParent, UInt(CurrentTime))
    }

    /// Puts a frame of the slider window's size in it: `pixels` are 32-bit, X's ZPixmap
    /// with the least significant byte first. False, with nothing drawn, when the frame is
    /// another size or the window's visual is not 24- or 32-bit TrueColor with 8 bits each
    /// for red, green and blue (what the UI draws in).
    func showInSlider(_ pixels: inout [UInt8], width: Int, height: Int) -> Bool {
        let dpy = display.pointer
        let depth = XDefaultDepth(dpy, display.screen)
        guard let visual = XDefaultVisual(dpy, display.screen), depth == 24 || depth == 32,
            visual.pointee.red_mask == 0xff0000, visual.pointee.green_mask == 0x00ff00, visual.pointee.blue_mask == 0x0000ff,
            width == Int(pixels: slider.width), height == Int(pixels: slider.height), pixels.count == width * height * 4
        else { return false }
        return pixels.withUnsafeMutableBytes { bytes in
            guard
                let image = XCreateImage(
                    dpy, visual, UInt32(clamping: depth), ZPixmap, 0, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(clamping: width),
                    UInt32(clamping: height), 32, Int32(clamping: width * 4))
            else { return false }
            image.pointee.byte_order = LSBFirst
            let gc = XCreateGC(dpy, sliderWindow, 0, nil)
            XPutImage(dpy, sliderWindow, gc, image, 0, 0, 0, 0, UInt32(clamping: width), UInt32(clamping: height))
            XFreeGC(dpy, gc)
            // The pixels are the caller's; only the header is freed here.
            image.pointee.data = nil
            sg_image_destroy(image)
            XFlush(dpy)
            return true
        }
    }

    private func describe() {
        let dpy = display.pointer
        let name = strdup("slidegate")
        let className = strdup("Slidegate")
        var classHint = XClassHint(res_name: name, res_class: className)
        XSetClassHint(dpy, cover, &classHint)
        free(name)
        free(className)
        setCardinal(cover, "_NET_WM_BYPASS_COMPOSITOR", 1)
    }

    private func setCardinal(_ window: Window, _ name: String, _ value: UInt) {
        var value = value
        _ = withUnsafeBytes(of: &value) { bytes in
            XChangeProperty(
                display.pointer, window, display.atom(name), XA_CARDINAL, 32, PropModeReplace,
                bytes.bindMemory(to: UInt8.self).baseAddress, 1)
        }
    }

    /// Fits the cover to the screen and places the slider and what goes with it
    /// (`LockPlacement.layout`) on the monitors as the server says they are now.
    /// Returns true when any of the windows inside the cover moved or changed size.
    @discardableResult
    func layOut() -> Bool {
        let dpy = display.pointer
        let size = display.rootSize()
        if coverSize != size {
            coverSize = size
            if let overlay { XMoveResizeWindow(dpy, overlay, 0, 0, UInt32(clamping: size.width), UInt32(clamping: size.height)) }
            if obscurer != 0 { XMoveResizeWindow(dpy, obscurer, 0, 0, UInt32(clamping: size.width), UInt32(clamping: size.height)) }
            XMoveResizeWindow(dpy, cover, 0, 0, UInt32(clamping: size.width), UInt32(clamping: size.height))
        }
        let old = inner.map(\.rect)
        placed = LockPlacement.layout(monitors: display.monitors(), screen: display.rootRect, slider: sliderGeometry, scale: scale, parts: parts)
        let changed = inner.map(\.rect) != old
        if changed { inner.forEach(place) }
        return changed
    }

    private func place(_ window: Window, _ r: Rect) {
        XMoveResizeWindow(
            display.pointer, window, Int32(xCoordinate: r.x), Int32(xCoordinate: r.y), UInt32(xExtent: r.width), UInt32(xExtent: r.height))
    }

    func raise() {
        if obscurer != 0 { XRaiseWindow(display.pointer, obscurer) }
        XRaiseWindow(display.pointer, cover)
    }

    /// What an event on or inside the cover means for the guard.
    enum Change {
        /// The cover or the slider window was destroyed: make new ones (`remake`).
        case destroyed
    }

    /// Undoes what another client did to the cover or the windows inside it, if `event` says
    /// it did anything. Returns `.destroyed` when they must be made anew.
    func restore(after event: inout XEvent) -> Change? {
        // Input, the bulk of what comes, is none of this: nothing is built for it.
        switch event.type {
        case DestroyNotify, UnmapNotify, ReparentNotify, CreateNotify, ConfigureNotify: break
        case let type where shapeEventBase.map({ type == $0 + ShapeNotify }) ?? false: break
        default: return nil
        }
        let dpy = display.pointer
        let inner = self.inner
        let innerWindows = inner.map(\.window)
        let ours = [cover] + innerWindows + (obscurer != 0 ? [obscurer] : [])
        func rect(of window: Window) -> Rect? { inner.first { $0.window == window }?.rect }
        switch event.type {
        case UnmapNotify where event.xunmap.window == overlay && event.xunmap.event == overlay:
            // A compositor unmaps it when it stops redirecting (a full-screen window under the
            // lock, or its own end), and with it the cover: map it again.
            XMapWindow(dpy, event.xunmap.window)
            raise()
        case let type where overlay != nil && shapeEventBase.map({ type == $0 + ShapeNotify }) ?? false
            && Self.shapeEvent(event).window == overlay:
            let shape = Self.shapeEvent(event)
            if shape.kind == ShapeBounding && shape.shaped != 0 { XShapeCombineMask(dpy, shape.window, ShapeBounding, 0, 0, 0, ShapeSet) }
        case DestroyNotify where ours.contains(event.xdestroywindow.window):
            return .destroyed
        case UnmapNotify where ours.contains(event.xunmap.window):
            XMapWindow(dpy, event.xunmap.window)
            raise()
        case ReparentNotify where event.xreparent.window == cover && event.xreparent.parent != parent:
            XReparentWindow(dpy, cover, parent, 0, 0)
            XMapRaised(dpy, cover)
        case ReparentNotify where innerWindows.contains(event.xreparent.window) && event.xreparent.parent != cover:
            if let r = rect(of: event.xreparent.window) {
                XReparentWindow(dpy, event.xreparent.window, cover, Int32(xCoordinate: r.x), Int32(xCoordinate: r.y))
                XMapWindow(dpy, event.xreparent.window)
            }
        case ReparentNotify where obscurer != 0 && event.xreparent.window == obscurer && event.xreparent.parent != display.root:
            XReparentWindow(dpy, obscurer, display.root, 0, 0)
            XMapRaised(dpy, obscurer)
            raise()
        case ReparentNotify where ours.contains(event.xreparent.parent):
            XDestroyWindow(dpy, event.xreparent.window)
        case CreateNotify where !innerWindows.contains(event.xcreatewindow.window) && ours.contains(event.xcreatewindow.parent):
            // A window another client put inside the cover would show above the lock.
            XDestroyWindow(dpy, event.xcreatewindow.window)
        case ConfigureNotify where event.xconfigure.window == cover || (obscurer != 0 && event.xconfigure.window == obscurer):
            let c = event.xconfigure
            if c.x != 0 || c.y != 0 || Int(clamping: c.width) != coverSize.width || Int(clamping: c.height) != coverSize.height {
                XMoveResizeWindow(dpy, c.window, 0, 0, UInt32(clamping: coverSize.width), UInt32(clamping: coverSize.height))
            }
        case ConfigureNotify where innerWindows.contains(event.xconfigure.window):
            let c = event.xconfigure
            if let r = rect(of: c.window),
                Double(c.x) != r.x || Double(c.y) != r.y || Double(c.width) != max(r.width, 1) || Double(c.height) != max(r.height, 1)
            {
                place(c.window, r)
            }
        case let type where shapeEventBase.map({ type == $0 + ShapeNotify }) ?? false:
            let shape = Self.shapeEvent(event)
            if shape.shaped != 0 && ours.contains(shape.window) {
                for kind in [ShapeBounding, ShapeClip, ShapeInput] {
                    XShapeCombineMask(dpy, shape.window, kind, 0, 0, 0, ShapeSet)
                }
            }
        default:
            break
        }
        return nil
    }

    private static func shapeEvent(_ event: XEvent) -> XShapeEvent {
        withUnsafePointer(to: event) { $0.withMemoryRebound(to: XShapeEvent.self, capacity: 1) { $0.pointee } }
    }

    /// Makes the cover and slider window anew after another client destroyed one of them
    /// (the grabs, on the root window, were never lost).
    func remake() {
        XDestroyWindow(display.pointer, cover)
        if obscurer != 0 { XDestroyWindow(display.pointer, obscurer) }
        // One of the two is gone already: the error that destroying it again causes is
        // expected, not news.
        XSync(display.pointer, 0)
        _ = sg_take_x_error()
        create()
    }
}
