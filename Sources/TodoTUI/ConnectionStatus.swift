import SyncClient

/// The connection to the daemon as the status line shows it.
///
/// It mirrors the connection states SyncClient is to report (connected at a version,
/// reconnecting, closed), so feeding it from them is a one-line mapping
/// (`TodoStore.connectionStatuses(of:)`).
public enum ConnectionStatus: Equatable, Sendable {
    /// Not yet heard from.
    case connecting
    /// Connected; the daemon's state was at `version` when last heard.
    case connected(version: UInt64)
    /// Lost, trying again (`attempt` from 1) after `reason`.
    case reconnecting(attempt: Int, reason: String)
    /// Lost for good, for `reason`.
    case disconnected(reason: String)

    /// Why a client failure ended the connection, in a few words.
    static func reason(for error: any Error) -> String {
        switch error as? SyncClientError {
        case .connectionClosed(let reason): return reason
        case .some(let error): return error.description
        case nil: return String(describing: error)
        }
    }
}
