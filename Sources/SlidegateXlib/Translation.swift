import CXShim
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
        // Untranslated, dgettext hands back the msgid's own pointer, which is valid only
        // inside withCString: the English string is then kept as it is.
        return Strings().translated { english in
            english.withCString { id in dgettext("slidegate", id).flatMap { $0 == id ? nil : String(cString: $0) } } ?? english
        }
    }

    /// Where the catalogues are: beside an installed program, or in the build tree.
    private static func catalogueDirectory() -> String? {
        let directory = programDirectory()
        // /usr/bin/slidegate and /usr/libexec/slidegate/slidegate-ui; .build/<triple>/debug/slidegate.
        let candidates = [directory + "/../share/locale", directory + "/../../share/locale", directory + "/../../locale"]
        return candidates.first { access($0, R_OK | X_OK) == 0 }
    }
}
