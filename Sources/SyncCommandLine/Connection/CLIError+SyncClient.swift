import CommandLineKit
import SyncClient
import SyncStore

extension CLIError {
    /// The exit-code error a client failure of `identity`'s client stands for: a refusal by
    /// the daemon exits 1; a daemon that cannot be reached, started, understood or is another
    /// app's (`wrongApp`) exits 3.
    public init(_ error: SyncClientError, of identity: AppIdentity) {
        let daemon = identity.daemonName
        switch error {
        case .daemonUnreachable(let path, let reason):
            self = .unreachable(
                "cannot reach \(daemon) at \(path) (\(reason)); start it with `\(daemon) --socket \(path)`, or let \(identity.name) start it (drop --no-autostart / \(identity.noAutostartVariable))"
            )
        case .daemonNotStarted(let path, let reason):
            self = .unreachable("cannot start \(daemon) at \(path): \(reason)")
        case .connectionClosed, .unsupportedProtocol, .wrongApp:
            self = .unreachable(error.description)
        case .server, .protocolViolation:
            self = .rejected(error.description)
        }
    }
}
