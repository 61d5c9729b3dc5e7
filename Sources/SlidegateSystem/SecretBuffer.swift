import Glibc

/// Bytes of a secret (a password being typed, an answer on its way to PAM): one
/// page-aligned mapping of its own, locked in memory so it never goes to swap, wiped with
/// explicit_bzero whenever it is cleared and before it is unmapped. Never a Swift String,
/// Array or Data, which copy and leave copies behind. Owns the mapping.
package final class SecretBuffer {
    package let capacity: Int
    private let base: UnsafeMutableRawPointer
    private let mappedSize: Int
    package private(set) var count = 0

    /// A buffer of at least `capacity` bytes; throws when the memory cannot be mapped or
    /// locked (a locker must not keep a password in swappable memory).
    package init(capacity: Int = 4096) throws(SystemError) {
        let page = Int(clamping: sysconf(Int32(clamping: _SC_PAGESIZE)))
        mappedSize = (capacity + page - 1) / page * page
        guard let mapped = mmap(nil, mappedSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { throw SystemError("mmap") }
        guard mlock(mapped, mappedSize) == 0 else {
            let code = errno
            munmap(mapped, mappedSize)
            throw SystemError("mlock", code: code)
        }
        // Not in a core dump, not in a child after fork.
        guard madvise(mapped, mappedSize, MADV_DONTDUMP) == 0, madvise(mapped, mappedSize, MADV_DONTFORK) == 0 else {
            let code = errno
            munlock(mapped, mappedSize)
            munmap(mapped, mappedSize)
            throw SystemError("madvise", code: code)
        }
        base = mapped
        self.capacity = mappedSize
    }

    deinit {
        explicit_bzero(base, mappedSize)
        munlock(base, mappedSize)
        munmap(base, mappedSize)
    }

    /// The bytes, for a call that reads them in place (write them out, hand them to PAM).
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Appends a character's UTF-8 bytes; false when it does not fit.
    @discardableResult
    package func append(_ scalar: Unicode.Scalar) -> Bool {
        guard let utf8 = UTF8.encode(scalar), count + utf8.count <= capacity else { return false }
        for byte in utf8 {
            base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
            count += 1
        }
        return true
    }

    /// Room for `n` more bytes, to be filled in place by `fill` (which returns how many it
    /// wrote): how the helper reads an answer straight off its socket.
    package func fill(upTo n: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        let room = min(n, capacity - count)
        let written = fill(UnsafeMutableRawBufferPointer(start: base + count, count: room))
        count += max(0, min(written, room))
        return written
    }

    /// The bytes as a C string, for a call that wants one (crypt): the rest of the mapping
    /// is always zero, so they are terminated while they leave room.
    package var cString: UnsafePointer<CChar>? {
        count < capacity ? UnsafePointer(base.assumingMemoryBound(to: CChar.self)) : nil
    }

    /// The whole mapping, for a C call's scratch space that must not be swapped (crypt_rn's
    /// `struct crypt_data`); `clear` wipes it.
    package var scratch: UnsafeMutableRawPointer { base }

    /// Removes the last character (its whole UTF-8 sequence).
    package func removeLastCharacter() {
        guard count > 0 else { return }
        repeat {
            count -= 1
            let byte = base.load(fromByteOffset: count, as: UInt8.self)
            base.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
            if byte & 0xC0 != 0x80 { break }
        } while count > 0
    }

    /// Wipes everything.
    package func clear() {
        explicit_bzero(base, mappedSize)
        count = 0
    }
}
