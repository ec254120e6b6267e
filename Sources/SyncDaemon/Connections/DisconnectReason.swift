import CUV

/// Why a connection ended. The case chooses how loudly it is logged: a client leaving, a refusal
/// the server already explained in its own line, or the daemon stopping are `debug`; a failure
/// of the socket or a client too slow to read its replies is a `warning`.
enum DisconnectReason: Equatable, Sendable {
    /// The client finished sending and everything it asked for was answered.
    case endOfInput
    /// The client closed its socket while replies were on their way (EPIPE, ECONNRESET): a
    /// one-shot `todo list` does, once it has its model. The libuv error code.
    case clientWentAway(code: Int32)
    /// Reading the socket failed otherwise, with this libuv error code.
    case readFailed(code: Int32)
    /// Writing the socket failed otherwise, with this libuv error code.
    case writeFailed(code: Int32)
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

    /// The reason `status` of a failed `operation` (a read or a write) ends a connection.
    static func failure(of operation: Operation, status: Int32) -> DisconnectReason {
        if status == UV_EPIPE.rawValue || status == UV_ECONNRESET.rawValue { return .clientWentAway(code: status) }
        switch operation {
        case .read: return .readFailed(code: status)
        case .write: return .writeFailed(code: status)
        }
    }

    /// The socket operations whose failure ends a connection.
    enum Operation {
        /// `uv_read_start` or a read callback.
        case read
        /// `uv_write` or a write callback.
        case write
    }

    /// How loudly the disconnection is logged.
    var logLevel: Logger.Level {
        switch self {
        case .readFailed, .writeFailed, .slowConsumer: .warning
        case .endOfInput, .clientWentAway, .peerRefused, .handshakeRefused, .framingBroken, .shutdown, .byeNotRead,
            .uncertainCommit, .loopEnded:
            .debug
        }
    }

    /// The words after "disconnected: " in the log line.
    var logText: String {
        switch self {
        case .endOfInput: "client closed the connection"
        case .clientWentAway(let code): "client went away (\(Self.name(code)))"
        case .readFailed(let code): "read failed: \(Self.name(code))"
        case .writeFailed(let code): "write failed: \(Self.name(code))"
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

    private static func name(_ code: Int32) -> String { String(cString: uv_err_name(code)) }
}
