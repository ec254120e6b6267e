/// The connection state as a status line shows it.
///
/// It mirrors `SyncClient`'s `ConnectionState` (connected at a version, reconnecting,
/// closed), with a state before the first is heard; `SyncClient.connectionStateFeed()` feeds it.
public enum DisplayedConnectionState: Equatable, Sendable {
    /// Not yet heard from.
    case connecting
    /// Connected; the daemon's state was at `version` when last heard.
    case connected(version: UInt64)
    /// Lost, trying again (`attempt` from 1) after `reason`.
    case reconnecting(attempt: Int, reason: String)
    /// Lost for good, for `reason`.
    case disconnected(reason: String)
}

extension DisplayedConnectionState {
    /// The state as a status line says it: `connecting...`, `connected v12`,
    /// `reconnecting... (attempt 2: connection refused)`, `disconnected: …`.
    public var text: String {
        switch self {
        case .connecting: "connecting..."
        case .connected(let version): "connected v\(version)"
        case .reconnecting(let attempt, let reason): "reconnecting... (attempt \(attempt): \(reason))"
        case .disconnected(let reason): "disconnected: \(reason)"
        }
    }

    /// The text when something is wrong with the connection (reconnecting, disconnected);
    /// `nil` while connecting or connected.
    public var problem: String? {
        switch self {
        case .connecting, .connected: nil
        case .reconnecting, .disconnected: text
        }
    }
}
