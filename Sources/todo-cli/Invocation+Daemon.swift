import CommandLineKit
import SyncClient
import TodoDomain

/// What every `todo` command gets from its invocation: how to reach the daemon.
extension Invocation {
    /// The `--socket` option, if given.
    var socketOption: String? { value(of: "--socket") }
    /// Whether a missing daemon may be started (see `DaemonAutostart`).
    var mayStartDaemon: Bool { !isSet("--no-autostart") && !DaemonAutostart.isForbidden(for: TodoApp.identity) }

    /// How long a one-shot command waits for a daemon that went away mid-command (a restart)
    /// before it gives up.
    static let oneShotPatience = ReconnectPolicy.giveUp(after: .seconds(10))

    /// Connects to the daemon, starting it first if nothing answers and that is allowed.
    func connect(reconnect: ReconnectPolicy = oneShotPatience) async throws(CLIError) -> SyncClient {
        let autostart = DaemonAutostart { pid, path in Output.error("started todod (pid \(pid)) on \(path)") }
        do {
            return try await SyncClient.connect(
                to: TodoApp.identity, socketPath: socketOption, autostart: mayStartDaemon ? autostart : nil,
                reconnect: reconnect)
        } catch {
            throw CLIError(error)
        }
    }

    /// Runs `body` against the daemon, turning client errors into exit-code errors.
    func withClient<T>(
        reconnect: ReconnectPolicy = oneShotPatience, _ body: (SyncClient) async throws(SyncClientError) -> T
    ) async throws(CLIError) -> T {
        let client = try await connect(reconnect: reconnect)
        defer { client.close() }
        do {
            return try await body(client)
        } catch {
            throw CLIError(error)
        }
    }
}
