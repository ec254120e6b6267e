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
