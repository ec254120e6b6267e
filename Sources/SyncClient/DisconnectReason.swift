import Glibc

/// Why a client's connection to the daemon ended, as far as the connection itself can tell.
///
/// The daemon's refusals (an error code), a protocol this client cannot follow, an unreachable
/// socket and a daemon that could not be started are `SyncClientError`'s other cases; this type
/// is the payload of `SyncClientError.connectionClosed`.
public indirect enum DisconnectReason: Sendable, Equatable, CustomStringConvertible {
    /// `SyncClient.close()` was called (or the client and its streams were all released).
    case closedByClient
    /// The daemon closed the connection without saying why.
    case daemonClosed
    /// The daemon said `bye` (it is stopping), with the reason it gave.
    case daemonSaidBye(reason: String?)
    /// Nothing arrived before the deadline (a handshake's `welcome`).
    case timedOut
    /// Reading from the socket failed with `errno`.
    case readFailed(errno: Int32)
    /// Writing to the socket failed with `errno`.
    case writeFailed(errno: Int32)
    /// A new connection ended before the daemon's `welcome`, for `reason`.
    case noWelcome(DisconnectReason)
    /// The reconnect policy's time ran out after `limit`; `last` is why the last attempt failed.
    case gaveUp(after: Duration, last: SyncClientError)
    /// The client could not start its connection thread, or make the socket pair that wakes it:
    /// this process is out of threads or file descriptors.
    case threadNotStarted
    /// A subscription ended without an error before the caller had what it waited for.
    case subscriptionEnded

    /// One line for users.
    public var description: String {
        switch self {
        case .closedByClient: return "closed by the client"
        case .daemonClosed: return "the daemon closed the connection"
        case .daemonSaidBye(let reason): return "the daemon said bye: \(reason ?? "no reason given")"
        case .timedOut: return "timed out waiting for data"
        case .readFailed(let code): return "reading failed: \(String(cString: strerror(code)))"
        case .writeFailed(let code): return "writing failed: \(String(cString: strerror(code)))"
        case .noWelcome(let reason): return "no welcome from the daemon (\(reason))"
        case .gaveUp(let limit, let last): return "gave up reconnecting after \(limit): \(last)"
        case .threadNotStarted: return "cannot start the connection thread"
        case .subscriptionEnded: return "the daemon ended the subscription"
        }
    }
}
