extension Gate {
    /// The parts that change as the gate runs: what one process hands another so that both
    /// gates go on alike.
    package struct Snapshot: Equatable, Sendable {
        package var slide: Slide.Phase
        package var verification: Verification.State
        package var entry: PasswordEntry
        package var limiter: AttemptLimiter
        package var banners: BannerQueue
        package var capsLock: Bool
        package var keyboardLayout: String?
        package var wheels: Wheels?
        package var pinLimiter: AttemptLimiter
        package var checkingPin: Bool
        package var heldMatch: HeldMatch?
        package var awaitingSince: Double?
        package var methodLimiter: AttemptLimiter

        package init(
            slide: Slide.Phase, verification: Verification.State, entry: PasswordEntry = PasswordEntry(),
            limiter: AttemptLimiter = AttemptLimiter(), banners: BannerQueue = BannerQueue(), capsLock: Bool = false,
            wheels: Wheels? = nil, pinLimiter: AttemptLimiter = AttemptLimiter(schedule: .pin), checkingPin: Bool = false,
            heldMatch: HeldMatch? = nil, awaitingSince: Double? = nil, methodLimiter: AttemptLimiter = AttemptLimiter(),
            keyboardLayout: String? = nil
        ) {
            self.keyboardLayout = keyboardLayout
            self.heldMatch = heldMatch
            self.awaitingSince = awaitingSince
            self.methodLimiter = methodLimiter
            self.slide = slide
            self.verification = verification
            self.entry = entry
            self.limiter = limiter
            self.banners = banners
            self.capsLock = capsLock
            self.wheels = wheels
            self.pinLimiter = pinLimiter
            self.checkingPin = checkingPin
        }
    }
}
