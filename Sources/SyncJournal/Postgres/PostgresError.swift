/// Why a call to PostgreSQL failed.
enum PostgresError: Error, CustomStringConvertible {
    /// No connection could be made (refused, no such socket, authentication failed).
    case unreachable(String)
    /// The deadline passed before the call completed; nothing was sent yet.
    case timedOut(String)
    /// The connection broke before the statement was sent.
    case connectionLost(String)
    /// The connection broke or the deadline passed after the statement was sent: it may or may
    /// not have run.
    case lostAfterSending(String)
    /// The server refused the statement, with its SQLSTATE.
    case server(state: String, message: String)

    var description: String {
        switch self {
        case .unreachable(let reason): return "cannot connect: \(reason)"
        case .timedOut(let operation): return "no answer in time while \(operation)"
        case .connectionLost(let reason): return "the connection broke: \(reason)"
        case .lostAfterSending(let reason): return "the connection broke while waiting for an answer: \(reason)"
        case .server(let state, let message): return "\(message) (SQLSTATE \(state))"
        }
    }
}
