/// The secrets of one gateway run: the one-time token printed in the URL, and the session
/// values of the cookies it was exchanged for. Confined to the gateway's thread.
struct AccessKeys {
    /// The token the printed URL carries; `nil` once it was used.
    private(set) var token: String?
    /// Session values handed out as cookies.
    private var sessions: Set<String> = []

    /// Keys with a fresh random token.
    init() {
        token = Self.random()
    }

    /// Exchanges `candidate` for a new session value if it is the unused token.
    mutating func exchange(_ candidate: String) -> String? {
        guard let token, Self.constantTimeEqual(candidate, token) else { return nil }
        self.token = nil
        let session = Self.random()
        sessions.insert(session)
        return session
    }

    /// Whether `value` is a session value handed out by `exchange`.
    func isSession(_ value: String) -> Bool {
        sessions.contains(value)
    }

    /// 32 bytes from the system's generator (the kernel's, on Linux), in hex.
    private static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next(), radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// Compares without stopping at the first difference, so timing says nothing of the token.
    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
