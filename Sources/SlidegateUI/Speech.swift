import CSpeech
import Glibc
import SlidegateCore
import SlidegateSystem

/// `--speak`: announcements through speech-dispatcher, said by a thread of `CSpeech`'s so
/// that a slow or missing server never holds up drawing. Started once the first frame is
/// on the screen, so it costs the lock nothing before. What is said comes from
/// `Announcer`, which never sees what was typed. Owns the descriptor it writes to.
final class Speech {
    private var descriptor: Int32
    private var announcer: Announcer

    /// Nil, silently, when no speech-dispatcher library can be loaded (`--check` says so).
    init?(strings: Strings, locks: Bool) {
        var why = [CChar](repeating: 0, count: 256)
        descriptor = sg_speech_start(Translation.languageCode(), &why, why.count)
        guard descriptor >= 0 else { return nil }
        announcer = Announcer(strings: strings, locks: locks)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Says what changed since the last view.
    func follow(_ view: SpokenView) {
        for utterance in announcer.changes(to: view) { say(utterance) }
    }

    /// One line to the thread; dropped when the pipe is full (a server that stopped reading).
    private func say(_ utterance: Utterance) {
        guard descriptor >= 0 else { return }
        let words = utterance.text.utf8.prefix(1000).map { $0 == 0x0a || $0 == 0x0d ? 0x20 : $0 }
        let line = [utterance.priority.rawValue] + words + [0x0a]
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The lock ends: what is queued is said, waiting at most `patience` seconds for the
    /// thread to hand it to the server.
    func finish(within patience: Double) {
        guard descriptor >= 0 else { return }
        sg_speech_finish(descriptor, Int32(patience * 1000))
        descriptor = -1
    }

    /// For `--check`: whether speech-dispatcher answers.
    static func finding() -> SetupReport.Finding {
        var why = [CChar](repeating: 0, count: 256)
        guard sg_speech_probe(&why, why.count) == 0 else { return .init(.ok, "speech", "speech-dispatcher answers") }
        let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .init(.note, "speech", "\(reason): --speak would be silent")
    }
}
