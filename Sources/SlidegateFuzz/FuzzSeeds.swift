import SlidegateCore
import SlidegateProtocol

extension FuzzTarget {
    /// Inputs that reach deep into the target, for a fuzzer to start from: made by the real
    /// encoders, so they follow the formats as they change.
    package var seeds: [[UInt8]] {
        switch self {
        case .decoders: Self.decoderSeeds
        case .options: Self.optionSeeds
        case .files: Self.fileSeeds
        case .gate: Self.gateSeeds
        case .layout: Self.layoutSeeds
        case .supervisor: Self.supervisorSeeds
        }
    }

    private static var decoderSeeds: [[UInt8]] {
        let label = SliderParts.Label(pixmap: 0x40_0010, rect: Rect(x: 90, y: 20, width: 300, height: 40), foregroundAlpha: 1, emphasis: 0.6)
        let fromUI: [UIMessage] = [
            .hello(protocol: GuardProtocol.version, build: Options.version), .drawn, .pong(7),
            .lent(SliderParts(track: 0x40_0011, thumb: 0x40_0012, label: label)), .lent(SliderParts(track: 1, thumb: 2, label: nil)),
            .notLent,
        ]
        let fromHelper: [AuthReply] = [
            .hello(protocol: AuthProtocol.version, build: Options.version), .prompt(echo: false, text: "Password: "),
            .notice(error: true, text: "Your account expires in 3 days"), .verdict(.granted, message: nil),
            .verdict(.refused, message: "Authentication failure"),
        ]
        var gate = Gate(
            settings: Gate.Settings(text: "slide to unlock", auth: .pam), layout: SliderLayout(bounds: Rect(x: 0, y: 0, width: 600, height: 80)),
            start: 0)
        _ = gate.handle(.authMessage(.info, "Place your finger on the reader"), at: 0.1)
        _ = gate.handle(.key(.character), at: 0.2)
        let fromGuard: [GuardMessage] = [
            .hello(protocol: GuardProtocol.version, build: Options.version),
            .settings(
                UISettings(
                    looks: [LookSetting(name: "message", value: "back soon"), LookSetting(name: "auth", value: "pin,pam"), LookSetting(name: "unlock-command", value: "true")],
                    fps: 60, pinLength: 6)),
            .layout(width: 600, height: 80, wheels: Rect(x: 0, y: -200, width: 600, height: 190)), .state(gate.snapshot),
            .input(.motion(x: 300, y: 40), at: 1.5), .input(.authPrompt(PasswordEntry.Prompt(text: "Password: ", echo: false)), at: 2),
            .input(.scramble([1, 2, 3, 4]), at: 3), .ping(9), .echo("424242"), .lend, .giveBack,
        ]
        let toHelper: [AuthRequest] = [.hello(protocol: AuthProtocol.version, build: Options.version), .begin(service: "slidegate", tty: ":0"), .cancel, .pinFile("/home/ann/.config/slidegate/pin")]
        return [fromUI.flatMap(\.frame), fromHelper.flatMap(\.frame), fromGuard.flatMap(\.frame), toHelper.flatMap(\.frame)]
            + fromUI.map(\.frame) + fromHelper.map(\.frame)
    }

    private static var optionSeeds: [[UInt8]] {
        let lines = [
            ["--text", "slide to cancel", "--timeout", "2.5", "--countdown", "--geometry", "600x80+100+100", "--above"],
            ["--auth", "pin,pam", "--pin-file", "/tmp/pin", "--slider", "600x80+100-40", "--message", "back at 3"],
            ["--background=#102030", "--foreground", "#ffffff80", "--fps", "144", "--scale", "1.5", "--reveal", "center"],
            ["--clock-format", "%H:%M", "--date-format", "", "--image", "/tmp/a.png", "--image-mode", "tile", "--fork"],
        ]
        let config = "# a configuration file\ntext=slide to unlock\nauth=pam\npam-service = slidegate\nreduce-motion\ngeometry=600x80+0+0\n"
        return lines.map { Array($0.joined(separator: "\0").utf8) } + [Array(config.utf8)]
    }

