import Testing

@testable import SlidegateCore

/// `--blur`'s plan and its box passes, on pixels in memory.
struct BlurTests {
    /// The plan's blur, as a Gaussian's standard deviation: the factor times that of three
    /// box passes.
    func deviation(_ plan: (factor: Int, box: Int)) -> Double {
        let side = Double(2 * plan.box + 1)
        return Double(plan.factor) * ((side * side - 1) / 4).squareRoot()
    }

    @Test(arguments: [3.0, 8, 20, 57.5, 200])
    func thePlanComesCloseToTheRadius(_ radius: Double) throws {
        let plan = try #require(Blur.plan(radius: radius))
        #expect(abs(deviation(plan) - radius) / radius < 0.35, "\(plan) for \(radius): \(deviation(plan))")
        #expect(plan.box <= 6, "a few pixels left to blur after shrinking")
    }

    @Test func noBlurIsNoPlan() {
        #expect(Blur.plan(radius: 1)! == (1, 1), "the least blur: one pixel either side")
        #expect(Blur.plan(radius: 0) == nil && Blur.plan(radius: 0.2) == nil && Blur.plan(radius: .nan) == nil)
    }

    func blurred(_ pixels: [UInt32], width: Int, height: Int, box: Int) -> [UInt32] {
        var copy = pixels
        copy.withUnsafeMutableBufferPointer { Blur.boxBlur($0.baseAddress!, width: width, height: height, stride: width, box: box) }
        return copy
    }

    @Test func aPointSpreadsEvenlyAndKeepsItsLight() {
        let side = 41
        var pixels = [UInt32](repeating: 0, count: side * side)
        pixels[20 * side + 20] = 0x00ff_ffff
        let out = blurred(pixels, width: side, height: side, box: 2)
        let red = out.map { Int($0 >> 16 & 0xff) }
        // 255 spread over 13 x 13 pixels: each rounds to 0 or 1 or 2.
        #expect(red[20 * side + 20] > 0 && red[20 * side + 20] >= red[20 * side + 24])
        #expect(red[20 * side + 17] == red[20 * side + 23] && red[17 * side + 20] == red[23 * side + 20], "symmetric")
        #expect(red[20 * side + 27] == 0 && red[27 * side + 20] == 0, "no further than three boxes")
        #expect(out.allSatisfy { $0 >> 24 == 0 }, "channels stay apart")
    }

    @Test func aFlatPictureStaysFlatAndAnEdgeBecomesARamp() {
        let flat = [UInt32](repeating: 0x0080_4020, count: 30 * 10)
        #expect(blurred(flat, width: 30, height: 10, box: 3) == flat, "edges repeat: nothing darkens")
        // Left half black, right half white.
        let edge = (0..<(40 * 4)).map { $0 % 40 < 20 ? UInt32(0) : 0x00ff_ffff }
        let row = blurred(edge, width: 40, height: 4, box: 2).prefix(40).map { Int($0 & 0xff) }
        #expect(row[0] == 0 && row[39] == 255)
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "a ramp: \(row)")
        #expect(row[19] > 60 && row[19] < 128 && row[20] > 128 && row[20] < 195, "smooth across the edge: \(row)")
    }
}
