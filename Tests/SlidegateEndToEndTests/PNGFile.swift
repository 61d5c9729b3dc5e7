import Glibc

/// Writes an RGB PNG of `width`×`height` whose pixel at (x, y) is `color(x, y)`: the
/// pictures the `--image` tests lock with. Uncompressed (stored deflate blocks), so it
/// needs nothing but this file.
func writePNG(_ path: String, width: Int, height: Int, color: (Int, Int) -> (UInt8, UInt8, UInt8)) throws {
    var raw: [UInt8] = []
    raw.reserveCapacity((width * 3 + 1) * height)
    for y in 0..<height {
        raw.append(0)
        for x in 0..<width {
            let c = color(x, y)
            raw += [c.0, c.1, c.2]
        }
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65535, raw.count - offset)
        let last: UInt8 = offset + n == raw.count ? 1 : 0
        zlib += [last, UInt8(n & 0xff), UInt8(n >> 8), UInt8(~n & 0xff), UInt8((~n >> 8) & 0xff)]
        zlib += raw[offset..<(offset + n)]
        offset += n
    } while offset < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    zlib += bigEndian(b << 16 | a)
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    file += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
    file += chunk("IDAT", zlib)
    file += chunk("IEND", [])
    try writeFile(path, file)
}

/// Writes `bytes` to a new file at `path`.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw FileError(path: path, code: errno) }
    defer { close(fd) }
    guard write(fd, bytes, bytes.count) == bytes.count else { throw FileError(path: path, code: errno) }
}

struct FileError: Error, CustomStringConvertible {
    var path: String
    var code: Int32
    var description: String { "\(path): \(String(cString: strerror(code)))" }
}

private func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in body {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return bigEndian(UInt32(data.count)) + body + bigEndian(~crc)
}
