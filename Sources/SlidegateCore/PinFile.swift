/// The PIN file (`--pin-file`, `--set-pin`): one line, the number of digits, a space, and a
/// crypt(5) hash of the PIN — yescrypt (`$y$`), bcrypt (`$2b$`) or SHA-512 (`$6$`).
package struct PinFile: Equatable, Sendable {
    /// How many digits the PIN has: how many wheels there are.
    package var length: Int
    package var hash: String

    package static let lengths = 4...12
    package static let schemes = ["$y$", "$2b$", "$6$"]

    package init(length: Int, hash: String) {
        self.length = length
        self.hash = hash
    }

    /// The default place: `$XDG_CONFIG_HOME/slidegate/pin`, else `~/.config/slidegate/pin`.
    package static func defaultPath(configHome: String?, home: String?) -> String? {
        ConfigFile.userFile("pin", configHome: configHome, home: home)
    }

    /// The line a PIN file holds for `hash`.
    package var line: String { "\(length) \(hash)\n" }

    /// Reads a PIN file's text; throws what is wrong with it, for "FILE: problem".
    package init(parsing text: String) throws(UserError) {
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        guard !body.isEmpty else { throw UserError("is empty; set a PIN with slidegate --set-pin", status: .usage) }
        guard !body.contains("\n") else { throw UserError("has more than one line", status: .usage) }
        let fields = body.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 2, let n = Int(fields[0], radix: 10), fields[0].allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw UserError("expected the number of digits, a space and a crypt(5) hash, such as \"6 $y$j9T$…\"", status: .usage)
        }
        guard Self.lengths.contains(n) else {
            throw UserError("expected a PIN of 4 to 12 digits, got \(n)", status: .usage)
        }
        let hash = String(fields[1])
        if hash.hasPrefix("$1$") || !hash.hasPrefix("$") {
            throw UserError("holds a DES or MD5 hash, which is too weak; make a new one with slidegate --set-pin", status: .usage)
        }
        guard Self.schemes.contains(where: hash.hasPrefix) else {
            throw UserError("expected a yescrypt ($y$), bcrypt ($2b$) or SHA-512 ($6$) hash", status: .usage)
        }
        guard hash.utf8.allSatisfy({ $0 > 32 && $0 < 127 }), hash.utf8.count >= 20 else {
            throw UserError("holds a malformed hash", status: .usage)
        }
        length = n
        self.hash = hash
    }
}
