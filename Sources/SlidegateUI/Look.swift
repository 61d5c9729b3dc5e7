import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// How the slider is drawn: the built-in look, or `--theme`'s images and label font.
struct Look {
    var theme: ThemeImages?
    var font: String?
    /// The theme's label colour, which `--foreground` overrides, and background, which
    /// `--background` does.
    var foreground: Color?
    var background: Color?
    /// The label between the shimmer's sweeps (`ThemeConfig.labelDim`).
    var shimmer = Shimmer()
    /// What is drawn on the theme's thumb (`ThemeConfig.glyph`).
    var glyph: Color?

    init(theme: ThemeImages? = nil, font: String? = nil) {
        self.theme = theme
        self.font = font
    }

    /// Lock mode's: the guard checked the files before anything was shown; an image that
    /// passed but does not decode leaves the built-in look, said once on stderr — a picture
    /// never stops a lock.
    init(lockUI options: Options) {
        guard let directory = options.theme else { return }
        let scale = options.scale ?? 1
        do throws(UserError) {
            let files = try ThemeFiles(directory: directory, scale: scale)
            font = files.config.labelFont
            foreground = files.config.foreground
            background = files.config.background
            glyph = files.config.glyph
            if let dim = files.config.labelDim { shimmer.dimAlpha = dim }
            do {
                theme = try Self.images(files, scale: scale)
            } catch {
                report("--theme: \(error.description); drawing the built-in look")
            }
        } catch {
            report(error.message + "; drawing the built-in look")
        }
    }

    static func images(_ files: ThemeFiles, scale: Double) throws(RenderError) -> ThemeImages {
        try ThemeImages(
            track: files.track, thumb: files.thumb, busy: files.busy, trackCaps: files.trackCaps, thumbCaps: files.thumbCaps,
            capScale: scale / (files.doubled ? 2 : 1))
    }
}
