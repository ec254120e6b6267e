import CommandLineKit
import SyncClient

extension CLIError {
    /// The error a client failure stands for.
    init(_ error: SyncClientError) {
        switch error {
        case .daemonUnreachable(let path, let reason):
            self = .unreachable(
                "cannot reach todod at \(path) (\(reason)); start it with `todod --socket \(path)`, or let todo start it (drop --no-autostart / TODO_NO_AUTOSTART)"
            )
        case .daemonNotStarted(let path, let reason):
            self = .unreachable("cannot start todod at \(path): \(reason)")
        case .connectionClosed, .unsupportedProtocol, .wrongApp:
            self = .unreachable(error.description)
        case .server, .protocolViolation:
            self = .rejected(error.description)
        }
    }
}
