import Glibc
import SlidegateCore
import SlidegateRender
import SlidegateSystem

/// `--show-user`: who runs the lock, read once by the drawing program: the passwd entry's
/// full name (else the login), and the first picture of `UserIdentity.pictureCandidates`
/// that decodes (AccountsService's, else `~/.face`).
enum UserCard {
    /// The name, and the picture with the file it came from (a Cairo image the caller owns), if any.
    static func load() -> (name: String, picture: (image: OpaquePointer, path: String)?) {
        guard let entry = getpwuid(getuid()) else { return ("?", nil) }
        let login = String(cString: entry.pointee.pw_name)
        let name = UserIdentity.displayName(gecos: entry.pointee.pw_gecos.map { String(cString: $0) } ?? "", login: login)
        let home = getenv("HOME").map { String(cString: $0) } ?? String(cString: entry.pointee.pw_dir)
        let settings = try? readTextFile(UserIdentity.accountsServiceUsers + login)
        for path in UserIdentity.pictureCandidates(login: login, home: home, accountsServiceFile: settings)
        where access(path, R_OK) == 0 {
            if let image = try? Wallpaper.picture(path) { return (name, (image, path)) }
        }
        return (name, nil)
    }
}
