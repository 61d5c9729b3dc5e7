import SlidegateCore
import Testing

private let path = "/home/ann/.config/slidegate/config"

private func run(_ arguments: [String], file: String) throws(UserError) -> Options {
    guard case .run(let options) = try Options.parse(arguments, config: try ConfigFile.parse(file, path: path)) else {
        throw UserError("not a run", status: .usage)
    }
    return options
}

/// The message a bad configuration is refused with (exit 2), or nil when it is accepted.
private func refusal(_ arguments: [String] = [], file: String) -> String? {
    do {
        _ = try run(arguments, file: file)
        return nil
    } catch {
        #expect(error.status == .usage)
        return "slidegate: " + error.message
    }
}

@Suite struct ConfigFileTests {
    @Test func optionsOneALineWithCommentsAndBlanks() throws {
        let o = try run(
            [],
            file: """
                # the lock on the front desk
                text = slide to open the desk  \n\
                fps=30

                background=#102030
                \treveal=center
                """)
        #expect(o.text == "slide to open the desk" && o.fps == 30 && o.reveal == .center)
        #expect(o.background == Color(hex: "#102030"))
    }

    @Test func theCommandLineOverridesTheFile() throws {
        let o = try run(["--fps", "120", "--text="], file: "fps=30\ntext=from the file\nforeground=#ff0000\n")
        #expect(o.fps == 120 && o.text == "" && o.foreground == Color(hex: "#ff0000"))
    }

    @Test func anOptionOfTheOtherModeIsIgnoredInTheFileOnly() throws {
        let file = "slider=600x80+0+0\nmessage=back soon\nfork\n"
        let windowed = try run(["--geometry", "600x80"], file: file)
        #expect(windowed.message == nil && !windowed.fork, "lock-mode lines do not break a windowed gate")
        let locked = try run([], file: file)
        #expect(locked.message == "back soon" && locked.fork)
        #expect(
            refusal(["--geometry", "600x80", "--message", "x"], file: "")
                == "slidegate: --message: shows on the lock screen and cannot be combined with --geometry (windowed mode)")
    }

    @Test(arguments: [
        ("fps=0", #"slidegate: /home/ann/.config/slidegate/config:1: fps: expected a whole number from 1 to 240, got "0""#),
        ("# x\n\nfps", "slidegate: /home/ann/.config/slidegate/config:3: fps: expected a whole number from 1 to 240, got nothing"),
        ("fork=1", #"slidegate: /home/ann/.config/slidegate/config:1: fork: expected no value, got "1""#),
        ("colour=#fff", #"slidegate: /home/ann/.config/slidegate/config:1: unknown option "colour""#),
        ("--fps=30", #"slidegate: /home/ann/.config/slidegate/config:1: write "fps=30", without the dashes"#),
        ("set-pin", "slidegate: /home/ann/.config/slidegate/config:1: set-pin: only on the command line"),
        ("config=/etc/x", "slidegate: /home/ann/.config/slidegate/config:1: config: only on the command line"),
        ("background=#10203080", ##"slidegate: /home/ann/.config/slidegate/config:1: background: lock mode needs an opaque colour so nothing behind the lock shows through, got "#10203080""##),
        ("text=ok\nslider=10x10", #"slidegate: /home/ann/.config/slidegate/config:2: slider: expected a slider at least 24 pixels tall and at least twice as wide as tall, at most 16384 pixels either way, got "10x10""#),
    ])
    func aBadLineNamesTheFileAndTheLine(_ file: String, _ message: String) {
        #expect(refusal(file: file) == message)
    }

    @Test func aPinFileLineWithoutAPinIsASettingNotAnError() throws {
        #expect(try run([], file: "pin-file=/etc/kiosk/pin").auth == .none)
        #expect(try run(["--auth", "pin"], file: "pin-file=/etc/kiosk/pin").pinFile == "/etc/kiosk/pin")
    }

    @Test func theCommandLinePicksTheFile() {
        #expect(ConfigFile.choice(in: []) == .standard)
        #expect(ConfigFile.choice(in: ["--config", "/tmp/c"]) == .given("/tmp/c"))
        #expect(ConfigFile.choice(in: ["--config=/tmp/c", "--no-config"]) == .none)
        #expect(ConfigFile.choice(in: ["--text", "--config", "--fps", "3"]) == .standard, "a value that looks like --config is a value")
        #expect(ConfigFile.standardPath(configHome: "/x", home: "/home/ann") == "/x/slidegate/config")
        #expect(ConfigFile.standardPath(configHome: nil, home: "/home/ann") == path)
    }
}

/// The commented system-wide file the package ships (`ConfigTemplate`).
@Suite struct ConfigTemplateTests {
    @Test func asShippedItSetsNothingAndEachLineWorksUncommented() throws {
        #expect(try ConfigFile.parse(ConfigTemplate.text, path: "/etc/xdg/slidegate/config", layer: .system).isEmpty)
        let lines = ConfigTemplate.text.split(separator: "\n").filter { $0.hasPrefix("#") && !$0.hasPrefix("# ") && !$0.hasPrefix("##") && $0 != "#" }
        let names = lines.map { String($0.dropFirst().prefix { $0 != "=" }) }
        #expect(names == OptionSpec.all.filter { !OptionSpec.commandLineOnly.contains($0.name) }.map(\.name), "every option a file may hold, in order")
        for line in lines {
            let value = line.drop { $0 != "=" }.dropFirst()
            // A placeholder (GEOMETRY, FORMAT) is for the administrator to fill in.
            guard value.isEmpty || !value.allSatisfy({ $0.isUppercase || $0 == "=" }) else { continue }
            let given = try ConfigFile.parse(String(line.dropFirst()) + "\n", path: "/c", layer: .system)
            let name = given.first?.option.name
            // What a flag needs beside it: its mode, or the setting it works on.
            let besides =
                given.first?.option.modes == .windowed ? ["--geometry", "600x80+0+0"]
                : name == "countdown" ? ["--timeout", "5"] : name == "show-failed-attempts" ? ["--auth", "pam"] : []
            #expect(throws: Never.self, "\(line)") { _ = try Options.parse(besides, config: given) }
        }
    }
}
