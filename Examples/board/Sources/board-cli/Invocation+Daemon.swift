import BoardDomain
import CommandLineKit
import SyncClient

/// What every `board` command gets from its invocation: how to reach boardd.
extension Invocation {
    /// Whether a missing daemon may be started (see `DaemonAutostart`).
    var mayStartDaemon: Bool { !isSet("--no-autostart") && !DaemonAutostart.isForbidden(for: BoardApp.identity) }

    /// How long a one-shot command waits for a daemon that went away mid-command (a restart)
    /// before it gives up.
    static let oneShotPatience = ReconnectPolicy.giveUp(after: .seconds(10))

    /// Connects to boardd, starting it first (beside this program) if nothing answers and that
    /// is allowed; a daemon it starts is announced on standard error with its pid.
    func connect(reconnect: ReconnectPolicy = oneShotPatience) async throws(CLIError) -> SyncClient {
        let autostart = DaemonAutostart { pid, path in
            BoardCLI.tool.printError("started boardd (pid \(pid)) on \(path)")
        }
        do {
            return try await SyncClient.connect(
                to: BoardApp.identity, socketPath: value(of: "--socket"), autostart: mayStartDaemon ? autostart : nil,
                reconnect: reconnect)
        } catch {
            throw CLIError(error)
        }
    }

    /// Runs `body` against boardd, turning client errors into exit-code errors; `body` may
    /// throw a `CLIError` of its own too.
    func withClient<T>(_ body: (SyncClient) async throws -> T) async throws(CLIError) -> T {
        let client = try await connect()
        defer { client.close() }
        do {
            return try await body(client)
        } catch let error as CLIError {
            throw error
        } catch let error as SyncClientError {
            throw CLIError(error)
        } catch {
            throw .rejected(String(describing: error))
        }
    }
}
