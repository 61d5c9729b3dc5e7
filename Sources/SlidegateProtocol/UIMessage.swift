import SlidegateCore

/// What the UI tells the guard.
package enum UIMessage: Framed, Equatable, Sendable {
    case hello(protocol: UInt32, build: String)
    case drawn
    case pong(UInt32)
    case lent(SliderParts)
    case notLent
    case controls([LockControl])
}

extension UIMessage {
    /// The byte that names a message's kind on the wire, and the kind's fields in order.
    package enum Kind: UInt8, CaseIterable, Sendable {
        /// u32 protocol, string build.
        case hello = 1
        /// The UI has put a whole frame in the slider window, or is ready to and waits for a
        /// blank screen to come back.
        case drawn = 9
        /// u32 sequence.
        case pong
        /// The answer to `lend` (`SliderParts`): u64 the track's pixmap (the background and
        /// the track, the slider's size), u64 the thumb's pixmap (its glyph included), u8 has
        /// label, [u64 the label's pixmap, f64 x, f64 y (whole pixels, in the window, at most
        /// 16384 from its corner), u32 width, u32 height (each at most 16384), f64 the
        /// foreground's alpha, f64 the emphasis' factor (both from 0 to 1)]: pixmaps of
        /// depth 32 holding premultiplied ARGB, already on the server. From here until
        /// `giveBack` the UI paints nothing in the slider window.
        case lent
        /// The answer to `lend` when the slider shows more than a drag changes (a prompt, a
        /// busy thumb, a sweep) or the server has no 32-bit pixmaps.
        case notLent
        /// u32 a mask of `LockControl.bit`s: the controls the UI shows now (a player is
        /// there, logind offers an action); the guard hit-tests only these.
        case controls
    }

    /// The kind this message goes out as.
    package var kind: Kind {
        switch self {
        case .hello: .hello
        case .drawn: .drawn
        case .pong: .pong
        case .lent: .lent
        case .notLent: .notLent
        case .controls: .controls
        }
    }
}

/// The slider's parts the UI lends the guard for a drag, as pixmaps on the server (depth
/// 32, premultiplied ARGB): a frame is the track, the label over it at the alpha the thumb's
/// place gives, and the thumb at its place.
package struct SliderParts: Equatable, Sendable {
    package struct Label: Equatable, Sendable {
        package var pixmap: UInt64
        /// Where the pixmap's top-left corner is in the window (whole pixels), and its size.
        package var rect: Rect
        /// The label is drawn at `foregroundAlpha × the scene's label alpha × emphasis`, in
        /// that order (the UI's own arithmetic).
        package var foregroundAlpha: Double
        package var emphasis: Double

        package init(pixmap: UInt64, rect: Rect, foregroundAlpha: Double, emphasis: Double) {
            self.pixmap = pixmap
            self.rect = rect
            self.foregroundAlpha = foregroundAlpha
            self.emphasis = emphasis
        }

        /// The alpha the label is drawn at when the scene's label has `alpha`.
        package func alpha(_ alpha: Double) -> Double {
            foregroundAlpha * alpha * emphasis
        }
    }

    package var track: UInt64
    package var thumb: UInt64
    package var label: Label?

    package init(track: UInt64, thumb: UInt64, label: Label?) {
        self.track = track
        self.thumb = thumb
        self.label = label
    }
}

extension UIMessage {
    @discardableResult
    package func appendFrame(to buffer: inout [UInt8]) -> Bool {
        FrameWriter.append(to: &buffer) { w in
            switch self {
            case .hello(let version, let build):
                w.hello(version, build)
            case .drawn, .notLent:
                w.kind(kind)
            case .pong(let sequence):
                w.kind(kind)
                w.u32(sequence)
            case .lent(let parts):
                w.kind(kind)
                parts.write(to: &w)
            case .controls(let shown):
                w.kind(kind)
                w.u32(UInt32(truncatingIfNeeded: LockControl.mask(shown)))
            }
        }
    }

    package init(body: ArraySlice<UInt8>) throws(ProtocolError) {
        var r = FrameReader(body)
        let byte = try r.u8()
        guard let kind = Kind(rawValue: byte) else { throw ProtocolError("unknown message kind \(byte)") }
        switch kind {
        case .hello: self = .hello(protocol: try r.u32(), build: try r.string())
        case .drawn: self = .drawn
        case .pong: self = .pong(try r.u32())
        case .lent: self = .lent(try SliderParts(reading: &r))
        case .notLent: self = .notLent
        case .controls:
            let mask = try r.u32()
            guard mask < 1 << LockControl.all.count else { throw ProtocolError("controls: unknown controls in \(mask)") }
            self = .controls(LockControl.controls(UInt16(truncatingIfNeeded: mask)))
        }
        try r.end()
    }
}
