import SyncProtocol

/// What can go wrong talking to the daemon.
public enum SyncClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing accepts connections at `path` (no daemon, or a stale socket file).
    case daemonUnreachable(path: String, reason: String)
    /// Nothing answered at `path` and starting the daemon there failed (`DaemonAutostart`).
    case daemonNotStarted(path: String, reason: String)
    /// The daemon answered a request with an error. `code` is the protocol's error code.
    case server(code: String, message: String)
    /// The daemon speaks none of this client's protocol versions.
    case unsupportedProtocol(serverSupports: [Int])
    /// The daemon serves another app than this client's (`wrong_app`); `message` names both
    /// ("this is boardd, serving board; the client is todo").
    case wrongApp(message: String)
    /// The connection ended (daemon stopped, or `close()` was called), for `reason`.
    case connectionClosed(DisconnectReason)
    /// The daemon sent something this client cannot understand.
    case protocolViolation(String)

    /// The protocol error code of a `.server` error, when this client knows it.
    public var code: ErrorCode? {
        if case .server(let code, _) = self { return ErrorCode(rawValue: code) }
        return nil
    }

    /// One line for users.
    public var description: String {
        switch self {
        case .daemonUnreachable(let path, let reason): return "cannot reach the daemon at \(path): \(reason)"
        case .daemonNotStarted(let path, let reason): return "cannot start the daemon at \(path): \(reason)"
        case .server(_, let message), .wrongApp(let message): return message
        case .unsupportedProtocol(let versions):
            return
                "the daemon speaks protocol \(versions.map(String.init).joined(separator: ", ")), this client speaks \(WireProtocol.version)"
        case .connectionClosed(let reason): return "connection to the daemon closed: \(reason)"
        case .protocolViolation(let detail): return "unexpected message from the daemon: \(detail)"
        }
    }
}
