import Foundation
import Glibc
import SyncJournal

/// Figure 11: cold join. A new daemon (an empty data directory) starts on a shared log of
/// 100,000 actions on a simulated host: the time from its exec to its first `welcome`, once
/// with the newest snapshot the log has (1000 actions before the head, the most a daemon's
/// snapshot interval leaves), once with no snapshot at all (every action read, its hash
/// checked and applied).
enum ColdJoinFigure {
    /// The database of the figure's log.
    private static let database = "figure11"

    /// Measures the figure (starting and stopping its own daemons) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        let lab = try context.sharedLogLab()
        var report = FigureReport(figure: 11, title: "Cold join of a shared log of \(options.joinActions) actions")
        let snapshotVersion = UInt64(options.joinActions - options.joinTail)
        context.progress(
            "figure 11: writing a shared log of \(options.joinActions) actions (snapshot at \(snapshotVersion))")
        try lab.createDatabase(database)
        let building = MonotonicClock.now()
        let written = try build(
            lab, actions: options.joinActions, snapshotVersion: snapshotVersion,
            directory: try context.directory("figure11-builder"))
        let buildSeconds = MonotonicClock.seconds(from: building, to: MonotonicClock.now())
        let logBytes =
            Double(
                try lab.server.sql("SELECT pg_total_relation_size('todod_log')", database: database).trimmingCharacters(
                    in: .whitespacesAndNewlines)) ?? 0

        context.progress("figure 11: \(options.joinRuns) joins with the snapshot, \(options.joinRuns) without")
        let withSnapshot = try joins(
            context, lab, runs: options.joinRuns, name: "snapshot", expecting: written.lastVersion)
        try lab.server.sql("DELETE FROM todod_snapshots", database: database)
        let withoutSnapshot = try joins(
            context, lab, runs: options.joinRuns, name: "nosnapshot", expecting: written.lastVersion)

        report.rows.append(
            .absolute(
                "exec to ready, snapshot \(options.joinTail) before the head (median of \(options.joinRuns))",
                unit: "ms", ours: withSnapshot.ready.p50, atMost: nil))
        report.rows.append(
            .absolute(
                "exec to ready, no snapshot (median of \(options.joinRuns))", unit: "ms",
                ours: withoutSnapshot.ready.p50, atMost: nil))
        for (name, sample) in [("snapshot", withSnapshot), ("noSnapshot", withoutSnapshot)] {
            report.details["\(name)ReadyMinMs"] = sample.ready.min
            report.details["\(name)ReadyMaxMs"] = sample.ready.max
            report.details["\(name)LoggedRecoveryMedianMs"] = sample.recovery.p50
        }
        report.details["logBytes"] = logBytes
        report.details["itemsAtEnd"] = Double(written.itemCount)
        report.details["logBuildSeconds"] = buildSeconds
        report.notes = [
            "The log is written from the bench with PostgresJournal itself (the daemon's own appends through todod_append, so every entry has its chained hash), 10,000 actions per append: the workload of figure 6 (add; complete the item added 500 adds earlier; remove the one added 1000 earlier; about \(written.itemCount) items at the end), \(options.joinActions) actions, a snapshot at version \(snapshotVersion) (state only, no dispatch ledger: no entry has a client id). todod_log and its indexes: \(Report.format(logBytes / 1_048_576)) MiB.",
            "Each join is a new todod with an empty data directory on host 1 (\(lab.transport)): from just before posix_spawn to the welcome answering a hello, polled every 0.5 ms. It reads the newest snapshot (its hash checked against the log's entry at that version), then the actions after it, 10,000 per query, checking each entry's chained hash, and applies them. The daemon's clean stop saves a snapshot at the head; it is deleted before the next join. loggedRecoveryMedianMs is the daemon's own 'recovered ... in T ms' (after connecting and checking the schema).",
        ]
        return report
    }

    /// The log: `actions` of figure 6's workload with a snapshot at `snapshotVersion`.
    private static func build(_ lab: SharedLogLab, actions: Int, snapshotVersion: UInt64, directory: String)
        throws(BenchError) -> JournalBuilder.Written
    {
        let conninfo = lab.server.conninfo(database: database, address: nil)
        do {
            let journal = try PostgresJournal(
                conninfo: conninfo, schema: SharedLogSchema(daemonName: "todod"), host: "todo-bench",
                applicationName: "todo-bench", headFile: directory + "/head")
            journal.statementTimeoutMilliseconds = 120_000
            try journal.prepareForWriting()
            return try JournalBuilder.append(
                to: journal, workload: .churn(liveItems: 1000), count: actions, snapshotVersion: snapshotVersion,
                host: "todo-bench", chunk: 10_000)
        } catch {
            throw .process(name: "figure 11", reason: "cannot write the shared log: \(error)")
        }
    }

    /// What the joins of one kind measured.
    private struct Sample {
        /// Exec to ready, in milliseconds.
        var ready: Distribution
        /// The daemons' own recovery times, in milliseconds.
        var recovery: Distribution
    }

    /// `runs` new daemons in turn, each stopped and its snapshot at the head deleted before the next.
    private static func joins(
        _ context: BenchContext, _ lab: SharedLogLab, runs: Int, name: String, expecting head: UInt64
    ) throws(BenchError) -> Sample {
        var ready: [Double] = []
        var recovery: [Double] = []
        for run in 0..<runs {
            let directory = try context.directory("figure11-\(name)\(run)")
            let daemon = try lab.startDaemon(context, host: 0, database: database, directory: directory)
            ready.append(daemon.secondsToReady * 1000)
            let version = try FrameSocket(path: daemon.socketPath).greet()
            guard version == head else {
                throw .unexpectedReply(from: daemon.socketPath, reply: "welcome at version \(version), not \(head)")
            }
            if let logged = ColdStartFigure.loggedRecoveryMilliseconds(daemon.process.standardError) {
                recovery.append(logged)
            }
            try daemon.stop()
            try lab.server.sql(
                "DELETE FROM todod_snapshots WHERE version > \(head - UInt64(context.options.joinTail))",
                database: database)
        }
        return Sample(ready: Distribution(ready), recovery: Distribution(recovery))
    }
}
