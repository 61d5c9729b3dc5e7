import Glibc

/// The slider's first frame, kept in a file between locks so that the guard can put it on
/// the screen the moment the screen is covered, while the UI is still starting (a cold UI
/// takes 20–30 ms to its first frame: 51 libraries, fonts, shaping). Every lock starts
/// from the same frame: the thumb at rest, the label dim between two sweeps. The UI writes
/// it once it has painted that frame; the guard shows it only when the file was written for
/// the same key (the settings the guard sends the UI, the slider's size and depth, and the
/// UI program's file) and its pixels match their checksum. The guard tells the UI the
/// checksum of what it showed, so a file that no longer matches what the UI paints (other
/// fonts installed, a theme's images edited in place) is written anew at the next lock.
///
/// The file, `$XDG_CACHE_HOME/slidegate/slider-WIDTHxHEIGHT` (`~/.cache` without the
/// variable), mode 0600, written to a temporary name and renamed over the old one:
///
///     4 bytes "SGSS", u32 version (1), u64 key, u32 width, u32 height, u32 depth,
///     u32 0, u64 checksum of the pixels, then width × height 32-bit pixels, rows top
///     to bottom: X's ZPixmap for a 24- or 32-bit TrueColor visual, least significant
///     byte first (Cairo's ARGB32 on this machine's byte order).
///
/// Integers are little-endian. Nothing in it is secret: the label, the colours, the thumb.
package struct FirstFrameFile: Equatable, Sendable {
    package var path: String
    /// What the file must have been written for.
    package var key: UInt64

    package static let headerSize = 40
    static let magic: [UInt8] = Array("SGSS".utf8)
    static let version: UInt32 = 1

    package init(path: String, key: UInt64) {
        self.path = path
        self.key = key
    }

    /// The file for a slider this size in the user's cache directory; nil without
    /// `XDG_CACHE_HOME` or a home directory.
    package init?(width: Int, height: Int, key: UInt64, cacheHome: String?, home: String?) {
        guard let directory = Self.directory(cacheHome: cacheHome, home: home) else { return nil }
        self.init(path: "\(directory)/slider-\(width)x\(height)", key: key)
    }

    /// Where kept frames are: `slidegate` in the user's cache directory.
    private static func directory(cacheHome: String?, home: String?) -> String? {
        if let cacheHome, cacheHome.hasPrefix("/") { return cacheHome + "/slidegate" }
        if let home, home.hasPrefix("/") { return home + "/.cache/slidegate" }
        return nil
    }

    /// Whether a frame is kept for a slider of any size: one directory listing, which
    /// tells the lock with nothing kept (the first with these settings' files gone, or
    /// ever) before the X server is asked where the slider goes. False without the
    /// directory.
    package static func anyKept(cacheHome: String?, home: String?) -> Bool {
        guard let directory = directory(cacheHome: cacheHome, home: home) else { return false }
        return names(in: directory).contains { $0.hasPrefix("slider-") && !$0.contains(".") }
    }

    /// The names in `directory` (none if it cannot be read).
    private static func names(in directory: String) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }

    /// A 64-bit FNV-1a hash of `bytes`, continuing from `hash`: the key's parts are fed
    /// through it in turn.
    package static func hash(_ bytes: some Sequence<UInt8>, into hash: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = hash
        for byte in bytes { h = (h ^ UInt64(clamping: byte)) &* 0x100_0000_01b3 }
        return h
    }

    /// The pixels' checksum: FNV-1a over 64-bit words, then the bytes left over (a frame
    /// of 1.7 MB is summed in about a millisecond). Never 0, which means "nothing shown".
    package static func checksum(_ pixels: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let words = pixels.count / 8
        for i in 0..<words { h = (h ^ pixels.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* 0x100_0000_01b3 }
        h = hash(pixels[(words * 8)...], into: h)
        return h == 0 ? 1 : h
    }

    /// The header for `pixels` of a `width` × `height` frame of `depth`.
    static func header(key: UInt64, width: Int, height: Int, depth: Int, checksum: UInt64) -> [UInt8] {
        var bytes = magic
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        append(version)
        append(key)
        append(UInt32(clamping: width))
        append(UInt32(clamping: height))
        append(UInt32(clamping: depth))
        append(UInt32(0))
        append(checksum)
        return bytes
    }

    /// The frame's pixels and their checksum, if the file holds a `width` × `height` frame
    /// of `depth` written for this key whose pixels match their checksum; nil otherwise (no
    /// file, another key or size, a short, long or damaged file, not a regular file).
    package func load(width: Int, height: Int, depth: Int) -> (pixels: [UInt8], checksum: UInt64)? {
        guard let (file, stored) = openFrame(width: width, height: height, depth: depth) else { return nil }
        defer { file.close() }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        guard (try? file.readFully(into: &pixels)) == true, pixels.withUnsafeBytes(Self.checksum) == stored else { return nil }
        return (pixels, stored)
    }

    /// Whether the file was written for this key and a `width` × `height` frame of `depth`
    /// and is that long; its pixels are not read (`load` checks them).
    package func holdsFrame(width: Int, height: Int, depth: Int) -> Bool {
        guard let (file, _) = openFrame(width: width, height: height, depth: depth) else { return false }
        file.close()
        return true
    }

    /// The file, read up to its pixels, and their stored checksum, if it is a regular file
    /// of the right length whose header is for this key, size and depth.
    private func openFrame(width: Int, height: Int, depth: Int) -> (FileDescriptor, UInt64)? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW) else { return nil }
        guard let stored = readHeader(file, width: width, height: height, depth: depth) else {
            file.close()
            return nil
        }
        return (file, stored)
    }

    /// The pixels' stored checksum from `file`'s header, read at its start, if `file` is as
    /// `openFrame` says.
    private func readHeader(_ file: FileDescriptor, width: Int, height: Int, depth: Int) -> UInt64? {
        var info = stat()
        var header = [UInt8](repeating: 0, count: Self.headerSize)
        guard fstat(file.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == Self.headerSize + width * height * 4,
            (try? file.readFully(into: &header)) == true
        else { return nil }
        let stored = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 32, as: UInt64.self) }.littleEndian
        return header == Self.header(key: key, width: width, height: height, depth: depth, checksum: stored) ? stored : nil
    }

    /// Writes the frame, whose pixels have `checksum`, to a temporary file renamed over the
    /// old one; creates the directories (0700) it needs, and removes the temporary files of
    /// UIs that died while they wrote theirs.
    package func store(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, depth: Int, checksum: UInt64)
        throws(SystemError)
    {
        var parts = path.split(separator: "/").dropLast()
        var directory = ""
        while !parts.isEmpty {
            directory += "/" + parts.removeFirst()
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw SystemError("mkdir \(directory)", code: errno) }
        }
        removeLeftovers(in: directory)
        let temporary = "\(path).\(getpid())"
        do {
            let file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: 0o600)
            defer { file.close() }
            try file.writeAll(Self.header(key: key, width: width, height: height, depth: depth, checksum: checksum))
            try file.writeAll(pixels)
        } catch {
            unlink(temporary)
            throw SystemError("write \(temporary)", code: error.code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw SystemError("rename to \(path)", code: code)
        }
    }

    /// Unlinks this file's temporary names (`slider-WxH.PID`) in `directory` whose process
    /// is gone: a UI killed while it wrote leaves one behind, and nothing else would.
    private func removeLeftovers(in directory: String) {
        let prefix = String(path.dropFirst(directory.count + 1)) + "."
        for name in Self.names(in: directory) {
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, pid != getpid(),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(directory + "/" + name)
        }
    }
}
