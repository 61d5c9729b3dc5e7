import SlidegateCore
import Testing

/// `slidegate --check`'s report: where each setting came from, the findings' lines, and the
/// last line.
@Suite struct SetupReportTests {
    func settings(_ arguments: [String], file: String = "", windowed: Bool = false) throws -> [String] {
        let given = ConfigFile.entries(file, path: "/c").compactMap { try? $0.get() } + (try Options.tokenize(arguments))
        return SetupReport.settings(given, windowed: windowed).map { $0.split(separator: " ").joined(separator: " ") }
    }

    @Test func eachSettingSaysWhereItCameFromAndTheLaterOneWins() throws {
        let lines = try settings(["--fps", "30", "--auth", "pam"], file: "fps=20\n\ntimeout=5\n")
        #expect(lines.contains("fps 30 command line"))
        #expect(lines.contains("timeout 5 /c:3"))
        #expect(lines.contains("auth pam command line"))
        #expect(lines.contains("pam-service slidegate default"))
        #expect(lines.contains("no-clock off default"))
        #expect(lines.contains("message (none) default"))
        #expect(!lines.contains { $0.hasPrefix("fps 20") })
        #expect(!lines.contains { $0.hasPrefix("check ") || $0.hasPrefix("config ") || $0.hasPrefix("help ") })
    }

    @Test func everyKeyCommandIsListedAndTheModeDecidesWhichOptionsShow() throws {
        let lines = try settings(["--key-command", "F7=true"], file: "key-command=F8=false\n")
        #expect(lines.contains("key-command F8=false /c:1"))
        #expect(lines.contains("key-command F7=true command line"))
        #expect(lines.contains { $0.hasPrefix("slider ") } && !lines.contains { $0.hasPrefix("above ") })
        let windowed = try settings(["--geometry", "600x80+0+0"], windowed: true)
        #expect(windowed.contains("geometry 600x80+0+0 command line"))
        #expect(windowed.contains("above off default") && !windowed.contains { $0.hasPrefix("slider ") })
    }

    @Test func aLongValueIsCutAndAFindingStaysOnOneLine() throws {
        let lines = try settings(["--text", String(repeating: "x", count: 50)])
        #expect(lines.contains("text " + String(repeating: "x", count: 29) + "… command line"))
        let finding = SetupReport.Finding(.ok, "pam", "first prompt, “Pass\nword:\t”")
        #expect(finding.line == "  ok       pam             first prompt, “Pass word: ”")
        #expect(SetupReport.Finding(wire: finding.wire) == SetupReport.Finding(.ok, "pam", "first prompt, “Pass word: ”"))
        #expect(SetupReport.Finding(wire: "fine\tpam\ttext") == nil)
        #expect(SetupReport.Finding(wire: "ok\tpam") == nil)
    }

    @Test func theLastLineCountsTheProblems() {
        let ok = SetupReport.Finding(.ok, "display", ":0")
        let note = SetupReport.Finding(.note, "extensions", "no Present")
        let problem = SetupReport.Finding(.problem, "pam", "refuses")
        #expect(SetupReport.verdict([ok, note], windowed: false) == "ready to lock")
        #expect(SetupReport.verdict([ok], windowed: true) == "ready to run the gate")
        #expect(SetupReport.verdict([ok, problem], windowed: false) == "not ready to lock: 1 problem")
        #expect(SetupReport.verdict([problem, note, problem], windowed: false) == "not ready to lock: 2 problems")
    }

    @Test func theConfigurationFilesRefusedLinesAreEachNamed() {
        let entries = ConfigFile.entries("fps=20\nbogus\n--text=x\nconfig=/x\nno-clock=1\ntext=fine\n", path: "/c")
        let problems = entries.compactMap { entry -> String? in
            if case .failure(let error) = entry { error.message } else { nil }
        }
        #expect(
            problems == [
                "/c:2: unknown option \"bogus\"", "/c:3: write \"text=x\", without the dashes", "/c:4: config: only on the command line",
                "/c:5: no-clock: expected no value, got \"1\"",
            ])
        #expect(entries.compactMap { try? $0.get().value } == ["20", "fine"])
    }
}
