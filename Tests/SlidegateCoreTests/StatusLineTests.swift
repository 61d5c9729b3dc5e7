import SlidegateCore
import Testing

/// `--status-command`'s line: what of a command's output shows.
@Suite struct StatusLineTests {
    func clean(_ text: String) -> String { StatusLine.clean(Array(text.utf8)) }

    @Test func theFirstLineWithoutControlsOrColours() {
        #expect(clean("battery 84%\nsecond line\n") == "battery 84%")
        #expect(clean("no newline at the end") == "no newline at the end")
        #expect(clean("") == "")
        #expect(clean("\nafter an empty first line") == "")
        #expect(clean("dos\r\n") == "dos")
        #expect(clean("a\tb") == "a b", "a tab is a space")
        #expect(clean("\u{1B}[1;32mgreen\u{1B}[0m and \u{7}bell") == "green and bell")
        #expect(clean("\u{1B}]0;title\u{7}x") == "0;titlex", "ESC and the character after it go; the rest loses its controls")
        #expect(clean("left\u{2028}right") == "leftright")
        #expect(clean("family 👨‍👩‍👧 kept") == "family 👨‍👩‍👧 kept", "joined emoji stay joined")
    }

    @Test func invalidUTF8IsReplaced() {
        #expect(StatusLine.clean([0x61, 0xff, 0x62, 0xc3]) == "a\u{FFFD}b\u{FFFD}")
    }

    @Test func atMost200BytesOnACharactersBoundary() {
        let long = String(repeating: "a", count: 199) + "é" + "tail"
        let cut = clean(long)
        #expect(cut == String(repeating: "a", count: 199), "é would make 201 bytes")
        #expect(clean(String(repeating: "x", count: 5000)).utf8.count == 200)
        #expect(clean(String(repeating: "日", count: 100)).utf8.count == 198)
    }

    @Test func eachFailureIsSaidWithWhatHappened() {
        #expect(StatusLine.problem(.line("x")) == nil)
        #expect(StatusLine.failure(.timedOut) == "ran longer than 5 s and was killed")
        #expect(StatusLine.problem(.failed("exited with status 3")) == "--status-command exited with status 3; the status line stays as it was")
        #expect(StatusLine.problem(.timedOut) == "--status-command ran longer than 5 s and was killed; the status line stays as it was")
        #expect(StatusLine.problem(.flooded) == "--status-command wrote more than 64 KiB and was stopped; the status line stays as it was")
    }
}
