import CGraphics
import CPixbuf
import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// Lock mode's `--image`, on the guard's cover. The file is decoded once for the monitors
/// there are (a JPEG no larger than the largest monitor needs it), scaled once per distinct
/// monitor size into a pixmap on the X server, and copied onto each monitor where the cover
/// is exposed. Between layouts nothing of the picture stays in this process: a hotplugged
/// monitor of a new size has the file decoded again. `--image desktop` is each monitor's
/// part of the guard's copy of the screen instead. `--blur` and `--dim` are applied before
/// the upload. Owns the pixmaps and a GC.
final class Wallpaper {
    /// Where the picture comes from.
    enum Source {
        case file(String)
        /// `--image desktop`: the guard's pixmap of the screen as it was.
        case desktop(Pixmap)
    }

    let cover: Window
    private let display: XDisplay
    private let source: Source
    private let mode: ImageMode
    /// `--blur` at the monitors' pixels, and `--dim`.
    private let blur: Double
    private let dim: Double
    private let background: Color
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let gc: GC
    /// One scaled copy per distinct monitor size (a file), or per monitor (the desktop):
    /// see `key`.
    private var pixmaps: [Rect: Pixmap] = [:]
    private var monitors: [Rect] = []
    /// The picture could not be used: the plain background from then on (said once).
    private var failed = false

    /// The most pixels decoded: a 100-megapixel photo is 400 MB of pixels.
    static let pixelLimit = 100_000_000.0

    /// Decodes `path` once as a lock would (for `slidegate --check`): its size, or why it
    /// would leave the plain background.
    static func check(_ path: String) -> Result<String, RenderError> {
        do throws(RenderError) {
            let (size, _) = try info(path)
            sg_pixbuf_free(try decode(path, at: nil))
            return .success("\(Int(size.width))x\(Int(size.height))")
        } catch {
            return .failure(error)
        }
    }

    /// A small picture (`--show-user`'s) decoded whole as a Cairo image the caller owns.
    static func picture(_ path: String) throws(RenderError) -> OpaquePointer {
        _ = try info(path)
        let pixbuf = try decode(path, at: nil)
        defer { sg_pixbuf_free(pixbuf) }
        return try surface(from: pixbuf)
    }

    /// The picture's size and whether it is a JPEG, if gdk-pixbuf can read it and it is
    /// not too large to decode.
    private static func info(_ path: String) throws(RenderError) -> (size: Size, jpeg: Bool) {
        if let why = sg_pixbuf_open() { throw RenderError("gdk-pixbuf cannot be loaded: \(String(cString: why))") }
        var w: Int32 = 0
        var h: Int32 = 0
        var jpeg: Int32 = 0
        guard sg_pixbuf_info(path, &w, &h, &jpeg) != 0, w > 0, h > 0 else { throw RenderError("not an image that can be read") }
        guard Double(w) * Double(h) <= pixelLimit else {
            throw RenderError("\(w)x\(h) is more than \(Int(pixelLimit / 1_000_000)) megapixels")
        }
        return (Size(width: Double(w), height: Double(h)), jpeg != 0)
    }

    /// The file decoded (at `size`, else whole) and turned as its EXIF orientation says;
    /// `sg_pixbuf_free` it.
    private static func decode(_ path: String, at size: Size?) throws(RenderError) -> OpaquePointer {
        var message: UnsafeMutablePointer<CChar>?
        let width = size.map { Int32(max(1, $0.width.rounded(.up))) } ?? 0
        let height = size.map { Int32(max(1, $0.height.rounded(.up))) } ?? 0
        guard let pixbuf = sg_pixbuf_decode(path, width, height, &message) else {
            defer { free(message) }
            throw RenderError(message.map { String(cString: $0) } ?? "it does not decode")
        }
        return pixbuf
    }

