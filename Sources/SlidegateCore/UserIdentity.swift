/// `--show-user`: who is locked, as the lock screen names them, and where their picture
/// is. Pure: the drawing program reads the passwd entry and the files.
package enum UserIdentity {
    /// AccountsService's per-user settings and its icons, by login.
    package static let accountsServiceUsers = "/var/lib/AccountsService/users/"
    package static let accountsServiceIcons = "/var/lib/AccountsService/icons/"

    /// The passwd entry's full name (the GECOS field up to its first comma), else the login.
    package static func displayName(gecos: String, login: String) -> String {
        let full = gecos.prefix { $0 != "," }.trimmingSpaces
        return full.isEmpty ? login : full
    }

    /// The `Icon=` of the `[User]` group of an AccountsService user file, if it names an
    /// absolute path.
    package static func icon(inAccountsServiceFile text: String) -> String? {
        var inUser = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.trimmingSpaces
            if line.hasPrefix("[") {
                inUser = line == "[User]"
            } else if inUser, line.hasPrefix("Icon=") {
                let path = String(line.dropFirst("Icon=".count))
                return path.hasPrefix("/") ? path : nil
            }
        }
        return nil
    }

    /// Where to look for the picture, in order: the icon AccountsService's file names, its
    /// icon by login, then `~/.face`.
    package static func pictureCandidates(login: String, home: String, accountsServiceFile: String?) -> [String] {
        var candidates: [String] = []
        if let named = accountsServiceFile.flatMap(icon(inAccountsServiceFile:)) { candidates.append(named) }
        candidates.append(accountsServiceIcons + login)
        if !home.isEmpty { candidates.append((home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.face") }
        return candidates
    }

    /// The first character of the name, for a picture-less circle.
    package static func initial(of name: String) -> String {
        name.first.map { String($0).uppercased() } ?? "?"
    }
}
