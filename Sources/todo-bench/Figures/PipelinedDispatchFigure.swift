import SyncClient
import TodoDomain

/// Figure 2: durable dispatch throughput with 50 clients of 16 pipelined actions each, against
/// `redis-benchmark -t set -d 128 -c 50 -P 16` with `appendfsync always`.
enum PipelinedDispatchFigure {
    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        let (clients, depth, total) = (options.pipelinedClients, options.pipelineDepth, options.pipelinedCount)
        let rounds = min(options.rounds, total)
        var report = FigureReport(
            figure: 2, title: "Durable dispatch throughput, \(clients) clients x \(depth) pipelined")
        context.progress(
            "figure 2: \(total) dispatches from \(clients) clients x \(depth) in flight (raw frames, SyncClient"
                + (context.measuresRedis ? ", redis-benchmark" : "") + ") in \(rounds) rounds")
        let daemon = try TodoDaemon(context, directory: try context.directory("figure2-todod"))
        let redis =
            context.measuresRedis ? try RedisServer(context, directory: try context.directory("figure2-redis")) : nil
        var connections: [SyncClient] = []
        for _ in 0..<clients {
            connections.append(try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "todo-bench/2"))
        }
        for client in 0..<clients {
            _ = try await connections[0].dispatch(AddItem(text: "edited by client \(client + 1)"))
        }
        _ = try PipelinedWriter(
            socketPath: daemon.socketPath, clients: clients, depth: depth, total: max(1, total / 20)
        ).run()

        var rawRate = Throughput()
        var clientRate = Throughput()
        var redisRate = Throughput()
        for round in 0..<rounds {
            let share = Throughput.share(of: total, rounds: rounds, round: round)
            rawRate.add(
                share,
                rate: try PipelinedWriter(socketPath: daemon.socketPath, clients: clients, depth: depth, total: share)
                    .run())
            clientRate.add(
                share,
                seconds: try await Throughput.time {
                    try await dispatchConcurrently(share, over: connections, depth: depth)
                })
            if let redis {
                redisRate.add(share, rate: try redis.benchmarkSet(clients: clients, pipeline: depth, requests: share))
            }
        }
        for connection in connections { connection.close() }
        try daemon.stop()
        try redis?.stop()

        let redisValue = redis == nil ? nil : redisRate.rate
        report.rows.append(
            .versusRedis(
                "\(clients)x\(depth), raw frames", unit: "actions/s", ours: rawRate.rate, redis: redisValue,
                higherIsBetter: true, targetRatio: 1.0))
        report.rows.append(
            .versusRedis(
                "\(clients)x\(depth), SyncClient", unit: "actions/s", ours: clientRate.rate, redis: redisValue,
                higherIsBetter: true, targetRatio: nil))
        if let counts = CommitCounts(log: daemon.process.standardError) {
            report.details["actionsPerCommit"] = counts.actionsPerCommit
        }
        report.notes = [
            "todod, raw frames (the target row): \(clients) connections on one thread, each writing \(depth) pre-encoded `edit` dispatches (128-character text, one item per connection) at once and waiting for their \(depth) acks before the next \(depth), as redis-benchmark -P does; \(total) in all after \(max(1, total / 20)) unmeasured.",
            "todod, SyncClient: \(clients) SyncClient connections, each dispatching \(depth) concurrent tasks and awaiting them all before the next \(depth); the client library's own cost (a JSON encode, a write and a continuation per request, a reader thread per connection) runs on the same 2 cores as the daemon.",
            "Redis: redis-benchmark -s SOCK -t set -d 128 -c \(clients) -P \(depth), appendonly yes, appendfsync always.",
            "The count is split into \(rounds) rounds of raw frames, SyncClient and Redis in turn; each rate is total requests over total time. actionsPerCommit is the daemon's own average over its whole run.",
        ]
        return report
    }

    /// `total` dispatches over `connections`, each connection sending batches of `depth`
    /// concurrent tasks and awaiting the whole batch before the next.
    private static func dispatchConcurrently(_ total: Int, over connections: [SyncClient], depth: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in connections.enumerated() {
                let quota = Throughput.share(of: total, rounds: connections.count, round: index)
                group.addTask {
                    var sent = 0
                    while sent < quota {
                        let size = min(depth, quota - sent)
                        try await withThrowingTaskGroup(of: Void.self) { batch in
                            for _ in 0..<size {
                                batch.addTask { _ = try await client.dispatch(DispatchLoad.action(number: index + 1)) }
                            }
                            try await batch.waitForAll()
                        }
                        sent += size
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
