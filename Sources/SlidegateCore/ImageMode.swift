/// How `--image` meets each monitor (`--image-mode`).
package enum ImageMode: String, Equatable, Sendable, CaseIterable {
    /// Scaled to cover the monitor, aspect kept, the overflow cut evenly on both sides.
    case fill
    /// Scaled to fit inside the monitor, aspect kept; the background colour fills the rest.
    case fit
    /// Actual size, centred; cut or framed by the background colour.
    case center
    /// Actual size, repeated from the monitor's top-left corner.
    case tile
    /// Scaled to the monitor's width and height, aspect not kept.
    case stretch

    /// Where an image of `image` pixels goes on a monitor of `monitor` pixels.
    package func placement(image: Size, monitor: Size) -> ImagePlacement {
        let sx = monitor.width / image.width
        let sy = monitor.height / image.height
        switch self {
        case .fill, .fit:
            let s = self == .fill ? max(sx, sy) : min(sx, sy)
            return ImagePlacement(
                scaleX: s, scaleY: s, x: ((monitor.width - image.width * s) / 2).rounded(.down),
                y: ((monitor.height - image.height * s) / 2).rounded(.down), tiled: false)
        case .center:
            return ImagePlacement(
                scaleX: 1, scaleY: 1, x: ((monitor.width - image.width) / 2).rounded(.down),
                y: ((monitor.height - image.height) / 2).rounded(.down), tiled: false)
        case .tile:
            return ImagePlacement(scaleX: 1, scaleY: 1, x: 0, y: 0, tiled: true)
        case .stretch:
            return ImagePlacement(scaleX: sx, scaleY: sy, x: 0, y: 0, tiled: false)
        }
    }

    /// The factor (at most 1) to decode an image of `image` pixels at, so that no monitor
    /// needs it larger than decoded: a 4K photo behind 1080p monitors is decoded at half
    /// size. Centred and tiled images are drawn at actual size.
    package func decodeFactor(image: Size, monitors: [Size]) -> Double {
        guard self != .center && self != .tile else { return 1 }
        let needed = monitors.map { m -> Double in
            let p = placement(image: image, monitor: m)
            return max(p.scaleX, p.scaleY)
        }
        return min(1, needed.max() ?? 1)
    }
}

/// Where an image is drawn on one monitor, in that monitor's pixels: scaled by
/// `scaleX`×`scaleY` with its top-left corner at `x`, `y`, or repeated from there.
package struct ImagePlacement: Equatable, Sendable {
    package var scaleX: Double
    package var scaleY: Double
    package var x: Double
    package var y: Double
    package var tiled: Bool

    package init(scaleX: Double, scaleY: Double, x: Double, y: Double, tiled: Bool) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.x = x
        self.y = y
        self.tiled = tiled
    }
}

/// A width and a height in pixels.
package struct Size: Hashable, Sendable {
    package var width: Double
    package var height: Double

    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

extension Rect {
    package var size: Size { Size(width: width, height: height) }
}