    init(
        display: XDisplay, cover: Window, source: Source, mode: ImageMode, background: Color, blur: Double = 0, dim: Double = 0
    ) throws(UserError) {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display.pointer, cover, &attributes) != 0, let visual = attributes.visual else {
            throw UserError("--lock-ui: no window \(cover)", status: .internalError)
        }
        self.display = display
        self.cover = cover
        self.source = source
        self.mode = mode
        self.blur = blur
        self.dim = dim
        self.background = background
        self.visual = visual
        depth = attributes.depth
        XSelectInput(display.pointer, cover, ExposureMask | StructureNotifyMask)
        XRRSelectInput(display.pointer, display.root, Int32(RRScreenChangeNotifyMask))
        gc = XCreateGC(display.pointer, cover, 0, nil)
        XSetForeground(display.pointer, gc, display.pixel(for: background))
    }

    deinit {
        pixmaps.values.forEach { XFreePixmap(display.pointer, $0) }
        XFreeGC(display.pointer, gc)
    }

    /// Follows the monitors as the server has them now: scales the picture for sizes not
    /// seen yet and drops the copies of sizes gone. Returns whether the picture under the
    /// windows may have changed (their backdrops must be taken again) — then the whole
    /// cover is painted anew.
    func refresh() -> Bool {
        let now = display.monitors().map(\.rect)
        guard now != monitors, !failed else { return false }
        monitors = now
        let keys = Set(now.map(key))
        for (key, pixmap) in pixmaps where !keys.contains(key) {
            XFreePixmap(display.pointer, pixmap)
            pixmaps[key] = nil
        }
        let missing = keys.filter { pixmaps[$0] == nil }
        if !missing.isEmpty {
            do {
                switch source {
                case .file(let path): try scale(path, to: Set(missing.map(\.size)))
                case .desktop(let screen): try cut(screen, into: missing)
                }
            } catch {
                report("--image: \(name): \(error.description); drawing the plain background")
                failed = true
                pixmaps.values.forEach { XFreePixmap(display.pointer, $0) }
                pixmaps = [:]
            }
            shedStartupPages()
        }
        expose(Rect(x: 0, y: 0, width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude))
        return true
    }

    /// What a monitor's copy is kept under: its size for a file (monitors of a size share
    /// one), the monitor itself for the desktop (each shows its own part).
    private func key(_ monitor: Rect) -> Rect {
        if case .desktop = source { return monitor }
        return Rect(x: 0, y: 0, width: monitor.width, height: monitor.height)
    }

    private var name: String {
        switch source {
        case .file(let path): path
        case .desktop: Options.desktopImage
        }
    }

    /// Copies the picture onto the part of the cover in `area` (cover coordinates).
    func expose(_ area: Rect) {
        copy(area, into: cover, origin: (0, 0))
    }

    /// Copies the picture in `area` (cover coordinates) into `drawable`, the cover's point
    /// `origin` at the drawable's (0, 0).
    private func copy(_ area: Rect, into drawable: Drawable, origin: (x: Double, y: Double)) {
        for monitor in monitors {
            guard let pixmap = pixmaps[key(monitor)] else { continue }
            let part = monitor.intersection(area)
            guard part.width > 0, part.height > 0 else { continue }
            XCopyArea(
                display.pointer, pixmap, drawable, gc, Int32(part.x - monitor.x), Int32(part.y - monitor.y), UInt32(part.width),
                UInt32(part.height), Int32(part.x - origin.x), Int32(part.y - origin.y))
        }
    }

    /// The picture under `window` (a child of the cover), or nil when there is none to show.
    func backdrop(under window: Window) -> Backdrop? {
        guard !pixmaps.isEmpty else { return nil }
        let dpy = display.pointer
        var child: Window = 0
        var x: Int32 = 0
        var y: Int32 = 0
        guard let size = display.size(of: window), XTranslateCoordinates(dpy, window, cover, 0, 0, &x, &y, &child) != 0,
            size.width > 1 || size.height > 1
        else { return nil }
        let (width, height) = (UInt32(size.width), UInt32(size.height))
        let area = Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
        let patch = XCreatePixmap(dpy, cover, width, height, UInt32(depth))
        defer { XFreePixmap(dpy, patch) }
        XFillRectangle(dpy, patch, gc, 0, 0, width, height)
        copy(area, into: patch, origin: (area.x, area.y))
        guard let image = XGetImage(dpy, patch, 0, 0, width, height, UInt.max, ZPixmap) else { return nil }
        defer { sg_image_destroy(image) }
        guard let surface = Self.surface(copying: image.pointee) else { return nil }
        return Backdrop(color: background, image: surface)
    }

    /// Decodes the file and makes a pixmap for each size.
    private func scale(_ path: String, to sizes: Set<Size>) throws(RenderError) {
        let (original, jpeg) = try Self.info(path)
        // A photo its EXIF orientation turns on its side must be large enough either way up.
        let list = Array(sizes)
        let needed = max(
            mode.decodeFactor(image: original, monitors: list),
            mode.decodeFactor(image: Size(width: original.height, height: original.width), monitors: list))
        // libjpeg decodes at 1/2, 1/4 or 1/8 for next to nothing; any other size is a second
        // scaling in gdk-pixbuf before Cairo's. A PNG is decoded whole and scaled once, by Cairo.
        let factor = jpeg ? [1.0, 0.5, 0.25, 0.125].last { $0 >= needed } ?? 1 : 1
        let pixbuf = try Self.decode(
            path, at: factor < 1 ? Size(width: original.width * factor, height: original.height * factor) : nil)
        defer { sg_pixbuf_free(pixbuf) }
        let source = try Self.surface(from: pixbuf)
        defer { cairo_surface_destroy(source) }
        let decoded = Size(width: Double(cairo_image_surface_get_width(source)), height: Double(cairo_image_surface_get_height(source)))
        for size in sizes {
            pixmaps[Rect(x: 0, y: 0, width: size.width, height: size.height)] = try upload(try effects(try draw(source, decoded, at: size), blur: blur))
        }
    }

    /// Each monitor's part of the screen as the guard copied it (shrunk, `Blur.desktopShrink`;
    /// the background where the screen has grown since), blurred and dimmed at that size,
    /// scaled back up to the monitor, in a pixmap of its own.
    private func cut(_ screen: Pixmap, into monitors: Set<Rect>) throws(RenderError) {
        let dpy = display.pointer
        var root: Window = 0
        var (x, y): (Int32, Int32) = (0, 0)
        var (width, height, border, depth): (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        guard XGetGeometry(dpy, screen, &root, &x, &y, &width, &height, &border, &depth) != 0, width > 0 else {
            throw RenderError("the guard's copy of the screen is gone")
        }
        let shrink = Double(max(1, Int((Double(display.rootSize().width) / Double(width)).rounded())))
        let copied = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        for monitor in monitors {
            let part = Rect(
                x: (monitor.x / shrink).rounded(.down), y: (monitor.y / shrink).rounded(.down),
                width: max((monitor.width / shrink).rounded(.up), 1), height: max((monitor.height / shrink).rounded(.up), 1))
            let small = try Self.image(Int(part.width), Int(part.height))
            let cr = cairo_create(small)!
            cairo_set_source_rgb(cr, background.red, background.green, background.blue)
            cairo_paint(cr)
            let shown = part.intersection(copied)
            if shown.width > 0, shown.height > 0,
                let image = XGetImage(dpy, screen, Int32(shown.x), Int32(shown.y), UInt32(shown.width), UInt32(shown.height), UInt.max, ZPixmap)
            {
                if let piece = Self.surface(copying: image.pointee) {
                    cairo_set_source_surface(cr, piece, shown.x - part.x, shown.y - part.y)
                    cairo_paint(cr)
                    cairo_surface_destroy(piece)
                }
                sg_image_destroy(image)
            }
            cairo_destroy(cr)
            let blurred = try effects(small, blur: blur / shrink)
            defer { cairo_surface_destroy(blurred) }
            let whole = try Self.image(Int(monitor.width), Int(monitor.height))
            paint(blurred, into: whole, scaleX: shrink, scaleY: shrink)
            pixmaps[monitor] = try upload(whole)
        }
    }

    /// An RGB image of `width` x `height`.
    private static func image(_ width: Int, _ height: Int) throws(RenderError) -> OpaquePointer {
        let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(clamping: width), Int32(clamping: height))!
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            throw RenderError("out of memory for \(width)x\(height) pixels")
        }
        return image
    }

    /// `--blur` (`blur` pixels here) and `--dim` applied to `image` (an RGB24 surface,
    /// which is returned).
    private func effects(_ image: OpaquePointer, blur: Double) throws(RenderError) -> OpaquePointer {
        cairo_surface_flush(image)
        let width = Int(cairo_image_surface_get_width(image))
        let height = Int(cairo_image_surface_get_height(image))
        if let plan = Blur.plan(radius: blur) {
            // Shrunk by the plan's factor (a pixel of the small image is the mean of those it
            // covers), blurred there, and scaled back up smoothly.
            let small = (width: max(width / plan.factor, 1), height: max(height / plan.factor, 1))
            let shrunk = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(small.width), Int32(small.height))!
            defer { cairo_surface_destroy(shrunk) }
            guard cairo_surface_status(shrunk) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(shrunk) else {
                throw RenderError("out of memory to blur it")
            }
            paint(image, into: shrunk, scaleX: Double(small.width) / Double(width), scaleY: Double(small.height) / Double(height))
            cairo_surface_flush(shrunk)
            let stride = Int(cairo_image_surface_get_stride(shrunk)) / 4
            Blur.boxBlur(
                UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self), width: small.width, height: small.height, stride: stride,
                box: plan.box)
            cairo_surface_mark_dirty(shrunk)
            paint(shrunk, into: image, scaleX: Double(width) / Double(small.width), scaleY: Double(height) / Double(small.height))
        }
        if dim > 0 {
            let cr = cairo_create(image)!
            cairo_set_source_rgba(cr, 0, 0, 0, dim)
            cairo_paint(cr)
            cairo_destroy(cr)
        }
        cairo_surface_flush(image)
        return image
    }

    /// `source` scaled onto the whole of `target`, smoothly, its edges repeated.
    private func paint(_ source: OpaquePointer, into target: OpaquePointer, scaleX: Double, scaleY: Double) {
        let cr = cairo_create(target)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scaleX, scaleY)
        let pattern = cairo_pattern_create_for_surface(source)
        defer { cairo_pattern_destroy(pattern) }
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_source(cr, pattern)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
    }

    /// The picture as it meets a monitor of `size`, over the background colour.
    private func draw(_ source: OpaquePointer, _ decoded: Size, at size: Size) throws(RenderError) -> OpaquePointer {
        let target = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(size.width), Int32(size.height))!
        let cr = cairo_create(target)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, background.red, background.green, background.blue)
        cairo_paint(cr)
        let place = mode.placement(image: decoded, monitor: size)
        cairo_translate(cr, place.x, place.y)
        cairo_scale(cr, place.scaleX, place.scaleY)
        let pattern = cairo_pattern_create_for_surface(source)
        defer { cairo_pattern_destroy(pattern) }
        let unscaled = place.scaleX == 1 && place.scaleY == 1 && place.x == place.x.rounded() && place.y == place.y.rounded()
        cairo_pattern_set_filter(pattern, unscaled ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(pattern, place.tiled ? CAIRO_EXTEND_REPEAT : CAIRO_EXTEND_PAD)
        cairo_set_source(cr, pattern)
        if place.tiled {
            cairo_paint(cr)
        } else {
            cairo_rectangle(cr, 0, 0, decoded.width, decoded.height)
            cairo_fill(cr)
        }
        cairo_surface_flush(target)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(target)
            throw RenderError("cannot scale it to \(Int(size.width))x\(Int(size.height)): \(String(cString: cairo_status_to_string(status)))")
        }
        return target
    }

    /// A pixmap on the server holding `image`, which it destroys.
    private func upload(_ image: OpaquePointer) throws(RenderError) -> Pixmap {
        defer { cairo_surface_destroy(image) }
        let width = cairo_image_surface_get_width(image)
        let height = cairo_image_surface_get_height(image)
        let pixmap = XCreatePixmap(display.pointer, cover, UInt32(width), UInt32(height), UInt32(depth))
        guard display.put(image, into: pixmap, gc: gc, visual: visual, depth: depth) else {
            XFreePixmap(display.pointer, pixmap)
            throw RenderError("out of memory")
        }
        if let code = display.sync() {
            XFreePixmap(display.pointer, pixmap)
            throw RenderError("the X server refused a \(width)x\(height) pixmap for it (X error \(code))")
        }
        return pixmap
    }

    /// The pixbuf's pixels as a Cairo image (premultiplied when it has alpha).
    private static func surface(from pixbuf: OpaquePointer) throws(RenderError) -> OpaquePointer {
        var (width, height, channelCount, rowBytes, hasAlpha, bits): (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)
        let pixels = sg_pixbuf_pixels(pixbuf, &width, &height, &channelCount, &rowBytes, &hasAlpha, &bits)
        let alpha = hasAlpha != 0
        let channels = Int(channelCount)
        let rowstride = Int(rowBytes)
        guard bits == 8, channels == (alpha ? 4 : 3), width > 0, height > 0, rowstride >= Int(width) * channels, let pixels
        else { throw RenderError("an unusual pixel format") }
        let surface = cairo_image_surface_create(alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, width, height)!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            throw RenderError("out of memory for \(width)x\(height) pixels")
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<Int(height) {
            let from = pixels + y * rowstride
            let to = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<Int(width) {
                let p = from + x * channels
                let a = alpha ? UInt32(p[3]) : 255
                func channel(_ v: UInt8) -> UInt32 { (UInt32(v) * a + 127) / 255 }
                to[x] = a << 24 | channel(p[0]) << 16 | channel(p[1]) << 8 | channel(p[2])
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    /// A Cairo image of the server's pixels (32 bits each, the only kind `WindowSurface`
    /// accepts too), or nil.
    private static func surface(copying image: XImage) -> OpaquePointer? {
        guard image.bits_per_pixel == 32, let data = image.data else { return nil }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, image.width, image.height)!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let target = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let swap = image.byte_order != LSBFirst
        for y in 0..<Int(image.height) {
            let from = UnsafeRawPointer(data + y * Int(image.bytes_per_line)).assumingMemoryBound(to: UInt32.self)
            let to = UnsafeMutableRawPointer(target + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<Int(image.width) { to[x] = swap ? from[x].byteSwapped : from[x] }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
