/// `--show-media`: the MPRIS players on the session bus, from their Player interface's
/// properties, and which one the lock shows: the one playing (of several, the one that
/// changed last), else the one that changed last. Bounded whatever the bus sends.
package struct MediaPlayers: Equatable, Sendable {
    /// What the lock shows of a player.
    package struct NowPlaying: Equatable, Sendable {
        /// The player's unique bus name, which its controls are sent to.
        package var owner: String
        package var title: String
        package var artist: String
        package var playing: Bool
    }

    private struct Player: Equatable, Sendable {
        var owner: String
        var name: String
        var properties: [String: BusValue] = [:]
        /// When it last changed, as a count of changes.
        var changed: UInt64 = 0
    }

    /// The most players followed; a bus with more (a hostile peer's names) keeps the first.
    package static let limit = 16

    private var players: [Player] = []
    private var changes: UInt64 = 0

    package init() {}

    /// A player appeared: `name` (org.mpris.MediaPlayer2.…) is `owner`'s. False when it
    /// is not followed (too many, or known already).
    @discardableResult
    package mutating func add(owner: String, name: String) -> Bool {
        guard name.hasPrefix(Self.namePrefix), !players.contains(where: { $0.owner == owner }), players.count < Self.limit else { return false }
        players.append(Player(owner: owner, name: name))
        return true
    }

    package static let namePrefix = "org.mpris.MediaPlayer2."

    /// `owner` left the bus, or gave up its player's name.
    package mutating func remove(owner: String) {
        players.removeAll { $0.owner == owner }
    }

    /// Whether `owner` is a player followed (a signal from anyone else is not looked at).
    package func follows(_ owner: String) -> Bool {
        players.contains { $0.owner == owner }
    }

    /// Properties a player said it has (GetAll) or changed (PropertiesChanged).
    package mutating func update(owner: String, _ properties: [String: BusValue]) {
        guard let index = players.firstIndex(where: { $0.owner == owner }) else { return }
        players[index].properties.merge(properties) { $1 }
        changes &+= 1
        players[index].changed = changes
    }

    /// The player shown, if any: one with a title or playing.
    package var current: NowPlaying? {
        let shown = players.compactMap { player -> (NowPlaying, UInt64)? in
            let status = player.properties["PlaybackStatus"]?.text
            let metadata = player.properties["Metadata"]?.dictionary ?? [:]
            let title = metadata["xesam:title"]?.text ?? ""
            guard status != nil || !title.isEmpty else { return nil }
            let artist = (metadata["xesam:artist"]?.texts ?? []).joined(separator: ", ")
            let fallback = String(player.name.dropFirst(Self.namePrefix.count).prefix { $0 != "." })
            return (NowPlaying(
                owner: player.owner, title: title.isEmpty ? fallback : title, artist: artist, playing: status == "Playing"), player.changed)
        }
        let playing = shown.filter { $0.0.playing }
        return (playing.isEmpty ? shown : playing).max { $0.1 < $1.1 }?.0
    }
}
