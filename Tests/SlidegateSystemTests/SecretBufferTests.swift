import Glibc
import SlidegateSystem
import Testing

/// The secret's buffer: locked pages of its own, edited a whole character at a time, and
/// wiped to zero bytes, so what is left behind is nothing.
@Suite struct SecretBufferTests {
    @Test func charactersGoInAndComeOutWhole() throws {
        let secret = try SecretBuffer()
        for scalar in "pä€🔓".unicodeScalars { #expect(secret.append(scalar)) }
        #expect(Array(secret.bytes) == Array("pä€🔓".utf8))
        secret.removeLastCharacter()
        #expect(Array(secret.bytes) == Array("pä€".utf8), "the emoji's four bytes go together")
        secret.removeLastCharacter()
        secret.removeLastCharacter()
        #expect(Array(secret.bytes) == Array("p".utf8))
        #expect(secret.cString.map { String(cString: $0) } == "p", "terminated: the rest of the mapping is zero")
    }

    @Test func clearingWipesEveryByteOfTheMapping() throws {
        let secret = try SecretBuffer(capacity: 100)
        #expect(secret.capacity >= 100 && secret.capacity % Int(sysconf(Int32(_SC_PAGESIZE))) == 0, "whole pages")
        for _ in 0..<50 { secret.append("x") }
        secret.clear()
        #expect(secret.count == 0)
        let scratch = UnsafeRawBufferPointer(start: secret.scratch, count: secret.capacity)
        #expect(scratch.allSatisfy { $0 == 0 })
    }

    @Test func aFullBufferRefusesMore() throws {
        let secret = try SecretBuffer(capacity: 1)
        let capacity = secret.capacity
        for _ in 0..<capacity { secret.append("a") }
        #expect(!secret.append("b"))
        #expect(secret.count == capacity)
        #expect(secret.cString == nil, "no room left for a terminator")
    }
}
