/// What the gateway answers an HTTP request with, decided by `RequestGuard`.
enum HTTPDecision: Equatable {
    /// Serve the page's file at this path.
    case serve(path: String)
    /// The token was good: set this session cookie and redirect to `/` (the URL without it).
    case redirect(setCookie: String)
    /// Refuse with this status and a one-line reason.
    case refuse(status: UInt32, reason: String)
    /// Accept the WebSocket upgrade.
    case upgrade
}
