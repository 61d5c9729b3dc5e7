import CGraphics
import SlidegateCore

/// One string shaped by Pango and ellipsized to a width, drawn once in the foreground
/// colour at full opacity. Each frame paints this image through an alpha mask (the dim text
/// and the shimmer band), so the glyphs' own coverage is what the band shows through and
/// colour emoji keep their colours.
final class ShapedText {
    let image: OpaquePointer
    /// Where the image's top-left corner is relative to the layout's origin.
    let imageX: Double
    let imageY: Double
    let logicalX: Double
    let logicalY: Double
    let width: Double
    let height: Double

    /// A line that fits is shaped with `contexts.general`: without a layout there is no
    /// sample text, so no second font lookup for `TextContexts` to spare.
    /// - Parameter throughLayout: shaped by a `PangoLayout` even when a `GlyphLine` would do
    ///   (the tests compare the two).
    init(_ string: String, width maxWidth: Double, contexts: TextContexts, color: Color, throughLayout: Bool = false)
        throws(RenderError)
    {
        let goal = Int32(maxWidth * Double(PANGO_SCALE))
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        let line = throughLayout ? nil : GlyphLine(string, fitting: goal, context: contexts.general)
        let context = line == nil ? contexts.context(for: string) : contexts.general
        let layout = line == nil ? pango_layout_new(context) : nil
        defer { layout.map { g_object_unref(UnsafeMutableRawPointer($0)) } }
        if let line {
            (ink, logical) = (line.ink, line.logical)
        } else {
            guard let layout else { throw RenderError("Pango could not create a text layout") }
            pango_layout_set_text(layout, string, -1)
            pango_layout_set_single_paragraph_mode(layout, 1)
            pango_layout_set_width(layout, goal)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_get_extents(layout, &ink, &logical)
        }
        pango_extents_to_pixels(&ink, nil)
        pango_extents_to_pixels(&logical, nil)
        logicalX = Double(logical.x)
        logicalY = Double(logical.y)
        width = Double(logical.width)
        height = Double(logical.height)
        let left = min(ink.x, logical.x) - 1
        let top = min(ink.y, logical.y) - 1
        let right = max(ink.x + ink.width, logical.x + logical.width) + 1
        let bottom = max(ink.y + ink.height, logical.y + logical.height) + 1
        imageX = Double(left)
        imageY = Double(top)
        image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, max(right - left, 1), max(bottom - top, 1))
        let cr = cairo_create(image)
        defer { cairo_destroy(cr) }
        cairo_translate(cr, -imageX, -imageY)
        cairo_set_source_rgb(cr, color.red, color.green, color.blue)
        pango_cairo_update_context(cr, context)
        if let line {
            line.show(cr)
        } else if let layout {
            pango_cairo_show_layout(cr, layout)
        }
        cairo_surface_flush(image)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            throw RenderError(status: status, "drawing the label \"\(string)\"")
        }
    }

    deinit {
        cairo_surface_destroy(image)
    }
}

/// A line of left-to-right text that fits its width, shaped run by run (Pango's items)
/// without a `PangoLayout`: the same glyphs at the same places as the layout would put them,
/// without the font metrics a layout sets up for its line height (Pango shapes a sample
/// sentence for them: about 1.5 ms for each new font, on the first frame's path). Text a
/// layout treats otherwise (right-to-left or control characters, nothing at all, too wide to
/// fit, so ellipsized) has no `GlyphLine`.
final class GlyphLine {
    private var runs: [(font: UnsafeMutablePointer<PangoFont>, glyphs: UnsafeMutablePointer<PangoGlyphString>, x: Int32)] = []
    /// In Pango units, relative to the line's top-left corner, as a layout's extents.
    private(set) var ink = PangoRectangle()
    private(set) var logical = PangoRectangle()
    private var baseline: Int32 = 0

    init?(_ string: String, fitting goal: Int32, context: OpaquePointer) {
        let direction = pango_context_get_base_dir(context)
        guard !string.isEmpty, direction == PANGO_DIRECTION_LTR || direction == PANGO_DIRECTION_WEAK_LTR,
            string.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && $0.value < 0x590 })
        else { return nil }
        let bytes = Int32(clamping: string.utf8.count)
        let flags = pango_context_get_round_glyph_positions(context) != 0 ? PANGO_SHAPE_ROUND_POSITIONS : PANGO_SHAPE_NONE
        let shaped: Bool = string.withCString { (text) -> Bool in
            guard let items = pango_itemize_with_base_dir(context, direction, text, 0, bytes, nil, nil) else { return false }
            defer {
                var each: UnsafeMutablePointer<GList>? = items
                while let item = each {
                    pango_item_free(item.pointee.data.assumingMemoryBound(to: PangoItem.self))
                    each = item.pointee.next
                }
                g_list_free(items)
            }
            var x: Int32 = 0
            var top = Int32.max
            var bottom = Int32.min
            var each: UnsafeMutablePointer<GList>? = items
            while let entry = each {
                each = entry.pointee.next
                let item = entry.pointee.data.assumingMemoryBound(to: PangoItem.self)
                // Left to right only: then the items' logical order is their order on the line.
                guard item.pointee.analysis.level % 2 == 0, let font = item.pointee.analysis.font, let glyphs = pango_glyph_string_new()
                else { return false }
                g_object_ref(UnsafeMutableRawPointer(font))
                runs.append((font, glyphs, x))
                pango_shape_with_flags(
                    text + Int(item.pointee.offset), item.pointee.length, text, bytes, &item.pointee.analysis, glyphs, flags)
                var runInk = PangoRectangle()
                var runLogical = PangoRectangle()
                pango_glyph_string_extents(glyphs, font, &runInk, &runLogical)
                // A line that does not fit is the layout's to ellipsize: no need to shape on.
                let (end, overflow) = x.addingReportingOverflow(runLogical.width)
                guard !overflow, end <= goal else { return false }
                if runInk.width > 0 && runInk.height > 0 {
                    runInk.x += x
                    ink = ink.width > 0 ? ink.union(runInk) : runInk
                }
                top = min(top, runLogical.y)
                bottom = max(bottom, runLogical.y + runLogical.height)
                x = end
            }
            guard top <= bottom else { return false }
            baseline = -top
            if ink.width > 0 { ink.y += baseline }
            logical = PangoRectangle(x: 0, y: 0, width: x, height: bottom - top)
            return true
        }
        if !shaped {
            dropRuns()
            return nil
        }
    }

    deinit {
        dropRuns()
    }

    private func dropRuns() {
        for run in runs {
            pango_glyph_string_free(run.glyphs)
            g_object_unref(UnsafeMutableRawPointer(run.font))
        }
        runs = []
    }

    /// Draws the line with its top-left corner at `cr`'s origin, in its source.
    func show(_ cr: OpaquePointer?) {
        for run in runs {
            cairo_move_to(cr, Double(run.x) / Double(PANGO_SCALE), Double(baseline) / Double(PANGO_SCALE))
            pango_cairo_show_glyph_string(cr, run.font, run.glyphs)
        }
    }
}

extension PangoRectangle {
    fileprivate func union(_ other: PangoRectangle) -> PangoRectangle {
        let left = min(x, other.x)
        let top = min(y, other.y)
        return PangoRectangle(
            x: left, y: top, width: max(x + width, other.x + other.width) - left, height: max(y + height, other.y + other.height) - top)
    }
}
