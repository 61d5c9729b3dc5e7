import SlidegateCore
import Testing

@Suite struct EarliestTests {
    @Test func keepsTheEarliestOfTheTimesGivenAndSkipsAbsentOnes() {
        var earliest = Earliest()
        #expect(earliest.time == nil)
        earliest.consider(nil)
        #expect(earliest.time == nil)
        earliest.consider(3)
        earliest.consider(nil)
        earliest.consider(5)
        #expect(earliest.time == 3)
        earliest.consider(-1)
        #expect(earliest.time == -1)
    }
}
