import SlidegateCore
import Testing

/// `--image-mode`: where a picture goes on a monitor, and how small it may be decoded.
struct ImageModeTests {
    let photo = Size(width: 4000, height: 3000)
    let monitor = Size(width: 1920, height: 1080)

    @Test func fillCoversTheMonitorAndCutsTheOverflowEvenly() {
        let p = ImageMode.fill.placement(image: photo, monitor: monitor)
        #expect(p == ImagePlacement(scaleX: 0.48, scaleY: 0.48, x: 0, y: -180, tiled: false))
        #expect(photo.height * p.scaleY + 2 * p.y == monitor.height)
    }

    @Test func fitShowsAllOfItCentred() {
        let p = ImageMode.fit.placement(image: photo, monitor: monitor)
        #expect(p == ImagePlacement(scaleX: 0.36, scaleY: 0.36, x: 240, y: 0, tiled: false))
    }

    @Test func centerAndTileKeepTheActualSize() {
        #expect(
            ImageMode.center.placement(image: Size(width: 101, height: 51), monitor: monitor)
                == ImagePlacement(scaleX: 1, scaleY: 1, x: 909, y: 514, tiled: false))
        #expect(ImageMode.center.placement(image: photo, monitor: monitor).x == -1040)
        #expect(ImageMode.tile.placement(image: photo, monitor: monitor) == ImagePlacement(scaleX: 1, scaleY: 1, x: 0, y: 0, tiled: true))
    }

    @Test func stretchScalesEachWay() {
        let p = ImageMode.stretch.placement(image: photo, monitor: monitor)
        #expect(p == ImagePlacement(scaleX: 0.48, scaleY: 0.36, x: 0, y: 0, tiled: false))
    }

    @Test func aLargePhotoIsDecodedNoLargerThanTheLargestMonitorNeeds() {
        let small = Size(width: 1280, height: 720)
        #expect(ImageMode.fill.decodeFactor(image: photo, monitors: [monitor, small]) == 0.48)
        #expect(ImageMode.fit.decodeFactor(image: photo, monitors: [small]) == 0.24)
        #expect(ImageMode.stretch.decodeFactor(image: photo, monitors: [monitor]) == 0.48)
        #expect(ImageMode.fill.decodeFactor(image: photo, monitors: [Size(width: 7680, height: 4320)]) == 1, "never larger than it is")
        #expect(ImageMode.center.decodeFactor(image: photo, monitors: [small]) == 1)
        #expect(ImageMode.tile.decodeFactor(image: photo, monitors: [small]) == 1)
    }
}
