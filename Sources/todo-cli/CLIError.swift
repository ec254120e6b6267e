import SyncClient

/// A failure that ends the program: one line on standard error and an exit code.
enum CLIError: Error {
    /// The command line is wrong (exit 2). The text says what, and usage follows.
    case usage(String)
    /// The daemon refused the request (exit 1).
    case rejected(String)
    /// The daemon could not be reached or went away (exit 3).
    case unreachable(String)
    /// The command cannot run here, for example without a terminal (exit 2, no usage hint).
    case environment(String)

    /// The error a client failure stands for.
    init(_ error: SyncClientError) {
        switch error {
        case .daemonUnreachable(let path, let reason):
            self = .unreachable("cannot reach todod at \(path) (\(reason)); start it with `todod --socket \(path)`, or let todo start it (drop --no-autostart / TODO_NO_AUTOSTART)")
        case .daemonNotStarted(let path, let reason):
            self = .unreachable("cannot start todod at \(path): \(reason)")
        case .connectionClosed, .unsupportedProtocol:
            self = .unreachable(error.description)
        case .server, .protocolViolation:
            self = .rejected(error.description)
        }
    }

    /// The process exit code.
    var exitCode: Int32 {
        switch self {
        case .rejected: return 1
        case .usage, .environment: return 2
        case .unreachable: return 3
        }
    }

    /// The line printed after `todo: `.
    var message: String {
        switch self {
        case .usage(let text), .rejected(let text), .unreachable(let text), .environment(let text): return text
        }
    }
}
