/// Everything the renderer needs to paint one frame of the slider.
package struct Scene: Equatable, Sendable {
    package enum Placement: Equatable, Sendable {
        /// Centred over the track right of the resting thumb (the label).
        case afterThumb
        /// Centred over the track left of the thumb at the end (the busy message).
        case beforeEnd
    }

    package enum Emphasis: Equatable, Sendable {
        /// Dim text with the shimmer band centred at the given position (text widths), or
        /// uniformly dim when nil.
        case shimmer(band: Double?)
        /// Text at the full foreground colour.
        case solid
    }

    package struct Label: Equatable, Sendable {
        package var text: String
        package var placement: Placement
        package var emphasis: Emphasis
        /// Multiplies the foreground colour's alpha: 1 shown, 0 invisible.
        package var alpha: Double

        package init(text: String, placement: Placement, emphasis: Emphasis, alpha: Double) {
            self.text = text
            self.placement = placement
            self.emphasis = emphasis
            self.alpha = alpha
        }
    }

    /// The password field that replaces the label while the password stage is open.
    package struct Field: Equatable, Sendable {
        /// PAM's prompt, shown while nothing is typed.
        package var prompt: String
        /// Characters typed: one bullet each.
        package var count: Int
        /// What was typed, for a prompt whose answer may be shown (PAM_PROMPT_ECHO_ON).
        package var echoText: String?
        /// A notice shown in the field instead of the prompt (windowed mode's banners).
        package var notice: String?
        /// How far the field is pushed sideways, in field heights (the refusal's shake).
        package var shake: Double
        /// The keyboard layout's short name ("us", "de"), when the server has more than one.
        package var layout: String?
        /// `--show-failed-attempts`: how many passwords and PINs were refused, when any were.
        package var failedAttempts: Int?

        package init(
            prompt: String, count: Int, echoText: String? = nil, notice: String? = nil, shake: Double = 0, layout: String? = nil
        ) {
            self.layout = layout
            self.prompt = prompt
            self.count = count
            self.echoText = echoText
            self.notice = notice
            self.shake = shake
        }
    }

    /// A banner on screen (lock mode), and how far it has slid in: 0 hidden, 1 fully in.
    package struct BannerView: Equatable, Sendable {
        package var kind: Banner.Kind
        package var text: String
        package var shown: Double

        package init(kind: Banner.Kind, text: String, shown: Double) {
            self.kind = kind
            self.text = text
            self.shown = shown
        }
    }

    /// The PIN wheels (`--auth pin`): each wheel's position in digits (digit d faces the
    /// person at d, d ± 10, …), the wheel keys work on if the keyboard works them, and
    /// whether they take input (not during a PIN delay).
    package struct WheelsView: Equatable, Sendable {
        package var positions: [Double]
        package var focus: Int?
        package var enabled: Bool

        package init(positions: [Double], focus: Int?, enabled: Bool) {
            self.positions = positions
            self.focus = focus
            self.enabled = enabled
        }
    }

    /// 0 with the thumb at the start, 1 at the end.
    package var thumbValue: Double
    /// The text on the track, or nil for none.
    package var label: Label?
    /// True while the unlock command runs or PAM checks an answer.
    package var busy: Bool
    /// The password field, while the password stage is open; the thumb shows a lock.
    package var field: Field?
    /// The banner, in lock mode, where banners slide in from the top of the screen.
    package var banner: BannerView?
    package var wheels: WheelsView?

    package init(thumbValue: Double, label: Label?, busy: Bool, field: Field? = nil, banner: BannerView? = nil) {
        self.thumbValue = thumbValue
        self.label = label
        self.busy = busy
        self.field = field
        self.banner = banner
        wheels = nil
    }
}
