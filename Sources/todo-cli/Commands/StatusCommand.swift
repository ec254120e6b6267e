import CommandLineKit
import SyncCommandLine
import SyncProtocol
import TodoDomain

extension Command {
    /// `todo status`
    static let status = Command(
        name: "status", arguments: "", summary: "Show the daemon's name, protocol, state version, socket and log.",
        details:
            "The log is the daemon's SQLite file, or the PostgreSQL database it shares with the daemons of other hosts: then also whether that database is reachable, and since when not.",
        run: { context, arguments throws(CLIError) in
            guard arguments.isEmpty else { throw .usage("status takes no arguments") }
            let client = try await context.connect(to: TodoApp.self)
            defer { client.close() }
            Output.out(
                """
                server: \(client.server.name)
                protocol: \(client.server.protocolVersion)
                version: \(client.server.version)
                socket: \(client.socketPath)

                """)
            if let log = client.server.log { Output.out(Self.describe(log)) }
        })
}

extension Command {
    /// The `log:` lines of `todo status`.
    static func describe(_ log: LogStatus) -> String {
        var lines = [
            "log: \(log.location)\(log.kind == "postgres" ? " (shared with other hosts)" : "")",
            "log head: \(log.head)",
        ]
        if let reachable = log.reachable {
            if reachable {
                lines.append("database: reachable")
            } else {
                let since = log.unreachableSince.map { " since \(HistoryRendering.localTime($0))" } ?? ""
                lines.append("database: unreachable\(since)\(log.problem.map { " (\($0))" } ?? "")")
            }
        }
        if let refusal = log.refusingWrites { lines.append("refusing changes: \(refusal)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
