/// Where a client's connection to the daemon stands, for fronts to show ("reconnecting…"): the
/// published view of its `ConnectionState.Machine`.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// Connected and handshaken; `version` is the state version the daemon reported in `welcome`.
    case connected(version: UInt64)
    /// The connection was lost for `reason`; attempt `attempt` (from 1) to make a new one is
    /// due or running. Requests and subscriptions wait and resume once connected again.
    case reconnecting(attempt: Int, reason: SyncClientError)
    /// The client is closed for good for `reason`: `close()` (`.connectionClosed(.closedByClient)`),
    /// a fatal error (a refusal, a protocol violation), or the reconnect policy gave up.
    case closed(reason: SyncClientError)

    /// One line for users.
    public var description: String {
        switch self {
        case .connected(let version): return "connected (version \(version))"
        case .reconnecting(let attempt, let reason): return "reconnecting… (attempt \(attempt): \(reason))"
        case .closed(let reason): return "disconnected: \(reason)"
        }
    }
}
