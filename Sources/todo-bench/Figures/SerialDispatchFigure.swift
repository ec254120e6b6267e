import SyncClient
import TodoDomain

/// Figure 1: durable dispatch throughput of one client sending one action at a time, against
/// `redis-benchmark -t set -d 128 -c 1 -P 1` with `appendfsync always`.
enum SerialDispatchFigure {
    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        var report = FigureReport(figure: 1, title: "Durable dispatch throughput, 1 client, one action at a time")
        let count = context.options.serialCount
        let rounds = min(context.options.rounds, count)
        context.progress(
            "figure 1: \(count) dispatches one at a time (SyncClient on its connection thread and from the pool, raw frames"
                + (context.measuresRedis ? ", redis-benchmark" : "") + ") in \(rounds) rounds")
        let daemon = try TodoDaemon(context, directory: try context.directory("figure1-todod"))
        let redis =
            context.measuresRedis ? try RedisServer(context, directory: try context.directory("figure1-redis")) : nil
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "todo-bench/1")
        _ = try await client.dispatch(AddItem(text: "edited by figure 1"))
        let warmUp = max(1, count / 20)
        for _ in 0..<warmUp { _ = try await client.dispatch(DispatchLoad.action(number: 1)) }
        let raw = try daemon.rawConnection()
        let frame = DispatchLoad.frame(id: 2, number: 1)

        var clientRate = Throughput()
        var poolRate = Throughput()
        var rawRate = Throughput()
        var redisRate = Throughput()
        for round in 0..<rounds {
            let share = Throughput.share(of: count, rounds: rounds, round: round)
            clientRate.add(
                share,
                seconds: try await withTaskExecutorPreference(client.executor) {
                    try await Throughput.time {
                        for _ in 0..<share { _ = try await client.dispatch(DispatchLoad.action(number: 1)) }
                    }
                })
            poolRate.add(
                share,
                seconds: try await Throughput.time {
                    for _ in 0..<share { _ = try await client.dispatch(DispatchLoad.action(number: 1)) }
                })
            rawRate.add(
                share,
                seconds: try await Throughput.time {
                    for _ in 0..<share {
                        try raw.send(framed: frame)
                        guard let reply = try raw.nextFrame() else {
                            throw BenchError.unexpectedReply(from: daemon.socketPath, reply: "end of stream")
                        }
                        try DispatchLoad.expectAck(reply, from: daemon.socketPath)
                    }
                })
            if let redis {
                redisRate.add(share, rate: try redis.benchmarkSet(clients: 1, pipeline: 1, requests: share))
            }
        }
        client.close()
        try daemon.stop()
        try redis?.stop()

        let redisValue = redis == nil ? nil : redisRate.rate
        report.rows.append(
            .versusRedis(
                "1 client, SyncClient", unit: "actions/s", ours: clientRate.rate, redis: redisValue,
                higherIsBetter: true, targetRatio: 1.0))
        report.rows.append(
            .versusRedis(
                "1 client, SyncClient from the pool", unit: "actions/s", ours: poolRate.rate, redis: redisValue,
                higherIsBetter: true, targetRatio: nil))
        report.rows.append(
            .versusRedis(
                "1 client, raw frames", unit: "actions/s", ours: rawRate.rate, redis: redisValue, higherIsBetter: true,
                targetRatio: nil))
        report.notes = [
            "todod: \(count) `edit` dispatches of a 128-character text to one item, each awaited before the next, after \(warmUp) unmeasured; once through SyncClient.dispatch from a task preferring the client's executor, so that each ack resumes the loop on the connection thread that read it (the target row), once the same from a task on Swift's cooperative pool (each ack wakes a pool thread), once as pre-encoded frames on a raw socket (what the client library costs).",
            "Redis: redis-benchmark -s SOCK -t set -d 128 -c 1 -P 1, appendonly yes, appendfsync always.",
            "The count is split into \(rounds) rounds of both SyncClient loops, raw frames and Redis in turn, so that all four meet the same moments of the machine's other load; each rate is total requests over total time.",
        ]
        return report
    }
}
