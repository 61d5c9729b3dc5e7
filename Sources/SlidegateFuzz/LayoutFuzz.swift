import SlidegateCore

extension FuzzTarget {
    /// Every layout fed by the X server: a set of 0 to 16 monitors (any size from 0 to
    /// 16384 pixels, any offset, the primary flag anywhere), a root window, a scale, a
    /// `--slider` or none and the parts the lock shows go through `LockPlacement.layout`;
    /// the slider it places goes through `SliderLayout` (both gates' and the fallback
    /// slider's) at thumb values from -1 to 2, and every rectangle through the conversions
    /// to X's integers. Properties: every value is finite, every size non-negative, the
    /// slider at least the smallest usable one and on a monitor that holds it whenever one
    /// does; nothing traps.
    static func layout(_ bytes: [UInt8]) throws(FuzzFailure) {
        var input = FuzzBytes(bytes)
        let count = Int(input.u8()) % 17
        let primaryAt = Int(input.u8())
        var monitors: [LockPlacement.Monitor] = []
        for i in 0..<count {
            let rect = Rect(
                x: Double(Int16(bitPattern: input.u16())), y: Double(Int16(bitPattern: input.u16())),
                width: Double(input.u16() % 16385), height: Double(input.u16() % 16385))
            monitors.append(LockPlacement.Monitor(rect: rect, primary: i == primaryAt % 17))
        }
        let screen = Rect(x: 0, y: 0, width: Double(input.u16() % 16385 + 1), height: Double(input.u16() % 16385 + 1))
        let scales = Options.scales
        let scale = scales.lowerBound + Double(input.u8()) / 255 * (scales.upperBound - scales.lowerBound)
        let flags = input.u8()
        var geometry: Geometry?
        if flags & 1 != 0 {
            // As `Options.checkSize` lets through: at least the smallest slider at this scale.
            let height = Int(pixels: (LockPlacement.minimumSliderHeight * scale).rounded(.up)) + Int(input.u8())
            geometry = Geometry(
                width: height * 2 + Int(input.u8()), height: height,
                x: Geometry.Offset(Int(Int16(bitPattern: input.u16())), fromFarEdge: flags & 2 != 0),
                y: Geometry.Offset(Int(Int16(bitPattern: input.u16())), fromFarEdge: flags & 4 != 0))
        }
        let parts = LockPlacement.Parts(
            message: flags & 8 != 0, pinLength: flags & 16 != 0 ? Int(input.u8() % 12) + 1 : 0, clock: flags & 32 != 0,
            status: flags & 128 != 0, user: input.u8() & 1 != 0, switchUser: flags & 64 != 0, keyboard: input.u8() & 1 != 0)
        let placed = LockPlacement.layout(monitors: monitors, screen: screen, slider: geometry, scale: scale, parts: parts)
        for rect in placed.all {
            guard [rect.x, rect.y, rect.width, rect.height].allSatisfy(\.isFinite), rect.width >= 0, rect.height >= 0 else {
                throw FuzzFailure("a rectangle that is not finite or has a negative size: \(rect)")
            }
            _ = (Int32(xCoordinate: rect.x), Int32(xCoordinate: rect.y), UInt32(xExtent: rect.width), UInt32(xExtent: rect.height))
        }
        let slider = placed.slider
        let least = (LockPlacement.minimumSliderHeight * scale).rounded()
        guard slider.height >= least, slider.width >= 2 * slider.height || geometry != nil else {
            throw FuzzFailure("a slider of \(slider.width)x\(slider.height) at scale \(scale)")
        }
        let chosen = LockPlacement.sliderMonitor(monitors, screen: screen, scale: scale)
        if monitors.contains(where: { LockPlacement.holdsSlider($0.rect, scale: scale) }), !LockPlacement.holdsSlider(chosen, scale: scale) {
            throw FuzzFailure("the slider went on \(chosen), too small, though another monitor holds it")
        }
        for state in [KeyboardState(), KeyboardState(symbols: true)] where parts.keyboard {
            for key in ScreenKeyboard.keys(face: .latin, state: state, in: placed.keyboard, rightToLeft: flags & 1 != 0) {
                guard placed.keyboard.intersection(key.rect) == key.rect, key.rect.width >= 0 else {
                    throw FuzzFailure("an on-screen key \(key.rect) outside its keyboard \(placed.keyboard)")
                }
            }
        }
        for rightToLeft in [false, true] {
            let layout = SliderLayout(bounds: Rect(x: 0, y: 0, width: slider.width, height: slider.height), rightToLeft: rightToLeft)
            guard layout.thumbSide > 0, layout.travel.isFinite, layout.travel != 0 else {
                throw FuzzFailure("a slider of \(slider.width)x\(slider.height) has no thumb or no travel")
            }
            for value in [-1.0, 0, 0.5, 1, 2] {
                let thumb = layout.thumb(at: value)
                _ = (Int32(xCoordinate: thumb.x), Int32(xCoordinate: thumb.y), UInt32(xExtent: thumb.width), UInt32(xExtent: thumb.height))
                guard layout.position(forPointerX: thumb.x).isFinite else { throw FuzzFailure("a pointer position that is not finite") }
            }
        }
    }
}
