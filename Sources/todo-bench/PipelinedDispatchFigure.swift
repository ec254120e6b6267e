import SyncClient
import TodoDomain

/// Figure 2: durable dispatch throughput with 50 clients of 16 pipelined actions each, against
/// `redis-benchmark -t set -d 128 -c 50 -P 16` with `appendfsync always`.
enum PipelinedDispatchFigure {
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        let (clients, depth, total) = (options.pipelinedClients, options.pipelineDepth, options.pipelinedCount)
        var report = FigureReport(figure: 2, title: "Durable dispatch throughput, \(clients) clients x \(depth) pipelined")
        context.progress("figure 2: \(total) dispatches from \(clients) clients x \(depth) in flight (raw frames, then SyncClient)")
        let daemon = try TodoDaemon(context, directory: try context.directory("figure2-todod"))
        let setup = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "todo-bench/2")
        for client in 0..<clients { _ = try await setup.dispatch(AddItem(text: "edited by client \(client + 1)")) }
        setup.close()

        _ = try PipelinedWriter(socketPath: daemon.socketPath, clients: clients, depth: depth, total: max(1, total / 20)).run()
        let rawRate = try PipelinedWriter(socketPath: daemon.socketPath, clients: clients, depth: depth, total: total).run()
        let clientRate = try await syncClientRate(socketPath: daemon.socketPath, clients: clients, depth: depth, total: total)
        try daemon.stop()
        let batch = averageCommitSize(daemon.process.standardError)

        var redisRate: Double?
        if context.measuresRedis {
            context.progress("figure 2: redis-benchmark -c \(clients) -P \(depth) -n \(total)")
            let redis = try RedisServer(context, directory: try context.directory("figure2-redis"))
            redisRate = try redis.benchmarkSet(clients: clients, pipeline: depth, requests: total)
            try redis.stop()
        }
        report.rows.append(.versusRedis("\(clients)x\(depth), raw frames", unit: "actions/s", ours: rawRate, redis: redisRate, higherIsBetter: true, targetRatio: 1.0))
        report.rows.append(.versusRedis("\(clients)x\(depth), SyncClient", unit: "actions/s", ours: clientRate, redis: redisRate, higherIsBetter: true, targetRatio: nil))
        if let batch { report.details["actionsPerCommit"] = batch }
        report.notes = [
            "todod, raw frames (the target row): \(clients) connections on one thread, each writing \(depth) pre-encoded `edit` dispatches (128-character text, one item per connection) at once and waiting for their \(depth) acks before the next \(depth), as redis-benchmark -P does; \(total) in all after \(max(1, total / 20)) unmeasured.",
            "todod, SyncClient: \(clients) SyncClient connections, each dispatching \(depth) concurrent tasks and awaiting them all before the next \(depth); the client library's own cost (a JSON encode, a write and a continuation per request, a reader thread per connection) runs on the same 2 cores as the daemon.",
            "Redis: redis-benchmark -s SOCK -t set -d 128 -c \(clients) -P \(depth) -n \(total), appendonly yes, appendfsync always.",
        ]
        return report
    }

    /// SyncClient connections dispatching in batches of `depth` concurrent tasks.
    private static func syncClientRate(socketPath: String, clients: Int, depth: Int, total: Int) async throws -> Double {
        var connections: [SyncClient] = []
        for _ in 0..<clients { connections.append(try await SyncClient.connect(socketPath: socketPath, clientName: "todo-bench/2")) }
        defer { connections.forEach { $0.close() } }
        let started = MonotonicClock.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in connections.enumerated() {
                let quota = total / clients + (index < total % clients ? 1 : 0)
                group.addTask {
                    var sent = 0
                    while sent < quota {
                        let size = min(depth, quota - sent)
                        try await withThrowingTaskGroup(of: Void.self) { batch in
                            for _ in 0..<size { batch.addTask { _ = try await client.dispatch(DispatchLoad.action(number: index + 1)) } }
                            try await batch.waitForAll()
                        }
                        sent += size
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(total) / MonotonicClock.seconds(from: started, to: MonotonicClock.now())
    }

    /// The daemon's own figure from its stop line: `...; N actions in M commits (A per commit)`.
    private static func averageCommitSize(_ log: String) -> Double? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("per commit)") }),
              let open = line.lastIndex(of: "(") else { return nil }
        return Double(line[line.index(after: open)...].split(separator: " ").first ?? "")
    }
}
