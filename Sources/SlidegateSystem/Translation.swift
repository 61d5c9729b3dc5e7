import CSystem
import Glibc
import SlidegateCore

/// gettext for the words slidegate says by itself: the "slidegate" catalogue, found in the
/// installation (`../share/locale` beside the program) or the build tree (`.build/locale`,
/// which `./dev build` compiles from `resources/locale/*.po`). The language comes from
/// LANGUAGE, LC_ALL, LC_MESSAGES and LANG, as with any gettext program.
package enum Translation {
    /// The strings in the person's language where a catalogue has them, else English.
    package static func strings() -> Strings {
        setlocale(LC_MESSAGES, "")
        guard let directory = catalogueDirectory() else { return Strings() }
        bindtextdomain("slidegate", directory)
        bind_textdomain_codeset("slidegate", "UTF-8")
        // A catalogue's entry is found by its msgctxt and msgid ("context\u{4}msgid", as
        // pgettext asks); `./dev build` compiles each with the msgid of the English in
        // Strings. Untranslated, dgettext hands back the asked-for pointer, which is valid
        // only inside withCString: the English string is then kept as it is.
        return Strings.translated { key in
            (key.rawValue + "\u{4}" + key.english).withCString { id in
                dgettext("slidegate", id).flatMap { $0 == id ? nil : String(cString: $0) }
            }
        }
    }

    /// For `slidegate --check`: which catalogue the person's language gets, or why the words
    /// stay English.
    package static func catalogueFinding() -> SetupReport.Finding {
        let subject = "translation"
        let variables = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]
        let language = variables.lazy.compactMap { getenv($0).map { String(cString: $0) } }.first { !$0.isEmpty }
        let first = String((language ?? "C").prefix { $0 != ":" })
        guard !["C", "POSIX"].contains(first), !first.hasPrefix("C."), !first.hasPrefix("en") else {
            return .init(.ok, subject, "English (\(language.map { "\"\($0)\"" } ?? "no language set"))")
        }
        guard let locale = setlocale(LC_MESSAGES, "").map({ String(cString: $0) }), locale != "C" else {
            return .init(.note, subject, "the locale of \"\(first)\" is not installed (locale -a lists those that are): the words stay English")
        }
        guard let directory = catalogueDirectory() else { return .init(.note, subject, "no catalogues are installed: the words stay English") }
        let code = String(first.prefix { $0 != "." && $0 != "@" })
        for name in [code, String(code.prefix { $0 != "_" })] {
            let path = directory + "/" + name + "/LC_MESSAGES/slidegate.mo"
            if access(path, R_OK) == 0 {
                return .init(.ok, subject, "\(name): \(resolvedPath(path))")
            }
        }
        return .init(.note, subject, "no catalogue for \"\(code)\": the words stay English")
    }

    /// The language the person asked for, as an ISO 639 code ("de", "pt"), for a speech
    /// synthesiser; "en" when none or English.
    package static func languageCode() -> String {
        let variables = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]
        let language = variables.lazy.compactMap { getenv($0).map { String(cString: $0) } }.first { !$0.isEmpty } ?? "C"
        let code = String(language.prefix { $0 != ":" && $0 != "_" && $0 != "." && $0 != "@" })
        guard (2...3).contains(code.count), code.allSatisfy({ $0.isLetter && $0.isASCII }) else { return "en" }
        return code.lowercased()
    }

    /// Where the catalogues are: beside an installed program, or in the build tree.
    private static func catalogueDirectory() -> String? {
        let directory = programDirectory()
        // /usr/bin/slidegate and /usr/libexec/slidegate/slidegate-ui; .build/<triple>/debug/slidegate.
        let candidates = [directory + "/../share/locale", directory + "/../../share/locale", directory + "/../../locale"]
        return candidates.first { access($0, R_OK | X_OK) == 0 }
    }
}
