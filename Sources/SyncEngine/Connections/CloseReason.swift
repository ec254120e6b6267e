/// Why the daemon's side of a connection ended (SyncClient's `DisconnectReason` is the
/// client's side). The case chooses how loudly it is logged: a client leaving, a refusal the
/// server already explained in its own line, or the daemon stopping are `debug`; a failure of
/// the socket or a client too slow to read its replies is a `warning`.
package enum CloseReason: Equatable, Sendable {
    /// The client finished sending and everything it asked for was answered.
    case endOfInput
    /// The client closed its socket while replies were on their way (EPIPE, ECONNRESET): a
    /// one-shot `todo list` does, once it has its model.
    case clientWentAway(SocketError)
    /// Reading the socket failed otherwise.
    case readFailed(SocketError)
    /// Writing the socket failed otherwise.
    case writeFailed(SocketError)
    /// More than `limit` bytes of replies were left unwritten.
    case slowConsumer(limit: Int)
    /// The peer is not allowed by the peer policy (`--allow-uid`, `--allow-group`).
    case peerRefused
    /// The handshake was refused: no `hello` first, an unsupported protocol, an invalid client id.
    case handshakeRefused
    /// The byte stream broke the framing rules (an empty or oversized frame).
    case framingBroken
    /// The daemon is shutting down and the client read its `bye`.
    case shutdown
    /// The daemon is shutting down and the client did not read its `bye` before the deadline.
    case byeNotRead
    /// The daemon stopped at once because a commit may or may not be on disk.
    case uncertainCommit
    /// The connection was still open when the event loop ended (a bug, logged on its own).
    case loopEnded

    /// How loudly the disconnection is logged.
    package var logLevel: LogLevel {
        switch self {
        case .readFailed, .writeFailed, .slowConsumer: .warning
        case .endOfInput, .clientWentAway, .peerRefused, .handshakeRefused, .framingBroken, .shutdown, .byeNotRead,
            .uncertainCommit, .loopEnded:
            .debug
        }
    }

    /// The words after "disconnected: " in the log line.
    package var logText: String {
        switch self {
        case .endOfInput: "client closed the connection"
        case .clientWentAway(let error): "client went away (\(error.name))"
        case .readFailed(let error): "read failed: \(error.name)"
        case .writeFailed(let error): "write failed: \(error.name)"
        case .slowConsumer(let limit): "slow consumer: more than \(limit) bytes of replies unwritten"
        case .peerRefused: "refused: the peer policy does not allow this user"
        case .handshakeRefused: "handshake refused"
        case .framingBroken: "the client broke the framing"
        case .shutdown: "daemon shutting down"
        case .byeNotRead: "did not read its bye in time"
        case .uncertainCommit: "daemon stopping: commit outcome unknown"
        case .loopEnded: "still open when the event loop ended"
        }
    }

}

/// A socket operation's failure: the error code and its name (`EPIPE`).
package struct SocketError: Equatable, Sendable {
    /// The (negative) error code.
    package var code: Int32
    /// The code's name, for log lines.
    package var name: String

    /// The error `code`, named `name`.
    package init(code: Int32, name: String) {
        self.code = code
        self.name = name
    }
}
