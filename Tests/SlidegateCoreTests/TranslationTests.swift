import Glibc
import SlidegateCore
import Testing

/// The catalogues in resources/locale: every language the README promises, each translating
/// every string slidegate says by itself, and nothing else.
@Suite struct TranslationTests {
    static let languages = ["de", "fr", "es", "it", "pt_BR", "ru", "pl", "ja", "zh_CN", "ko", "ar", "he"]

    /// The msgctxt → (msgid, msgstr) of a .po file (one-line entries, as ours are).
    static func entries(_ language: String) -> [String: (english: String, words: String)] {
        let text = DocumentationTests.read("resources/locale/\(language).po") ?? ""
        var entries: [String: (english: String, words: String)] = [:]
        var context: String?
        var id: String?
        for line in text.split(separator: "\n") {
            func quoted(_ prefix: String) -> String? {
                guard line.hasPrefix(prefix + " \""), line.hasSuffix("\"") else { return nil }
                return String(line.dropFirst(prefix.count + 2).dropLast())
            }
            if let value = quoted("msgctxt") { context = value }
            if let value = quoted("msgid") { id = value }
            if let value = quoted("msgstr"), let key = context, let id {
                entries[key] = (id, value)
                context = nil
            }
        }
        return entries
    }

    @Test(arguments: languages)
    func everyStringIsTranslated(_ language: String) {
        let entries = Self.entries(language)
        #expect(Set(entries.keys) == Set(Strings.Key.allCases.map(\.rawValue)), "\(language): the msgctxts are Strings.Key's")
        #expect(entries.values.allSatisfy { !$0.words.isEmpty }, "\(language): no empty translation")
        #expect(entries["label"]?.words != "slide to unlock", "\(language): the label is translated")
    }

    /// The template's msgids are written unescaped.
    @Test func noEnglishStringNeedsEscaping() {
        #expect(Strings.Key.allCases.allSatisfy { !$0.english.contains("\"") && !$0.english.contains("\\") })
    }

    @Test func arabicAndHebrewLabelsSlideRightToLeftByThemselves() {
        for language in ["ar", "he"] {
            #expect(Direction.auto.isRightToLeft(for: Self.entries(language)["label"]?.words ?? ""), "\(language)")
        }
        #expect(!Direction.auto.isRightToLeft(for: Self.entries("de")["label"]?.words ?? "x"))
    }

    @Test func stringsTravelInAFixedOrder() {
        var s = Strings()
        s[.wrongPin] = "falsche PIN"
        #expect(Strings(all: s.all) == s && Strings(all: ["x"]) == nil)
        #expect(Strings.translated { $0 == .label ? "SLIDE" : nil }[.label] == "SLIDE")
        #expect(Strings.translated { _ in nil } == Strings())
    }
}
