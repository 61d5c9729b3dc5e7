import Glibc
import SlidegateCore
import Testing

/// The catalogues in resources/locale: every language the README promises, each translating
/// every string slidegate says by itself, and nothing else.
@Suite struct TranslationTests {
    static let languages = ["de", "fr", "es", "it", "pt_BR", "ru", "pl", "ja", "zh_CN", "ko", "ar", "he"]

    /// The msgid → msgstr pairs of a .po file (one-line entries, as ours are).
    static func entries(_ language: String) -> [String: String] {
        let text = DocumentationTests.read("resources/locale/\(language).po") ?? ""
        var entries: [String: String] = [:]
        var id: String?
        for line in text.split(separator: "\n") {
            func quoted(_ prefix: String) -> String? {
                guard line.hasPrefix(prefix + " \""), line.hasSuffix("\"") else { return nil }
                return String(line.dropFirst(prefix.count + 2).dropLast())
            }
            if let value = quoted("msgid") { id = value }
            if let value = quoted("msgstr"), let key = id, !key.isEmpty { entries[key] = value }
        }
        return entries
    }

    @Test(arguments: languages)
    func everyStringIsTranslated(_ language: String) {
        let entries = Self.entries(language)
        #expect(Set(entries.keys) == Set(Strings().all), "\(language): the msgids are Strings.all")
        #expect(entries.values.allSatisfy { !$0.isEmpty }, "\(language): no empty translation")
        #expect(entries["slide to unlock"] != "slide to unlock", "\(language): the label is translated")
    }

    @Test func arabicAndHebrewLabelsSlideRightToLeftByThemselves() {
        for language in ["ar", "he"] {
            #expect(Direction.auto.isRightToLeft(for: Self.entries(language)["slide to unlock"] ?? ""), "\(language)")
        }
        #expect(!Direction.auto.isRightToLeft(for: Self.entries("de")["slide to unlock"] ?? "x"))
    }

    @Test func stringsTravelInAFixedOrder() {
        var s = Strings()
        s.wrongPin = "falsche PIN"
        #expect(Strings(all: s.all) == s && Strings(all: ["x"]) == nil)
        #expect(s.translated { $0.uppercased() }.label == "SLIDE TO UNLOCK")
    }
}
