/// The gateway's access rules, decided without I/O: the `Host` must name the gateway (against
/// DNS rebinding), the one-time token is exchanged once for an HttpOnly, SameSite=Strict
/// cookie, every other request needs that cookie, and a WebSocket upgrade must come from the
/// page's own origin.
struct RequestGuard {
    /// `Host` values that name this gateway (`127.0.0.1:8765`, `localhost:8765`, a proxy's).
    let hosts: Set<String>
    /// Origins the page is served from.
    let origins: Set<String>
    /// The cookie's name: per port, since browsers share cookies between a host's ports.
    let cookieName: String
    /// Whether the page is reached over TLS (a public `https` origin): the cookie is then `Secure`.
    let isSecure: Bool
    /// The token and the sessions.
    var keys = AccessKeys()

    /// The rules for a gateway listening on `address`, also reachable through `publicOrigins`.
    init(address: ListenAddress, publicOrigins: [String]) {
        var hosts: Set<String> = ["\(address.host):\(address.port)"]
        if address.isLoopback { hosts.insert("localhost:\(address.port)") }
        var origins = Set(hosts.map { "http://\($0)" })
        var isSecure = false
        for reached in publicOrigins.compactMap(Self.origin) {
            origins.insert(reached.origin)
            hosts.insert(reached.host)
            isSecure = isSecure || reached.isSecure
        }
        self.hosts = hosts
        self.origins = origins
        self.isSecure = isSecure
        cookieName = "sync_session_\(address.port)"
    }

    /// `text` as a browser writes an origin (`https://todo.example.org`: lowercase, no default
    /// port, no path) and the `Host` it goes with; `nil` for anything but `scheme://host[:port]`.
    static func origin(_ text: String) -> (origin: String, host: String, isSecure: Bool)? {
        let lowered = text.lowercased()
        for (scheme, defaultPort) in [("http://", ":80"), ("https://", ":443")] where lowered.hasPrefix(scheme) {
            var host = lowered.dropFirst(scheme.count)
            if host.hasSuffix("/") { host = host.dropLast() }
            guard !host.isEmpty, !host.contains(where: { "/?#@ ".contains($0) }) else { return nil }
            if host.hasSuffix(defaultPort) { host = host.dropLast(defaultPort.count) }
            return (scheme + host, String(host), scheme == "https://")
        }
        return nil
    }

    /// The answer to a plain HTTP request.
    mutating func decide(_ request: HTTPRequestFacts) -> HTTPDecision {
        if let refusal = hostRefusal(request) { return refusal }
        if let token = request.token {
            guard let session = keys.exchange(token) else {
                return .refuse(status: 401, reason: "This link was used already or is not this gateway's.")
            }
            return .redirect(
                setCookie: "\(cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict" + (isSecure ? "; Secure" : ""))
        }
        guard hasSession(request) else {
            return .refuse(status: 401, reason: "Open the link the gateway printed to sign in.")
        }
        return .serve(path: request.path)
    }

    /// The answer to a WebSocket upgrade.
    func decideUpgrade(_ request: HTTPRequestFacts) -> HTTPDecision {
        if let refusal = hostRefusal(request) { return refusal }
        guard let origin = request.origin, origins.contains(origin) else {
            return .refuse(status: 403, reason: "The upgrade does not come from the page's own origin.")
        }
        guard hasSession(request) else { return .refuse(status: 401, reason: "No session cookie.") }
        return .upgrade
    }

    private func hostRefusal(_ request: HTTPRequestFacts) -> HTTPDecision? {
        guard let host = request.host, hosts.contains(host.lowercased()) else {
            return .refuse(status: 421, reason: "The Host header does not name this gateway.")
        }
        return nil
    }

    private func hasSession(_ request: HTTPRequestFacts) -> Bool {
        guard let cookie = request.cookie else { return false }
        for part in cookie.split(separator: ";") {
            let pair = part.trimmingPrefix(" ")
            guard let equals = pair.firstIndex(of: "="), pair[..<equals] == cookieName else { continue }
            if keys.isSession(String(pair[pair.index(after: equals)...])) { return true }
        }
        return false
    }
}
