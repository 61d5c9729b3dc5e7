/// One way to open the gate once the slide completes; `--auth` lists any of them.
package enum AuthMethod: String, CaseIterable, Equatable, Sendable {
    /// The user's password, checked by PAM (in slidegate-auth).
    case pam
    /// The PIN set on the wheels, checked against the PIN file (in slidegate-auth).
    case pin
    /// A finger on the reader: a PAM service that needs no typing (pam_fprintd).
    case fingerprint
    /// A security key: a PAM service that needs no typing (pam_u2f).
    case key

    /// What the method is, in a few words (for `--auth`'s error message).
    package var brief: String {
        switch self {
        case .pam: "the user's password"
        case .pin: "the PIN wheels"
        case .fingerprint: "a fingerprint"
        case .key: "a security key"
        }
    }

    /// What the method is, for `--help`.
    package var explained: String {
        switch self {
        case .pam: "the user's password, checked by PAM"
        case .pin: "the PIN set on the wheels"
        case .fingerprint: "a finger on the reader"
        case .key: "a security key; both need no typing"
        }
    }

    /// Whether the method needs nothing typed or set: it runs by itself from the moment the
    /// lock is up, in a helper of its own.
    package var isPassive: Bool {
        switch self {
        case .pam, .pin: false
        case .fingerprint, .key: true
        }
    }

    /// The PAM service the method runs: the option that names another one, and the one it
    /// runs by default, a file in /etc/pam.d that the package installs from packaging/pam.d.
    /// Nil for the PIN, which the helper checks itself.
    package var service: (option: String, defaultName: String, summary: String, help: [String])? {
        switch self {
        case .pam: ("pam-service", "slidegate", "the PAM service for --auth pam", ["the PAM service for --auth pam (default slidegate)"])
        case .pin: nil
        case .fingerprint:
            (
                "fingerprint-service", "slidegate-fingerprint", "the PAM service for fingerprint in --auth",
                ["the PAM service for fingerprint in --auth (default", "slidegate-fingerprint: pam_fprintd)"]
            )
        case .key:
            (
                "key-service", "slidegate-key", "the PAM service for key in --auth",
                ["the PAM service for key in --auth (default slidegate-key: pam_u2f)"]
            )
        }
    }

    /// What the lock says when the method matched before the slide (it stays until the
    /// slide opens the lock); nil for a method that needs something typed or set.
    package func recognised(in strings: Strings) -> String? {
        switch self {
        case .pam, .pin: nil
        case .fingerprint: strings[.fingerprintRecognised]
        case .key: strings[.keyRecognised]
        }
    }

    /// What the thumb waiting at the end asks the person to do for the method; nil for a
    /// method that needs something typed or set.
    package func asking(in strings: Strings) -> String? {
        switch self {
        case .pam, .pin: nil
        case .fingerprint: strings[.placeFinger]
        case .key: strings[.touchKey]
        }
    }

    /// The method's bit in `AuthMethods`, in `allCases` order.
    fileprivate var bit: UInt8 {
        switch self {
        case .pam: 1
        case .pin: 2
        case .fingerprint: 4
        case .key: 8
        }
    }
}

/// What `--auth` asks for: the slide alone (`none`, the empty set), or any of a set of
/// methods, whichever comes first.
package struct AuthMethods: Equatable, Hashable, Sendable {
    /// One bit a method, in `AuthMethod.allCases` order.
    package let rawValue: UInt8

    /// The methods that `rawValue`'s bits name, or nil for a bit that names none.
    package init?(rawValue: UInt8) {
        guard rawValue & ~Self.all.rawValue == 0 else { return nil }
        self.rawValue = rawValue
    }

    package init(_ methods: [AuthMethod]) {
        rawValue = methods.reduce(0) { $0 | $1.bit }
    }

    package static let none = AuthMethods([])
    package static let pam = AuthMethods([.pam])
    package static let pin = AuthMethods([.pin])
    private static let all = AuthMethods(AuthMethod.allCases)

    package func contains(_ method: AuthMethod) -> Bool { rawValue & method.bit != 0 }

    /// The methods, in `AuthMethod.allCases` order.
    package var methods: [AuthMethod] { AuthMethod.allCases.filter(contains) }

    /// The methods that run by themselves (`fingerprint`, `key`).
    package var passive: [AuthMethod] { methods.filter(\.isPassive) }

    /// Whether keys type a password for PAM.
    package var usesPassword: Bool { contains(.pam) }
    package var usesPin: Bool { contains(.pin) }
    /// Whether keys turn the wheels (the PIN without a password to type).
    package var keysTurnWheels: Bool { usesPin && !usesPassword }

    /// As `--auth` takes it: "none", or the methods joined by commas.
    package var spelled: String { self == .none ? "none" : methods.map(\.rawValue).joined(separator: ",") }

    /// `--auth`'s value: "none", or a comma list of methods, each once, in any order; nil
    /// for anything else.
    package init?(spelled text: String) {
        if text == "none" {
            self = .none
            return
        }
        var methods: [AuthMethod] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let method = AuthMethod(rawValue: String(word)), !methods.contains(method) else { return nil }
            methods.append(method)
        }
        self.init(methods)
    }
}
