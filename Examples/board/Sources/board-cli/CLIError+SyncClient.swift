import CommandLineKit
import SyncClient

extension CLIError {
    /// The error a client failure stands for.
    init(_ error: SyncClientError) {
        switch error {
        case .daemonUnreachable(let path, let reason):
            self = .unreachable(
                "cannot reach boardd at \(path) (\(reason)); start it with `boardd --socket \(path)`, or let board start it (drop --no-autostart / BOARD_NO_AUTOSTART)"
            )
        case .daemonNotStarted(let path, let reason):
            self = .unreachable("cannot start boardd at \(path): \(reason)")
        case .connectionClosed, .unsupportedProtocol, .wrongApp:
            self = .unreachable(error.description)
        case .server, .protocolViolation:
            self = .rejected(error.description)
        }
    }
}
