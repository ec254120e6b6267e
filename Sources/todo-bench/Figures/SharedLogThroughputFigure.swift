import Foundation
import SyncLock

/// Figure 10: durable throughput on a shared log with 1, 2 and 3 daemons writing at once (each
/// on its own simulated host, all on one log in PostgreSQL), against one daemon on its own
/// SQLite journal in the same run: actions per second, and from the daemons' own counts the
/// commits, the actions per commit and the commits another daemon overtook (each rebased and
/// sent again), each host's worst ack wait, and the time the append function takes per batch
/// in the database server.
enum SharedLogThroughputFigure {
    /// The daemons taking one share of the load together.
    private struct Setup {
        /// `SQLite` or `PostgreSQL, N daemons`.
        var name: String
        var daemons: [TodoDaemon]
        var rate = Throughput()
        var isShared: Bool
        /// The database of a shared setup.
        var database: String?
        /// Each daemon's longest wait from a batch's write to its last ack, over every round.
        var worstWaits: [Double] = []
    }

    /// Measures the figure (starting and stopping its own daemons) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        let lab = try context.sharedLogLab()
        let (clients, depth, total) = (options.sharedLogClients, options.sharedLogDepth, options.sharedLogCount)
        let rounds = min(options.rounds, total)
        var report = FigureReport(
            figure: 10, title: "Durable throughput on a shared log, \(clients) clients x \(depth) pipelined per daemon")
        context.progress(
            "figure 10: a daemon on SQLite, and \(options.sharedLogDaemons.map(String.init).joined(separator: ", ")) daemons on PostgreSQL"
        )
        let sqlite = try TodoDaemon(context, directory: try context.directory("figure10-sqlite"))
        var setups = [Setup(name: "SQLite, 1 daemon", daemons: [sqlite], isShared: false)]
        for count in options.sharedLogDaemons {
            let database = "figure10_\(count)"
            try lab.createDatabase(database)
            var daemons: [TodoDaemon] = []
            for host in 0..<count {
                daemons.append(
                    try lab.startDaemon(
                        context, host: host, database: database,
                        directory: try context.directory("figure10-\(count)-host\(host + 1)")))
            }
            setups.append(
                Setup(
                    name: "PostgreSQL, \(count) daemon\(count == 1 ? "" : "s")", daemons: daemons, isShared: true,
                    database: database))
        }
        for setup in setups {
            let version = try setup.daemons[0].addItems(clients)
            for daemon in setup.daemons.dropFirst() { try daemon.waitForVersion(version) }
            _ = try await writeTogether(
                max(setup.daemons.count, total / 20), to: setup.daemons, clients: clients, depth: depth)
        }
        context.progress(
            "figure 10: \(total) dispatches per setup from \(clients) clients x \(depth) in flight per daemon, in \(rounds) rounds"
        )
        for round in 0..<rounds {
            let share = Throughput.share(of: total, rounds: rounds, round: round)
            for index in setups.indices {
                let (seconds, waits) = try await writeTogether(
                    share, to: setups[index].daemons, clients: clients, depth: depth)
                setups[index].rate.add(share, seconds: seconds)
                let worst = setups[index].worstWaits
                setups[index].worstWaits = worst.isEmpty ? waits : zip(worst, waits).map { max($0, $1) }
            }
        }
        for setup in setups {
            for daemon in setup.daemons { try daemon.stop() }
        }

