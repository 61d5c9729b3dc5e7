/// `--blur RADIUS`: a Gaussian blur with RADIUS as its standard deviation, in pixels at
/// scale 1, made cheaply: the picture is shrunk by a whole factor so that what is left to
/// blur is a few pixels wide, blurred there with three box passes each way (which come
/// within a few per cent of a Gaussian), and scaled back up smoothly.
package enum Blur {
    /// The largest radius `--blur` takes.
    package static let maximumRadius = 200.0
    /// The least radius `--image desktop` takes: under it, text on the screen stays readable.
    package static let leastForDesktop = 8.0

    /// By how much the guard shrinks its copy of the screen for a blur of `radius` (at the
    /// screen's pixels): a pixel of the copy for each square this many pixels wide, a
    /// quarter of the radius, so the copy costs the lock next to nothing and the blur,
    /// which spreads far wider, hides how it was sampled.
    package static func desktopShrink(radius: Double) -> Int {
        guard radius.isFinite, radius >= 8 else { return 1 }
        return max(1, Int(exactly: min(radius / 4, maximumRadius).rounded(.down)) ?? 1)
    }

    /// How `radius` (at the monitor's pixels) is blurred: shrunk by `factor`, then three
    /// box passes of `box` pixels either side of each pixel. Nil: no blur.
    package static func plan(radius: Double) -> (factor: Int, box: Int)? {
        guard radius.isFinite, radius >= 0.5 else { return nil }
        let factor = max(1, Int(exactly: min(radius / 3, maximumRadius).rounded(.down)) ?? 1)
        let left = radius / Double(factor)
        // Three passes of half-width b have the variance 3 ((2b + 1)² − 1) / 12.
        let box = max(1, Int(exactly: (((4 * left * left + 1).squareRoot() - 1) / 2).rounded()) ?? 1)
        return (factor, box)
    }

    /// Three box passes across each row, then down each column, of 32-bit pixels (each
    /// byte a channel, blurred alike) `stride` pixels apart row to row; the edges repeat.
    package static func boxBlur(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int, box: Int) {
        guard width > 0, height > 0, box > 0 else { return }
        let line = UnsafeMutablePointer<UInt32>.allocate(capacity: max(width, height))
        defer { line.deallocate() }
        for _ in 0..<3 {
            for y in 0..<height { pass(pixels + y * stride, count: width, step: 1, box: box, line: line) }
            for x in 0..<width { pass(pixels + x, count: height, step: stride, box: box, line: line) }
        }
    }

    /// One box pass along `count` pixels `step` apart: each becomes the mean of the
    /// 2 box + 1 around it.
    private static func pass(_ start: UnsafeMutablePointer<UInt32>, count: Int, step: Int, box: Int, line: UnsafeMutablePointer<UInt32>) {
        for i in 0..<count { line[i] = start[i * step] }
        let last = count - 1
        var sums = (0, 0, 0, 0)
        func add(_ pixel: UInt32, _ sign: Int) {
            sums.0 += sign * Int(truncatingIfNeeded: pixel & 0xff)
            sums.1 += sign * Int(truncatingIfNeeded: pixel >> 8 & 0xff)
            sums.2 += sign * Int(truncatingIfNeeded: pixel >> 16 & 0xff)
            sums.3 += sign * Int(truncatingIfNeeded: pixel >> 24)
        }
        for i in -box...box { add(line[min(max(i, 0), last)], 1) }
        let size = 2 * box + 1
        let half = size / 2
        for i in 0..<count {
            let mean = { (sum: Int) in UInt32(clamping: (sum + half) / size) }
            start[i * step] = mean(sums.0) | mean(sums.1) << 8 | mean(sums.2) << 16 | mean(sums.3) << 24
            add(line[min(i + box + 1, last)], 1)
            add(line[max(i - box, 0)], -1)
        }
    }
}
