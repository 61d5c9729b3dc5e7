/// How the lock opens once the gate has granted (a splash reveal): the cover is
/// cut away over `duration` with an ease-out — a hole with the screen's proportions growing
/// from the centre, or an edge sliding away from the left, right, top or bottom — so what
/// is underneath shows through.
package enum Reveal: String, CaseIterable, Equatable, Sendable {
    case none, center, left, right, top, bottom

    package static let duration = 0.35

    /// The eased fraction opened `elapsed` seconds in: 0 closed, 1 open.
    package static func opened(after elapsed: Double) -> Double {
        TimingCurve.easeOut.value(at: elapsed / duration)
    }

    /// What is left of a `width`x`height` cover when `opened` of it is open: the
    /// rectangles to shape it to (none once fully open).
    package func remaining(opened: Double, width: Double, height: Double) -> [Rect] {
        let p = min(max(opened, 0), 1)
        let rects: [Rect]
        switch self {
        case .none:
            rects = [Rect(x: 0, y: 0, width: width, height: height)]
        case .left:
            let edge = (p * width).rounded()
            rects = [Rect(x: edge, y: 0, width: width - edge, height: height)]
        case .right:
            rects = [Rect(x: 0, y: 0, width: width - (p * width).rounded(), height: height)]
        case .top:
            let edge = (p * height).rounded()
            rects = [Rect(x: 0, y: edge, width: width, height: height - edge)]
        case .bottom:
            rects = [Rect(x: 0, y: 0, width: width, height: height - (p * height).rounded())]
        case .center:
            let w = (p * width).rounded()
            let h = (p * height).rounded()
            let x = ((width - w) / 2).rounded(.down)
            let y = ((height - h) / 2).rounded(.down)
            rects = [
                Rect(x: 0, y: 0, width: width, height: y),
                Rect(x: 0, y: y + h, width: width, height: height - y - h),
                Rect(x: 0, y: y, width: x, height: h),
                Rect(x: x + w, y: y, width: width - x - w, height: h),
            ]
        }
        return rects.filter { $0.width > 0 && $0.height > 0 }
    }
}
