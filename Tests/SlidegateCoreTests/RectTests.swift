import SlidegateCore
import Testing

@Suite struct RectTests {
    let thumb = Rect(x: 100, y: 0, width: 60, height: 60)

    @Test func aRectangleApartFromTheOtherIsKeptWhole() {
        let label = Rect(x: 200, y: 20, width: 80, height: 20)
        #expect(label.outside(columnsOf: thumb) == [label])
    }

    @Test func theColumnsTheOtherCoversAreLeftOut() {
        let rightOfIt = Rect(x: 150, y: 20, width: 80, height: 20)
        #expect(rightOfIt.outside(columnsOf: thumb) == [Rect(x: 160, y: 20, width: 70, height: 20)])
        let acrossIt = Rect(x: 40, y: 20, width: 200, height: 20)
        #expect(
            acrossIt.outside(columnsOf: thumb)
                == [Rect(x: 40, y: 20, width: 60, height: 20), Rect(x: 160, y: 20, width: 80, height: 20)])
        #expect(Rect(x: 110, y: 20, width: 20, height: 20).outside(columnsOf: thumb) == [])
    }

    @Test func anOverlapOnSomeRowsOnlyIsNoPair() {
        #expect(Rect(x: 150, y: 40, width: 80, height: 40).outside(columnsOf: thumb) == nil)
    }
}
