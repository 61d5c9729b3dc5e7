import CGraphics
import CX11
import CXShim
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

extension XDisplay {
    /// Sends a Cairo ARGB32 image's pixels (those of `part` of it, or all) to the top-left
    /// corner of `drawable` (X's 32-bit ZPixmap, least significant byte first: Cairo's
    /// layout on every machine); false when Xlib has no memory for the image's header.
    func put(
        _ image: OpaquePointer, part: Rect? = nil, into drawable: Drawable, gc: GC, visual: UnsafeMutablePointer<Visual>,
        depth: Int32
    ) -> Bool {
        let width = cairo_image_surface_get_width(image)
        let height = cairo_image_surface_get_height(image)
        let part = part ?? Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        guard let data = cairo_image_surface_get_data(image),
            let ximage = XCreateImage(
                pointer, visual, UInt32(depth), ZPixmap, 0, UnsafeMutableRawPointer(data).assumingMemoryBound(to: CChar.self),
                UInt32(width), UInt32(height), 32, cairo_image_surface_get_stride(image))
        else { return false }
        ximage.pointee.byte_order = LSBFirst
        XPutImage(
            pointer, drawable, gc, ximage, Int32(part.x), Int32(part.y), 0, 0, UInt32(part.width), UInt32(part.height))
        ximage.pointee.data = nil
        sg_image_destroy(ximage)
        return true
    }
}
