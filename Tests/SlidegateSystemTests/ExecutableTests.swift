import Glibc
import SlidegateSystem
import Testing

/// An opened executable started with descriptors of its own.
@Suite struct ExecutableTests {
    /// The child's descriptors are set before the file is executed through /proc/self/fd:
    /// one set on the opened file's own number must not be what runs.
    @Test func aDescriptorOnTheFilesOwnNumberDoesNotReplaceIt() throws {
        let program = try Executable("/bin/sh")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        // Every low number is set to the pipe, so the one Executable holds is among them.
        let low = Dictionary(uniqueKeysWithValues: (3...255).map { (Int32($0), fds[1]) })
        #expect(fds.allSatisfy { $0 < 255 })
        let child = try program.start(["-c", "echo ran >&3"], descriptors: low)
        close(fds[1])
        var waited = 0
        while child.poll() == nil && waited < 5000 {
            usleep(1000)
            waited += 1
        }
        #expect(child.exit == .exited(0), "\(String(describing: child.exit))")
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(fds[0], &buffer, buffer.count)
        #expect(n == 4 && Array(buffer[..<4]) == Array("ran\n".utf8))
    }
}
