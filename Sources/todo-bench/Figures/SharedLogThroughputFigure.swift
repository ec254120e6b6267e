import SyncLock

/// Figure 10: durable throughput on a shared log with 1, 2 and 3 daemons writing at once (each
/// on its own simulated host, all on one log in PostgreSQL), against one daemon on its own
/// SQLite journal in the same run: actions per second, and from the daemons' own counts the
/// commits, the actions per commit and the commits another daemon overtook (each rebased and
/// sent again).
enum SharedLogThroughputFigure {
    /// The daemons taking one share of the load together.
    private struct Setup {
        /// `SQLite` or `PostgreSQL, N daemons`.
        var name: String
        var daemons: [TodoDaemon]
        var rate = Throughput()
        var isShared: Bool
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
                Setup(name: "PostgreSQL, \(count) daemon\(count == 1 ? "" : "s")", daemons: daemons, isShared: true))
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
                let seconds = try await writeTogether(share, to: setups[index].daemons, clients: clients, depth: depth)
                setups[index].rate.add(share, seconds: seconds)
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
            "Commits, actions per commit and overtaken per commit come from each daemon's own stop line (SIGTERM), summed over a setup's daemons and counted over their whole runs (the setup's \(clients) adds and the unmeasured warm-up included); commits/s is actions/s over actions per commit. An overtaken commit is an append refused because another daemon appended first: the daemon reads what it missed, re-runs its batch on it and appends again.",
        ]
        return report
    }

    /// `total` dispatches split over `daemons`, each taking its share through a
    /// `PipelinedWriter` on a thread of its own, all at once; returns the seconds until the
    /// last is done.
    private static func writeTogether(_ total: Int, to daemons: [TodoDaemon], clients: Int, depth: Int) async throws
        -> Double
    {
        let failure = Locked<String?>(nil)
        let started = MonotonicClock.now()
        var threads: [BenchThread] = []
        for (index, daemon) in daemons.enumerated() {
            let writer = PipelinedWriter(
                socketPath: daemon.socketPath, clients: clients, depth: depth,
                total: max(1, Throughput.share(of: total, rounds: daemons.count, round: index)))
            threads.append(
                try BenchThread {
                    do {
                        _ = try writer.run()
                    } catch {
                        failure.withLock { $0 = $0 ?? "writer of \(writer.wire.socketPath): \(error)" }
                    }
                })
        }
        for thread in threads { await thread.joinFromTask() }
        let seconds = MonotonicClock.seconds(from: started, to: MonotonicClock.now())
        if let failure = failure.withLock({ $0 }) { throw BenchError.process(name: "figure 10", reason: failure) }
        return seconds
    }
}
