import Glibc
import SlidegateSystem
import Testing

/// The kept first frame's file: where it goes, and that only the frame written for the same
/// key, size and depth, undamaged, comes back.
@Suite struct FirstFrameFileTests {
    @Test func itLivesInTheCacheDirectoryNamedForTheSlidersSize() {
        #expect(FirstFrameFile(width: 560, height: 80, key: 1, cacheHome: "/c", home: "/h")?.path == "/c/slidegate/slider-560x80")
        #expect(FirstFrameFile(width: 560, height: 80, key: 1, cacheHome: nil, home: "/h")?.path == "/h/.cache/slidegate/slider-560x80")
        #expect(
            FirstFrameFile(width: 5, height: 8, key: 1, cacheHome: "relative", home: "/h")?.path == "/h/.cache/slidegate/slider-5x8",
            "a relative XDG_CACHE_HOME is ignored, as the XDG spec says")
        #expect(FirstFrameFile(width: 5, height: 8, key: 1, cacheHome: nil, home: nil) == nil)
    }

    @Test func onlyTheFrameWrittenForTheSameKeySizeAndDepthUndamagedComesBack() throws {
        var template = Array("/tmp/slidegate-frame-file.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { _ = system("rm -rf '\(directory)'") }
        let file = try #require(FirstFrameFile(width: 3, height: 2, key: 42, cacheHome: directory + "/a/b", home: nil))
        let pixels: [UInt8] = (0..<24).map { UInt8($0 * 7) }
        let checksum = pixels.withUnsafeBytes(FirstFrameFile.checksum)
        try pixels.withUnsafeBytes { try file.store($0, width: 3, height: 2, depth: 24, checksum: checksum) }

        var info = stat()
        #expect(stat(directory + "/a/b/slidegate", &info) == 0 && info.st_mode & 0o777 == 0o700, "directories made private")
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600 && info.st_size == 40 + 24)
        let loaded = try #require(file.load(width: 3, height: 2, depth: 24))
        #expect(loaded.pixels == pixels && loaded.checksum == checksum)

        #expect(FirstFrameFile(path: file.path, key: 43).load(width: 3, height: 2, depth: 24) == nil, "another key")
        #expect(file.load(width: 2, height: 3, depth: 24) == nil, "another size")
        #expect(file.load(width: 3, height: 2, depth: 32) == nil, "another depth")
        #expect(file.holdsFrame(width: 3, height: 2, depth: 24))
        #expect(!FirstFrameFile(path: file.path, key: 43).holdsFrame(width: 3, height: 2, depth: 24), "another key")
        #expect(!file.holdsFrame(width: 2, height: 3, depth: 24), "another size")
        #expect(!file.holdsFrame(width: 3, height: 2, depth: 32), "another depth")

        let fd = open(file.path, O_WRONLY)
        #expect(pwrite(fd, [0xff], 1, 40 + 5) == 1)
        close(fd)
        #expect(file.load(width: 3, height: 2, depth: 24) == nil, "a damaged pixel")
        #expect(file.holdsFrame(width: 3, height: 2, depth: 24), "pixels are load's to check")

        #expect(symlink(file.path, directory + "/link") == 0)
        #expect(FirstFrameFile(path: directory + "/link", key: 42).load(width: 3, height: 2, depth: 24) == nil, "not through a link")
        #expect(!FirstFrameFile(path: directory + "/link", key: 42).holdsFrame(width: 3, height: 2, depth: 24), "not through a link")
        #expect(truncate(file.path, 40 + 23) == 0)
        #expect(!file.holdsFrame(width: 3, height: 2, depth: 24), "a short file")
    }

    @Test func aTemporaryFileLeftByAUIThatDiedIsRemovedAtTheNextWrite() throws {
        var template = Array("/tmp/slidegate-frame-file.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { _ = system("rm -rf '\(directory)'") }
        let file = try #require(FirstFrameFile(width: 1, height: 1, key: 7, cacheHome: directory, home: nil))
        // A process that has exited: its pid names a temporary file nobody will rename.
        let dead = fork()
        if dead == 0 { _exit(0) }
        var status: Int32 = 0
        #expect(waitpid(dead, &status, 0) == dead)
        let left = "\(file.path).\(dead)"
        let living = "\(file.path).\(getppid())"
        let otherSize = "\(directory)/slidegate/slider-1x10.\(dead)"
        #expect(mkdir(directory + "/slidegate", 0o700) == 0)
        for path in [left, living, otherSize] {
            let fd = creat(path, 0o600)
            #expect(fd >= 0)
            close(fd)
        }
        let pixels: [UInt8] = [1, 2, 3, 4]
        let checksum = pixels.withUnsafeBytes(FirstFrameFile.checksum)
        try pixels.withUnsafeBytes { try file.store($0, width: 1, height: 1, depth: 24, checksum: checksum) }
        #expect(access(left, F_OK) != 0, "the dead UI's temporary file is gone")
        #expect(access(living, F_OK) == 0, "a running process's is left alone")
        #expect(access(otherSize, F_OK) == 0, "another slider size's is left to its own writes")
        #expect(file.load(width: 1, height: 1, depth: 24)?.checksum == checksum)
    }

    @Test func aFrameIsKeptForAnySizeOnlyOnceAFrameFileIsThere() throws {
        var template = Array("/tmp/slidegate-frame-any.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { _ = system("rm -rf '\(directory)'") }
        func touch(_ path: String) { close(open(path, O_WRONLY | O_CREAT, 0o600)) }
        #expect(!FirstFrameFile.anyKept(cacheHome: directory, home: nil), "no slidegate directory")
        #expect(mkdir(directory + "/slidegate", 0o700) == 0)
        #expect(!FirstFrameFile.anyKept(cacheHome: directory, home: nil), "an empty directory")
        touch(directory + "/slidegate/slider-5x8.4242")
        touch(directory + "/slidegate/notes")
        #expect(!FirstFrameFile.anyKept(cacheHome: directory, home: nil), "a dead UI's temporary file and others are not frames")
        touch(directory + "/slidegate/slider-5x8")
        #expect(FirstFrameFile.anyKept(cacheHome: directory, home: nil))
        #expect(!FirstFrameFile.anyKept(cacheHome: nil, home: directory), "without XDG_CACHE_HOME: ~/.cache/slidegate")
        #expect(mkdir(directory + "/.cache", 0o700) == 0 && rename(directory + "/slidegate", directory + "/.cache/slidegate") == 0)
        #expect(FirstFrameFile.anyKept(cacheHome: nil, home: directory))
        #expect(!FirstFrameFile.anyKept(cacheHome: nil, home: nil))
    }

    @Test func theChecksumTakesEveryByteAndIsNeverZero() {
        let a: [UInt8] = Array(repeating: 0, count: 13)
        var b = a
        b[12] = 1
        #expect(a.withUnsafeBytes(FirstFrameFile.checksum) != b.withUnsafeBytes(FirstFrameFile.checksum))
        #expect([UInt8]().withUnsafeBytes(FirstFrameFile.checksum) != 0)
    }
}
