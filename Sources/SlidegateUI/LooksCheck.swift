import CGraphics
import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateSystem
import SlidegateXlib

/// `slidegate-ui --check-looks NAME=VALUE...`: the part of `slidegate --check` that needs
/// the drawing libraries — the theme's images, the picture, and fonts for the label and
/// the words in the person's language. slidegate passes the settings it resolved (`theme`,
/// `image`, `text`, `scale`); each finding goes to stdout as a `SetupReport.Finding` wire
/// line.
package enum LooksCheck {
    package static func run(_ arguments: [String]) -> ExitStatus {
        var settings: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                report("--check-looks: expected NAME=VALUE, got \"\(argument)\"")
                return .usage
            }
            settings[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        for finding in findings(settings) { print(finding.wire) }
        return .completed
    }

    private static func findings(_ settings: [String: String]) -> [SetupReport.Finding] {
        var findings: [SetupReport.Finding] = []
        let scale = settings["scale"].flatMap(Double.init) ?? 1
        var family = "Sans"
        if let directory = settings["theme"] {
            do throws(UserError) {
                let files = try ThemeFiles(directory: directory, scale: scale)
                family = files.config.labelFont ?? family
                do {
                    _ = try Look.images(files, scale: scale)
                    let busy = files.busy == nil ? "" : ", busy thumb"
                    findings.append(.init(.ok, "theme", "\(directory): track and thumb images\(busy), label font \(family)"))
                } catch {
                    findings.append(.init(.problem, "theme", "\(directory): \(error.description); the built-in look would be drawn"))
                }
            } catch {
                findings.append(.init(.problem, "theme", error.message))
            }
        }
        if let path = settings["image"] {
            switch Wallpaper.check(path) {
            case .success(let size): findings.append(.init(.ok, "image", "\(path): \(size)"))
            case .failure(let error):
                findings.append(.init(.problem, "image", "\(path): \(error.description); the lock would show the plain background"))
            }
        }
        let fonts = FontMap()
        let label = settings["text"] ?? ""
        let missing = fonts.uncovered(label, family: family)
        if !label.isEmpty {
            findings.append(
                missing.isEmpty
                    ? .init(.ok, "label font", "every character of the label has a font (\(family))")
                    : .init(.note, "label font", "no installed font has \(shown(missing)): the lock screen would show \(missing.count == 1 ? "a box in its" : "boxes in their") place"))
        }
        if settings["show-user"] != nil {
            let card = UserCard.load()
            if let picture = card.picture {
                cairo_surface_destroy(picture.image)
                findings.append(.init(.ok, "user", "\"\(card.name)\", picture \(picture.path)"))
            } else {
                findings.append(.init(.note, "user", "\"\(card.name)\": no picture (AccountsService's icon or ~/.face): the initial in a circle"))
            }
        }
        if let command = settings["status-command"] {
            switch StatusCommand.once(command) {
            case .line(let line):
                findings.append(.init(.ok, "status line", line.isEmpty ? "\(command): ran, printed no line" : "\(command): \"\(line)\""))
            case let failed:
                let failure = StatusLine.failure(failed) ?? ""
                findings.append(.init(.note, "status line", "\(command): \(failure); the lock would show no line from it"))
            }
        }
        findings += GlancesCheck.findings(
            battery: settings["show-battery"] != nil, media: settings["show-media"] != nil,
            power: settings["power-actions"].flatMap(PowerAction.list) ?? [])
        if settings["speak"] != nil { findings.append(Speech.finding()) }
        let words = Translation.strings()
        if words != Strings() {
            let missingWords = fonts.uncovered(words.all.joined(), family: family)
            if !missingWords.isEmpty {
                findings.append(.init(.note, "fonts", "no installed font has \(shown(missingWords)), which the translation uses"))
            }
        }
        return findings
    }

    /// "“ÿ” (U+00FF)", up to five of them.
    private static func shown(_ characters: [Character]) -> String {
        let listed = characters.prefix(5).map { character in
            let code = character.unicodeScalars.first.map { String($0.value, radix: 16, uppercase: true) } ?? ""
            return "“\(character)” (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
        }
        return listed.joined(separator: ", ") + (characters.count > 5 ? " and \(characters.count - 5) more" : "")
    }
}