        let baseline = setups[0].rate.rate
        for setup in setups {
            let counts = CommitCounts(adding: setup.daemons.compactMap { CommitCounts(log: $0.process.standardError) })
            let rate = setup.rate.rate
            let perCommit = counts.actionsPerCommit
            report.rows.append(
                .relative(
                    "\(setup.name), actions", unit: "actions/s", ours: rate, baseline: baseline, baselineName: "SQLite",
                    targetRatio: nil))
            report.rows.append(
                .absolute(
                    "\(setup.name), commits", unit: "commits/s", ours: perCommit > 0 ? rate / perCommit : 0, atMost: nil
                ))
            report.rows.append(
                .absolute("\(setup.name), actions per commit", unit: "actions", ours: perCommit, atMost: nil))
            if setup.isShared {
                let conflicts = counts.commits > 0 ? Double(counts.overtaken) / Double(counts.commits) : 0
                report.rows.append(
                    .absolute("\(setup.name), overtaken per commit", unit: "conflicts", ours: conflicts, atMost: nil))
                if let database = setup.database, let perBatch = try appendMilliseconds(lab, database: database) {
                    report.rows.append(
                        .absolute(
                            "\(setup.name), append per batch in the database", unit: "ms", ours: perBatch, atMost: nil))
                }
            }
            for (host, wait) in setup.worstWaits.enumerated() {
                report.rows.append(
                    .absolute(
                        "\(setup.name), worst ack wait, host \(host + 1)", unit: "ms", ours: wait * 1000,
                        atMost: setup.isShared ? 1000 : nil))
            }
            let key = setup.isShared ? "postgres\(setup.daemons.count)" : "sqlite"
            report.details["\(key)Actions"] = Double(counts.actions)
            report.details["\(key)Commits"] = Double(counts.commits)
            report.details["\(key)Overtaken"] = Double(counts.overtaken)
            report.details["\(key)Seconds"] = setup.rate.seconds
        }
        report.notes = [
            "Each daemon gets \(clients) raw connections on one thread of its own, each writing \(depth) pre-encoded `edit` dispatches (128-character text) at once and waiting for their \(depth) acks before the next \(depth), as figure 2 does; connection c of every daemon edits item c + 1, so daemons edit the same items (no edit is refused: a rebased edit still applies). A setup's share is split evenly over its daemons, which write at the same time; its time runs from the start of the first writer to the end of the last. \(total) dispatches per setup after \(max(1, total / 20)) unmeasured, in \(rounds) rounds of every setup in turn.",
            "The PostgreSQL daemons run on simulated hosts (\(lab.transport)); each setup has a database of its own. The SQLite daemon runs in the root namespace with its default commits (small batches on the loop thread).",
            "Worst ack wait: the longest any connection waited from writing its \(depth) dispatches to their last ack, over every measured round (each host's own; the bound is 1 s). Append per batch in the database: the server's own time in the append function (`pg_stat_user_functions`, `track_functions = 'pl'`), over every call of the setup, warm-up included.",
            "Commits, actions per commit and overtaken per commit come from each daemon's own stop line (SIGTERM), summed over a setup's daemons and counted over their whole runs (the setup's \(clients) adds and the unmeasured warm-up included); commits/s is actions/s over actions per commit. An overtaken commit is an append refused because another daemon appended first: the daemon reads what it missed, re-runs its batch on it and appends again.",
        ]
        return report
    }

    /// The mean time of one call of the append function in `database`, in milliseconds, as
    /// the server counted it (after the daemons stopped, so that their statistics are in).
    private static func appendMilliseconds(_ lab: SharedLogLab, database: String) throws(BenchError) -> Double? {
        let row = try lab.server.sql(
            "SELECT calls, total_time FROM pg_stat_user_functions WHERE funcname = 'todod_append'", database: database)
        let fields = row.split(separator: "|").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 2, fields[0] > 0 else { return nil }
        return fields[1] / fields[0]
    }

    /// `total` dispatches split over `daemons`, each taking its share through a
    /// `PipelinedWriter` on a thread of its own, all at once; returns the seconds until the
    /// last is done, and each daemon's worst ack wait.
    private static func writeTogether(_ total: Int, to daemons: [TodoDaemon], clients: Int, depth: Int) async throws
        -> (seconds: Double, worstWaits: [Double])
    {
        let failure = Locked<String?>(nil)
        let waits = Locked([Double](repeating: 0, count: daemons.count))
        let started = MonotonicClock.now()
        var threads: [BenchThread] = []
        for (index, daemon) in daemons.enumerated() {
            let writer = PipelinedWriter(
                socketPath: daemon.socketPath, clients: clients, depth: depth,
                total: max(1, Throughput.share(of: total, rounds: daemons.count, round: index)))
            threads.append(
                try BenchThread {
                    do {
                        let measured = try writer.measure(server: nil)
                        waits.withLock { $0[index] = measured.longestBatchSeconds }
                    } catch {
                        failure.withLock { $0 = $0 ?? "writer of \(writer.wire.socketPath): \(error)" }
                    }
                })
        }
        for thread in threads { await thread.joinFromTask() }
        let seconds = MonotonicClock.seconds(from: started, to: MonotonicClock.now())
        if let failure = failure.withLock({ $0 }) { throw BenchError.process(name: "figure 10", reason: failure) }
        return (seconds, waits.withLock { $0 })
    }
}
