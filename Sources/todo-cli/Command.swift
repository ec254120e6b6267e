import SyncClient
import TodoDomain

/// One `todo` command, declared as data: `--help` and the command table come from these fields.
struct Command: Sendable {
    /// The word that selects the command.
    let name: String
    /// Arguments after the name, as shown in usage lines.
    let arguments: String
    /// One line for the command table.
    let summary: String
    /// More lines for `todo NAME --help` (may be empty).
    let details: String
    /// Runs the command with its arguments (the words after its name, `--help` already handled).
    let run: @Sendable (CommandContext, [String]) async throws(CLIError) -> Void

    /// `todo NAME ARGUMENTS`.
    var usage: String { "todo [--socket PATH] \(name)" + (arguments.isEmpty ? "" : " \(arguments)") }

    /// The text `todo NAME --help` prints.
    var help: String {
        "usage: \(usage)\n\n\(summary)\n" + (details.isEmpty ? "" : "\n\(details)\n")
    }
}

/// What every command gets: how to reach the daemon.
struct CommandContext: Sendable {
    /// The `--socket` option, if given.
    let socketOption: String?
    /// Whether a missing daemon may be started (see `DaemonAutostart`).
    let mayStartDaemon: Bool

    /// How long a one-shot command waits for a daemon that went away mid-command (a restart)
    /// before it gives up.
    static let oneShotPatience = ReconnectPolicy.giveUp(after: .seconds(10))

    /// Connects to the daemon, starting it first if nothing answers and that is allowed.
    func connect(reconnect: ReconnectPolicy = oneShotPatience) async throws(CLIError) -> SyncClient {
        let autostart = DaemonAutostart { pid, path in Output.error("started todod (pid \(pid)) on \(path)") }
        do {
            return try await SyncClient.connect(
                to: TodoApp.identity, socketPath: socketOption, autostart: mayStartDaemon ? autostart : nil, reconnect: reconnect)
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
