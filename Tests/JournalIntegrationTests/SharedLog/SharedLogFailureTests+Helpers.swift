import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// What the shared log's failure tests share: writers, the checks against the log, daemons
/// that must refuse to start, and reading the database.
extension SharedLogFailureTests {
    /// `perDaemon` writers on each daemon of `cluster`, client ids `PREFIX-DAEMON-N`.
    /// Each pauses `pause` microseconds after each ack (0: flat out).
    static func writers(on cluster: SharedLogCluster, perDaemon: Int, prefix: String, pause: UInt32 = 0)
        -> [NumberedWriter]
    {
        cluster.daemons.enumerated().flatMap { index, daemon in
            (0..<perDaemon).map {
                NumberedWriter(socketPath: daemon.socketPath, clientID: "\(prefix)-\(index)-\($0)", pause: pause)
            }
        }
    }

    /// Checks that the log holds every acked dispatch of `summaries` once, at the version its
    /// ack gave, and nothing else of theirs; and that every daemon serves the same list, with
    /// each writer's item once and `alsoAdded` (items added otherwise) and nothing more.
    static func expectLogMatches(
        _ summaries: [NumberedWriter.Summary], cluster: SharedLogCluster, alsoAdded: [String] = []
    ) throws {
        let rows = try cluster.logRows()
        for summary in summaries {
            let logged = rows.filter { $0.clientID == summary.clientID }
            #expect(
                logged.map { $0.sequence ?? -1 } == Array(1...summary.acks.count),
                "\(summary.clientID): each sequence once, in order")
            #expect(logged.map(\.version) == summary.acks, "\(summary.clientID): at the versions acked")
        }
        #expect(rows.map(\.version) == Array(1...rows.count), "no gap")
        let agreed = try cluster.agreedList(atLeast: rows.count)
        #expect(agreed.version == rows.count)
        let expected = summaries.flatMap { summary in (1...summary.acks.count).map(summary.text) } + alsoAdded
        #expect(
            agreed.items.map(text(of:)).sorted() == expected.sorted(), "every acked action applied once, nothing else")
        print(
            "SharedLogFailureTests: \(rows.count) actions; acks per writer \(summaries.map(\.acks.count)), storage_unavailable resent \(summaries.map(\.storageErrors)), reconnects \(summaries.map(\.reconnects))"
        )
    }

    /// The text of a `SharedLogCluster.list` item ("N x TEXT" or "N   TEXT").
    static func text(of item: String) -> String {
        guard let space = item.firstIndex(of: " ") else { return item }
        return String(item[item.index(after: space)...].dropFirst(2))
    }

    /// Runs `todod --socket DIR/todod.sock --data-dir DIR/data ARGUMENTS` to its exit (it is
    /// expected to refuse to start) and returns its status and standard error.
    static func refusedStart(_ arguments: [String], environment: [String: String] = [:], in directory: String) throws
        -> (status: Int32, error: String)
    {
        try refusedStart(
            socket: directory + "/todod.sock", dataDirectory: directory + "/data", arguments, environment: environment,
            outputDirectory: directory)
    }

    /// Runs `todod --socket SOCKET --data-dir DATA ARGUMENTS` to its exit; fails at once if it
    /// starts listening instead.
    static func refusedStart(
        socket: String, dataDirectory: String, _ arguments: [String], environment: [String: String] = [:],
        outputDirectory: String
    ) throws -> (status: Int32, error: String) {
        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--socket", socket, "--data-dir", dataDirectory] + arguments,
            environment: environment, outputDirectory: outputDirectory)
        let status = try eventually(timeout: 60, "todod neither refused to start nor started") { () throws -> Int32? in
            if !daemon.isRunning { return try daemon.waitForExit() }
            guard DaemonHarness.isAnswering(socket) else { return nil }
            daemon.send(SIGKILL)
            _ = try? daemon.waitForExit()
            throw TestFailure("todod started instead of refusing to; stderr:\n\(daemon.standardError)")
        }
        return (status, daemon.standardError)
    }

    /// Deletes the entries after `version` (and the snapshots after it) and moves the head back
    /// there, as a restore of an older backup would (past the append-only trigger).
    static func cutLog(_ postgres: PrivatePostgres, to version: Int) throws {
        try tamper(
            postgres,
            """
            DELETE FROM todod_log WHERE version > \(version);
            UPDATE todod_head SET version = \(version), hash = (SELECT hash FROM todod_log WHERE version = \(version));
            DELETE FROM todod_snapshots WHERE version > \(version);
            """)
    }

    /// Runs `sql` on the log as an attacker with the rights of the tables' owner would: with
    /// the log's triggers disabled while it runs.
    static func tamper(_ postgres: PrivatePostgres, _ sql: String) throws {
        try postgres.psql(
            """
            ALTER TABLE todod_log DISABLE TRIGGER USER;
            \(sql);
            ALTER TABLE todod_log ENABLE TRIGGER USER;
            """)
    }

    /// Starts `daemon` again as it ran (its socket and data directory, on the cluster's database)
    /// and waits for it to refuse; returns its exit status and standard error.
    static func refusedRestart(of daemon: DaemonHarness, _ cluster: SharedLogCluster) throws -> (
        status: Int32, error: String
    ) {
        try refusedStart(
            socket: daemon.socketPath, dataDirectory: daemon.dataDirectory, ["--postgres", cluster.postgres.conninfo],
            outputDirectory: daemon.directory)
    }

    /// Everything in the regular files under `directory`, as text.
    static func filesText(under directory: String) throws -> String {
        let names = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return names.compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .isoLatin1) }.joined(
            separator: "\n")
    }

    /// The indices of the daemons of `cluster` that logged taking the side effects over.
    static func leaders(_ cluster: SharedLogCluster) -> [Int] {
        cluster.daemons.indices.filter {
            cluster.daemons[$0].process.standardError.contains("this daemon now runs the side effects for every host")
        }
    }

    /// How many sessions hold the advisory lock of the daemon that runs the side effects.
    static func leaderLockHolders(_ postgres: PrivatePostgres) throws -> Int {
        // A bigint key is held as classid (high 32 bits) and objid (low 32 bits), objsubid 1.
        let key: Int64 = 0x746f_646f_6402
        let count = try postgres.psql(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = \(key >> 32) AND objid = \(key & 0xffff_ffff) AND objsubid = 1"
        )
        return Int(count) ?? -1
    }

    /// `remove` actions of item `number` in the log that a daemon made itself (no uid).
    static func expiryRemovals(of number: Int, _ postgres: PrivatePostgres) throws -> Int {
        Int(
            try postgres.psql(
                "SELECT count(*) FROM todod_log WHERE name = 'remove' AND peer_uid IS NULL AND (payload::json ->> 'number')::int = \(number)"
            )) ?? -1
    }

    /// Adds `texts` on `daemon`, one dispatch each, each acked.
    static func add(_ texts: [String], on daemon: DaemonHarness) throws {
        let client = try daemon.greetedClient()
        for text in texts {
            let reply = try client.dispatchAndWait("add", ["text": text])
            guard reply.type == "ack" else { throw TestFailure("adding \"\(text)\": \(reply)") }
        }
    }

    /// Waits until `daemon` says in its welcome that its database is reachable (or not).
    static func waitUntilReachable(_ reachable: Bool, _ daemon: DaemonHarness) throws {
        try eventually("the daemon never said its database is \(reachable ? "reachable" : "unreachable")") {
            let log = try WireClient(path: daemon.socketPath).hello()["log"] as? [String: Any]
            return log?["reachable"] as? Bool == reachable ? true : nil
        }
    }

    /// Adds `text` on `daemon` and marks it done (it gets `number`).
    static func addAndComplete(_ text: String, number: Int, on daemon: DaemonHarness) throws {
        let client = try daemon.greetedClient()
        let added = try client.dispatchAndWait("add", ["text": text])
        let completed = try client.dispatchAndWait("complete", ["number": number])
        #expect(added.type == "ack" && completed.type == "ack", "\(added) \(completed)")
    }

    /// Waits until every running daemon of `cluster` serves an empty list at `version` or later.
    static func waitUntilEmpty(_ cluster: SharedLogCluster, atLeast version: Int) throws {
        try eventually("the done item was not removed everywhere") {
            let agreed = try cluster.agreedList(atLeast: version)
            return agreed.items.isEmpty ? true : nil
        }
    }
}
