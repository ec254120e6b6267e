/// The headers every answer of the gateway carries: no script but the page's own files, no
/// framing, no sniffing, no referrer, no caching of what needs a session.
enum SecurityHeaders {
    /// Names (with their colon) and values, in order.
    static let all: [(name: String, value: String)] = [
        ("content-security-policy:", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
        ("x-content-type-options:", "nosniff"),
        ("referrer-policy:", "no-referrer"),
        ("cache-control:", "no-store"),
        ("x-frame-options:", "DENY"),
    ]
}
