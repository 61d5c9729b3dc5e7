import CX11
import SlidegateCore
import SlidegateProtocol
import SlidegateSystem
import SlidegateXlib

/// The slider the UI lent the guard for a drag (`lend`, `lent`): each frame is made on the
/// server from the UI's pixmaps — the track, the label at the alpha the thumb's place gives,
/// the thumb — in a back pixmap, and the changed part is copied to the window. A frame is a
/// few XRender requests: no pixels go over the socket and the UI sleeps through the drag.
/// Owns its pictures and the back pixmap; the pixmaps it draws from are the UI's.
final class LentSlider {
    private let display: XDisplay
    private let bounds: Rect
    private let windowPicture: Picture
    private let back: Pixmap
    private let backPicture: Picture
    private let track: Picture
    private let thumb: Picture
    private let thumbSide: Double
    private let label: (picture: Picture, part: SliderParts.Label)?
    /// A one-pixel alpha repeated: the label's alpha, set when it changes.
    private let maskPixmap: Pixmap
    private let mask: Picture
    private var maskAlpha: UInt16?
    /// What the window shows: the thumb's rectangle and the label's alpha; nil until the
    /// first frame, which paints it all.
    private var shown: (thumb: Rect, alpha: UInt16)?
    private var windowGone = false

    /// Nil when the server lacks RENDER or a format the parts need.
    init?(display: XDisplay, window: Window, layout: SliderLayout, parts: SliderParts) {
        let dpy = display.pointer
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var attributes = XWindowAttributes()
        guard XRenderQueryExtension(dpy, &eventBase, &errorBase) != 0,
            XGetWindowAttributes(dpy, window, &attributes) != 0,
            let windowFormat = XRenderFindVisualFormat(dpy, attributes.visual),
            let argb = XRenderFindStandardFormat(dpy, Int32(PictStandardARGB32)),
            let a8 = XRenderFindStandardFormat(dpy, Int32(PictStandardA8))
        else { return nil }
        self.display = display
        bounds = layout.bounds
        thumbSide = Double(Int(pixels: layout.thumbSide.rounded(.down)))
        windowPicture = XRenderCreatePicture(dpy, window, windowFormat, 0, nil)
        back = XCreatePixmap(dpy, window, UInt32(xExtent: bounds.width), UInt32(xExtent: bounds.height), UInt32(clamping: attributes.depth))
        backPicture = XRenderCreatePicture(dpy, back, windowFormat, 0, nil)
        track = XRenderCreatePicture(dpy, Drawable(parts.track), argb, 0, nil)
        thumb = XRenderCreatePicture(dpy, Drawable(parts.thumb), argb, 0, nil)
        label = parts.label.map { (XRenderCreatePicture(dpy, Drawable($0.pixmap), argb, 0, nil), $0) }
        maskPixmap = XCreatePixmap(dpy, window, 1, 1, 8)
        var repeating = XRenderPictureAttributes()
        repeating.repeat = RepeatNormal
        mask = XRenderCreatePicture(dpy, maskPixmap, a8, UInt(CPRepeat), &repeating)
    }

    deinit {
        let dpy = display.pointer
        for picture in [backPicture, track, thumb, mask] + (label.map { [$0.picture] } ?? []) { XRenderFreePicture(dpy, picture) }
        if !windowGone { XRenderFreePicture(dpy, windowPicture) }
        XFreePixmap(dpy, back)
        XFreePixmap(dpy, maskPixmap)
    }

    /// The window was destroyed, and its picture with it.
    func windowDestroyed() {
        windowGone = true
    }

    /// Shows the thumb at `thumbRect` (the layout's rectangle for its value) and the label at
    /// the scene's `labelAlpha`, repainting what changed since the last frame: the thumb's
    /// old and new places as one rectangle, and the label's when its alpha changed, each made
    /// in the back pixmap and copied to the window (as the UI sends the same two in a drag).
    func draw(thumbRect r: Rect, labelAlpha: Double) {
        let place = Rect(x: r.x.rounded(), y: r.y.rounded(), width: thumbSide, height: thumbSide)
        let alpha = label.map { Self.alpha16($0.part.alpha(labelAlpha)) } ?? 0
        let old = shown
        shown = (place, alpha)
        guard let old else { return repaint(bounds, thumb: place, alpha: alpha) }
        if old.thumb != place { repaint(old.thumb.union(place).intersection(bounds), thumb: place, alpha: alpha) }
        if let label, old.alpha != alpha { repaint(label.part.rect.intersection(bounds), thumb: place, alpha: alpha) }
    }

    /// Makes `area` of the frame (the thumb at `place`, the label at `alpha`) in the back
    /// pixmap and copies it to the window.
    private func repaint(_ area: Rect, thumb place: Rect, alpha: UInt16) {
        composite(PictOpSrc, track, mask: 0, placed: bounds, into: backPicture, within: area)
        if let label, alpha > 0 {
            if maskAlpha != alpha {
                var color = XRenderColor(red: 0, green: 0, blue: 0, alpha: alpha)
                XRenderFillRectangle(display.pointer, PictOpSrc, mask, &color, 0, 0, 1, 1)
                maskAlpha = alpha
            }
            composite(PictOpOver, label.picture, mask: mask, placed: label.part.rect, into: backPicture, within: area)
        }
        composite(PictOpOver, thumb, mask: 0, placed: place, into: backPicture, within: area)
        composite(PictOpSrc, backPicture, mask: 0, placed: bounds, into: windowPicture, within: area)
    }

    /// Waits until the server has done every frame sent, so that what the UI paints next
    /// lands after them.
    func finish() {
        XSync(display.pointer, 0)
    }

    /// `source` with its top-left corner at `placed`'s onto `target`, within `area`.
    private func composite(_ op: Int32, _ source: Picture, mask: Picture, placed: Rect, into target: Picture, within area: Rect) {
        let box = area.intersection(placed)
        guard box.width > 0, box.height > 0 else { return }
        XRenderComposite(
            display.pointer, op, source, mask, target, Int32(xCoordinate: box.x - placed.x), Int32(xCoordinate: box.y - placed.y), 0, 0,
            Int32(xCoordinate: box.x), Int32(xCoordinate: box.y), UInt32(xExtent: box.width), UInt32(xExtent: box.height))
    }

    /// An alpha as Cairo hands it to pixman for a paint at that alpha: 16 bits, rounded
    /// (and 0 for what is no number).
    static func alpha16(_ alpha: Double) -> UInt16 {
        !(alpha > 0) ? 0 : alpha >= 1 ? UInt16.max : UInt16(clamping: Int(saturating: alpha * 65535 + 0.5))
    }
}
