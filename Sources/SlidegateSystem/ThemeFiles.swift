import Glibc
import SlidegateCore

/// A theme directory as checked before anything is drawn or locked: the images exist, are
/// readable and are PNGs, and the caps fit them. A picture never weakens the lock: what
/// fails here is exit 2 naming the file, with nothing shown.
package struct ThemeFiles: Equatable, Sendable {
    package var track: String
    package var thumb: String
    package var busy: String?
    package var config: ThemeConfig
    /// The @2x images were picked: the caps are doubled for them.
    package var doubled: Bool

    package var trackCaps: ThemeConfig.Caps { config.trackCaps.scaled(by: doubled ? 2 : 1) }
    package var thumbCaps: ThemeConfig.Caps { config.thumbCaps.scaled(by: doubled ? 2 : 1) }

    /// Checks `directory` (or the shipped theme of that name, `locate`) for a slider drawn at `scale`.
    package init(directory given: String, scale: Double) throws(UserError) {
        let directory = Self.locate(given)
        func problem(_ path: String, _ what: String) -> UserError { UserError("--theme: \(path): \(what)", status: .usage) }
        let conf = directory + "/theme.conf"
        if access(conf, F_OK) == 0 {
            let text: String
            do {
                text = try readTextFile(conf)
            } catch {
                throw problem(conf, error.message)
            }
            config = try ThemeConfig(parsing: text, path: conf)
        } else {
            config = ThemeConfig()
        }
        let wantsDoubled = scale >= 1.5
        func image(_ name: String, required: Bool) throws(UserError) -> (path: String, size: (Int, Int), doubled: Bool)? {
            let double = directory + "/" + name + "@2x.png"
            let single = directory + "/" + name + ".png"
            let path = wantsDoubled && access(double, F_OK) == 0 ? double : single
            guard access(path, F_OK) == 0 else {
                if required { throw problem(path, "is missing (a theme needs track.png and thumb.png)") }
                return nil
            }
            guard let size = Self.pngSize(path) else { throw problem(path, "is not a readable PNG image") }
            return (path, size, path == double)
        }
        guard let track = try image("track", required: true), let thumb = try image("thumb", required: true) else {
            throw problem(directory, "needs track.png and thumb.png")
        }
        let busy = try image("thumb-busy", required: false)
        self.track = track.path
        self.thumb = thumb.path
        self.busy = busy?.path
        doubled = track.doubled
        for (caps, name, found) in [(config.trackCaps, "track-caps", track), (config.thumbCaps, "thumb-caps", thumb)] {
            let factor = found.doubled ? 2 : 1
            guard caps.scaled(by: factor).fit(width: found.size.0, height: found.size.1) else {
                throw problem(
                    conf,
                    "\(name) \(caps.left),\(caps.top),\(caps.right),\(caps.bottom) leave no middle in \(found.path) (\(found.size.0 / factor)x\(found.size.1 / factor) at 1x)")
            }
        }
    }


    /// `--theme`'s directory: the path as given when it is a directory; else, for a plain
    /// name (`classic`, `high-contrast`), the first `slidegate/themes/NAME` in the data
    /// directories (`$XDG_DATA_DIRS`, else /usr/local/share and /usr/share), beside the
    /// installed program (`../share`), or in the source tree the program was built in; else
    /// the path as given, which the check then says is missing.
    package static func locate(_ given: String) -> String {
        var status = stat()
        if stat(given, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return given }
        guard !given.isEmpty, given.count <= 64, !given.hasPrefix("."),
            given.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") })
        else { return given }
        let dataDirectories = getenv("XDG_DATA_DIRS").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? "/usr/local/share:/usr/share"
        let program = programDirectory()
        let places =
            dataDirectories.split(separator: ":").map { "\($0)/slidegate/themes" }
            + [program + "/../share/slidegate/themes", program + "/../../share/slidegate/themes", program + "/../../../resources/themes"]
        return places.map { "\($0)/\(given)" }.first { access($0 + "/theme.conf", R_OK) == 0 || access($0 + "/track.png", R_OK) == 0 } ?? given
    }

    /// A PNG's width and height from its signature and IHDR chunk; nil for anything else.
    private static func pngSize(_ path: String) -> (Int, Int)? {
        guard let header = fileHeader(path, count: 24), header.count == 24, header[0..<8].elementsEqual(pngSignature),
            header[12..<16] == [0x49, 0x48, 0x44, 0x52]
        else { return nil }
        func big(_ at: Int) -> Int { header[at..<(at + 4)].reduce(0) { $0 << 8 | Int(clamping: $1) } }
        let (w, h) = (big(16), big(20))
        return w > 0 && h > 0 && w <= 16384 && h <= 16384 ? (w, h) : nil
    }
}

/// `--image` as the guard checks it before anything is locked: a file that can be read and
/// starts with a PNG or JPEG signature. Whether it decodes is the UI's to find out; one that
/// does not leaves the lock up with the plain background.
package enum BackgroundImageFile {
    package static func check(_ path: String) throws(UserError) {
        guard let header = fileHeader(path, count: 8) else {
            throw UserError("--image: \(path): \(access(path, F_OK) == 0 ? "is not a readable PNG or JPEG image" : "no such file")", status: .usage)
        }
        guard header.elementsEqual(pngSignature) || header.starts(with: [0xFF, 0xD8, 0xFF]) else {
            throw UserError("--image: \(path): is not a PNG or JPEG image", status: .usage)
        }
    }
}

private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// The first `count` bytes of a regular file (fewer when it is shorter), or nil when it
/// cannot be opened and read.
private func fileHeader(_ path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    var header = [UInt8](repeating: 0, count: count)
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let n = read(fd, &header, count)
    return n >= 0 ? Array(header[..<n]) : nil
}
