import Glibc
import SlidegateCore
import SlidegateSystem
import Testing

@Suite(.serialized) struct TranslationLookupTests {
    /// Without a translation dgettext answers with the English text's own pointer; every
    /// string, the long ones too (which Swift keeps out of line), comes back whole.
    @Test func untranslatedStringsComeBackAsTheyAre() {
        setenv("LANGUAGE", "", 1)
        setenv("LC_ALL", "C", 1)
        defer {
            unsetenv("LANGUAGE")
            unsetenv("LC_ALL")
        }
        #expect(Translation.strings() == Strings())
    }
}
