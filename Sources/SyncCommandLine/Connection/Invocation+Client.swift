import CommandLineKit
import SyncClient
import SyncStore

/// What every command of an app's client gets from its invocation: how to reach the daemon,
/// from the standard options (`ClientOptions`) and `App.identity`.
extension Invocation {
    /// Whether a missing daemon of `identity` may be started: not with `--no-autostart`, nor
    /// when the environment forbids it (see `DaemonAutostart`).
    public func mayStartDaemon(of identity: AppIdentity) -> Bool {
        !isSet(ClientOptions.noAutostart) && !DaemonAutostart.isForbidden(for: identity)
    }

    /// Connects to `App`'s daemon at `--socket` (else where the identity says), starting it
    /// first (beside this program) when nothing answers and that is allowed; a daemon it starts
    /// is announced on standard error with its pid.
    public func connect<App: SyncApp>(
        to app: App.Type, reconnect: ReconnectPolicy = .oneShot
    ) async throws(CLIError) -> SyncClient {
        let identity = App.identity
        let tool = self.tool
        let autostart = DaemonAutostart { pid, path in
            tool.printError("started \(identity.daemonName) (pid \(pid)) on \(path)")
        }
        do {
            return try await SyncClient.connect(
                to: identity, socketPath: value(of: ClientOptions.socket),
                autostart: mayStartDaemon(of: identity) ? autostart : nil, reconnect: reconnect)
        } catch {
            throw CLIError(error, of: identity)
        }
    }

    /// Runs `body` against `App`'s daemon and closes the client: a `SyncClientError` becomes
    /// its exit-code error, a `CLIError` of `body`'s own passes through, anything else is a
    /// refusal (exit 1). `body` runs on the client's connection thread (`SyncClient.executor`),
    /// so that each reply resumes it without waking another thread.
    public func withClient<App: SyncApp, T, Failure: Error>(
        _ app: App.Type, reconnect: ReconnectPolicy = .oneShot, _ body: (SyncClient) async throws(Failure) -> T
    ) async throws(CLIError) -> T {
        let client = try await connect(to: app, reconnect: reconnect)
        defer { client.close() }
        do {
            return try await withTaskExecutorPreference(client.executor) { () async throws(Failure) -> T in
                try await body(client)
            }
        } catch {
            switch error {
            case let error as CLIError: throw error
            case let error as SyncClientError: throw CLIError(error, of: App.identity)
            default: throw .rejected(String(describing: error))
            }
        }
    }
}
