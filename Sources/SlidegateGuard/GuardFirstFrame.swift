import CX11
import Glibc
import SlidegateCore
import SlidegateProtocol
import SlidegateSystem
import SlidegateXlib

/// The slider's first frame kept from the last lock with the same settings, and the
/// settings the UI draws with, which are its key.
extension Guard {
    /// Whether a first frame is kept for the slider as it will be laid out on the primary
    /// monitor now (its header only: `showFirstFrame` checks the pixels). Always false over
    /// a picture, which is never kept (the desktop's frame is: over the plain background,
    /// the picture following).
    static func isFrameKept(_ options: Options, display: XDisplay, settings: UISettings, program: Executable, scale: Double) -> Bool {
        guard options.keepsFirstFrame else { return false }
        let slider = LockPlacement.slider(on: display.sliderMonitor(scale: scale), geometry: sliderGeometry(options), scale: scale)
        let width = Int(pixels: slider.width)
        let height = Int(pixels: slider.height)
        let depth = Int(clamping: XDefaultDepth(display.pointer, display.screen))
        let file = firstFrameFile(settings: settings, program: program, width: width, height: height, depth: depth)
        return file?.holdsFrame(width: width, height: height, depth: depth) ?? false
    }

    /// What the UI draws with.
    var uiSettings: UISettings {
        var settings = Self.drawingSettings(options, fps: fps, pinLength: pinLength, scale: scale)
        settings.deadline = gate.deadline
        settings.graceUntil = gate.settings.graceUntil
        settings.holdsMatches = gate.settings.holdsMatches
        return settings
    }

    /// What the UI draws with but the gate's moments (the timeout's end and the grace's,
    /// which differ at every lock): known before the gate is. The look options go as given.
    static func drawingSettings(_ options: Options, fps: Int, pinLength: Int, scale: Double) -> UISettings {
        var settings = UISettings(looks: options.looks, fps: fps, pinLength: pinLength)
        settings.strings = options.strings
        settings.scale = scale
        return settings
    }

    /// Puts the slider's first frame kept from the last lock with the same settings in its
    /// window, while the UI is still starting, and tells the UI where it is kept and what
    /// was shown. The key: what the UI draws with (the timeout's moment aside, which differs
    /// at every lock), the slider's size and depth, and the UI program's file.
    func showFirstFrame() {
        let width = Int(pixels: cover.slider.width)
        let height = Int(pixels: cover.slider.height)
        let depth = Int(clamping: XDefaultDepth(display.pointer, display.screen))
        let settings = Self.drawingSettings(options, fps: fps, pinLength: pinLength, scale: scale)
        guard let file = Self.firstFrameFile(settings: settings, program: program, width: width, height: height, depth: depth) else { return }
        var shown: UInt64 = 0
        if var kept = file.load(width: width, height: height, depth: depth),
            cover.showInSlider(&kept.pixels, width: width, height: height)
        {
            shown = kept.checksum
            StartupTrace.mark("guard:first-frame-shown")
            frameShown()
        }
        firstFrame = (file, shown)
        send(.firstFrame(path: file.path, key: file.key, shown: shown))
    }

    /// Where the first frame of a `width` × `height` slider of `depth` is kept, and its key:
    /// what the UI draws with (`drawingSettings`), the slider's size and depth, and the UI
    /// program's file. Nil with no cache directory.
    static func firstFrameFile(settings: UISettings, program: Executable, width: Int, height: Int, depth: Int) -> FirstFrameFile? {
        var described: [UInt8] = []
        GuardMessage.settings(settings).appendFrame(to: &described)
        for value in program.identity + [UInt64(clamping: width), UInt64(clamping: height), UInt64(clamping: depth)] {
            withUnsafeBytes(of: value.littleEndian) { described.append(contentsOf: $0) }
        }
        let places = cachePlaces
        return FirstFrameFile(width: width, height: height, key: FirstFrameFile.hash(described), cacheHome: places.cacheHome, home: places.home)
    }

    /// Where the user's cache directory may be: `XDG_CACHE_HOME`, else the home directory.
    static var cachePlaces: (cacheHome: String?, home: String?) {
        (getenv("XDG_CACHE_HOME").map { String(cString: $0) }, userDirectories().home)
    }
}
