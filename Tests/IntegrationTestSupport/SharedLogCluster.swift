import Foundation
import Glibc
import TestSupport

/// Several real `todod` on one private PostgreSQL, as several hosts would run them: each with
/// its own socket and data directory, all appending to the same shared log. `close()` (in a
/// `defer`) stops every daemon and the database; the harnesses kill what is left by PID.
final class SharedLogCluster: @unchecked Sendable {
    let postgres: PrivatePostgres
    private(set) var daemons: [DaemonHarness] = []

    /// A database and `count` daemons on it, each started with `arguments`.
    init(
        daemons count: Int, arguments: [String] = [], postgresSettings: [String: String] = [:],
        trustedNetwork: String? = nil
    ) throws {
        postgres = try PrivatePostgres.start(extraSettings: postgresSettings, trustedNetwork: trustedNetwork)
        do {
            for _ in 0..<count { try addDaemon(arguments: arguments) }
        } catch {
            close()
            throw error
        }
    }

    /// Starts one more daemon on the same database (on `conninfo` if given: the same
    /// database, said another way), with `environment` added to the test's; `close()` stops
    /// it with the others.
    @discardableResult
    func addDaemon(
        arguments: [String] = [], environment: [String: String] = [:], conninfo: String? = nil,
        launcher: [String] = []
    ) throws -> DaemonHarness {
        let daemon = try DaemonHarness(
            arguments: ["--postgres", conninfo ?? postgres.conninfo] + arguments, environment: environment,
            launcher: launcher)
        daemons.append(daemon)
        return daemon
    }

    /// What every daemon logged so far, each under a heading with its socket: for a failure's
    /// message.
    var logs: String {
        daemons.map { "--- todod on \($0.socketPath):\n\($0.process.standardError)" }.joined(separator: "\n")
    }

    /// Stops every daemon (SIGTERM) and the database; what does not stop is killed by PID.
    func close() {
        for daemon in daemons where daemon.process.isRunning { _ = try? daemon.stop() }
        daemons.removeAll()
        postgres.close()
    }

    /// The `list` model a new subscriber of `daemon` gets: texts with their done marks, and
    /// the version.
    static func list(of daemon: DaemonHarness) throws -> (items: [String], version: Int) {
        let update = try daemon.greetedClient().subscribeAndWait("list").update
        let items = (update.model?["items"] as? [[String: Any]] ?? []).map { item in
            "\(item["number"] as? Int ?? 0) \((item["completed"] as? Bool ?? false) ? "x" : " ") \(item["text"] as? String ?? "")"
        }
        return (items, update.version ?? -1)
    }

    /// Waits until every running daemon serves `version` or later, then returns their lists,
    /// which must all be the same.
    func agreedList(atLeast version: Int) throws -> (items: [String], version: Int) {
        try eventually("the daemons did not all reach version \(version)") {
            let lists = try daemons.filter { $0.process.isRunning }.map { try Self.list(of: $0) }
            guard lists.allSatisfy({ $0.version >= version }) else { return nil }
            let versions = Set(lists.map(\.version))
            guard versions.count == 1 else { return nil }
            guard Set(lists.map(\.items)).count == 1 else {
                throw TestFailure("same version \(versions), different lists: \(lists)")
            }
            return lists[0]
        }
    }

    /// The log as the database holds it: version, action name, client id, sequence and host,
    /// one row each, in version order.
    func logRows() throws -> [(version: Int, name: String, clientID: String?, sequence: Int?, host: String?)] {
        let text = try postgres.psql(
            "SELECT version, name, coalesce(client_id, ''), coalesce(client_sequence::text, ''), coalesce(host, '') FROM todod_log ORDER BY version"
        )
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return (
                Int(fields[0]) ?? -1, fields[1], fields[2].isEmpty ? nil : fields[2], Int(fields[3]),
                fields[4].isEmpty ? nil : fields[4]
            )
        }
    }
}

extension WireClient {
    /// Sends `messages` in one write and collects the reply to each (by id): acks and errors.
    func pipeline(_ messages: [[String: Any]]) throws -> [Int: Message] {
        try sendTogether(messages)
        let ids = Set(messages.compactMap { $0["id"] as? Int })
        var replies: [Int: Message] = [:]
        while replies.count < ids.count {
            let message = try receive()
            if let id = message.id, ids.contains(id) { replies[id] = message }
        }
        return replies
    }
}