    private static var fileSeeds: [[UInt8]] {
        [
            "# a theme\ntrack-caps=16,16,16,16\nthumb-caps=14,14,14,14\nforeground=#f2f4f8\nlabel-font=Sans\n",
            "6 $y$j9T$ZVoxMqnsKWgDsKdawhxb.1$wLuHexuMa.q.lKz7ZN0AX6/WbvOK80NZUY5CgbTu1Z1\n",
            "12 $6$rounds=5000$salt$0123456789abcdefghijklmnopqrstuvwxyz\n",
        ].map { Array($0.utf8) } + [[0x41, 0, 0, 0, 0xe9, 0, 0, 0, 0xac, 0x20, 0, 1, 0xa4, 0x20, 0, 1]]
    }

    /// Settings bytes, then steps of (time: u16 ms, input tag, its fields).
    /// One 1280x720 monitor; that and a 9x9 primary one (`xrandr --setmonitor '*x'
    /// 9/2x9/2+0+0 none`); 16 monitors side by side, the last primary, with a PIN, a
    /// message, the clock and the switch-user button; a 1x1 root and no monitor.
    private static var layoutSeeds: [[UInt8]] {
        func monitor(_ x: Int16, _ y: Int16, _ width: UInt16, _ height: UInt16) -> [UInt8] {
            [x, y].flatMap { [UInt8(UInt16(bitPattern: $0) & 0xff), UInt8(UInt16(bitPattern: $0) >> 8)] }
                + [width, height].flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        }
        let screen: [UInt8] = [0x00, 0x05, 0xd0, 0x02]
        return [
            [1, 0] + monitor(0, 0, 1280, 720) + screen + [0x55, 0],
            [2, 0] + monitor(0, 0, 9, 9) + monitor(0, 0, 1280, 720) + screen + [0x55, 0],
            [16, 15] + (0..<16).flatMap { monitor(Int16($0) * 640, 0, 640, 360) } + [0x00, 0x28, 0x68, 0x01, 0x00, 0x78, 4],
            [0, 0, 0, 0, 0, 0, 0xff, 0x01],
        ]
    }

    /// Steps of (time: u16 ms, kind, fields): a lock that unlocks; three deaths in 10 s and
    /// the safe mode; a signal while a guard dies; a guard that fails before locking.
    private static var supervisorSeeds: [[UInt8]] {
        func says(_ ms: UInt16, _ text: String) -> [UInt8] {
            let bytes = Array(text.utf8)
            return [UInt8(ms & 0xff), UInt8(ms >> 8), 0, UInt8(bytes.count), 0] + bytes
        }
        func ends(_ ms: UInt16, code: UInt8, killed: Bool) -> [UInt8] { [UInt8(ms & 0xff), UInt8(ms >> 8), 2, code, killed ? 1 : 0] }
        return [
            says(5, "G\nL\n") + says(900, "E0\n") + ends(1, code: 0, killed: false),
            says(5, "G\nL\n") + ends(1000, code: 8, killed: true) + says(10, "G\nL\n") + ends(1000, code: 3, killed: true)
                + ends(1000, code: 1, killed: false) + ends(500, code: 8, killed: true),
            says(5, "L\n") + [0, 1, 1, 14] + ends(2, code: 8, killed: true),
            ends(3, code: 2, killed: false),
        ]
    }

    private static var gateSeeds: [[UInt8]] {
        func step(_ ms: UInt16, _ tag: UInt8, _ fields: [UInt8] = []) -> [UInt8] {
            [UInt8(ms & 0xff), UInt8(ms >> 8), tag] + fields
        }
        func at(_ x: Int16, _ y: Int16) -> [UInt8] {
            let ux = UInt16(bitPattern: x)
            let uy = UInt16(bitPattern: y)
            return [UInt8(ux & 0xff), UInt8(ux >> 8), UInt8(uy & 0xff), UInt8(uy >> 8)]
        }
        let slide = step(10, 1, at(30, 40)) + (1...12).flatMap { step(16, 2, at(Int16(30 + $0 * 50), 40)) } + step(16, 5)
        let typed = step(10, 6, [0]) + step(10, 8, [10, 0] + Array("Password: ".utf8) + [1]) + step(10, 6, [0]) + step(10, 6, [4])
            + step(300, 10, [0, 0])
        return [
            [0] + slide,
            [4] + slide + step(100, 16, [0]),
            [1] + slide + typed,
            [2, 2] + slide + step(20, 14, [0]) + step(5, 0),
            [3, 0] + typed + step(2000, 19, [0xff, 0xff]) + step(10, 11) + step(5000, 0),
        ]
    }
}
