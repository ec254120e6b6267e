import SyncClient
import TodoDomain

/// Figure 1: durable dispatch throughput of one client sending one action at a time, against
/// `redis-benchmark -t set -d 128 -c 1 -P 1` with `appendfsync always`.
enum SerialDispatchFigure {
    static func run(_ context: BenchContext) async throws -> FigureReport {
        var report = FigureReport(figure: 1, title: "Durable dispatch throughput, 1 client, one action at a time")
        let count = context.options.serialCount
        context.progress("figure 1: \(count) dispatches one at a time (SyncClient, then raw frames)")
        let daemon = try TodoDaemon(context, directory: try context.directory("figure1-todod"))
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "todo-bench/1")
        _ = try await client.dispatch(AddItem(text: "edited by figure 1"))
        let warmUp = max(1, count / 20)
        for _ in 0..<warmUp { _ = try await client.dispatch(DispatchLoad.action(number: 1)) }
        var started = MonotonicClock.now()
        for _ in 0..<count { _ = try await client.dispatch(DispatchLoad.action(number: 1)) }
        let clientRate = Double(count) / MonotonicClock.seconds(from: started, to: MonotonicClock.now())
        client.close()

        let raw = try daemon.rawConnection()
        let frame = DispatchLoad.frame(id: 2, number: 1)
        started = MonotonicClock.now()
        for _ in 0..<count {
            try raw.send(framed: frame)
            guard let reply = try raw.nextFrame() else { throw BenchError.unexpectedReply(from: daemon.socketPath, reply: "end of stream") }
            try DispatchLoad.expectAck(reply, from: daemon.socketPath)
        }
        let rawRate = Double(count) / MonotonicClock.seconds(from: started, to: MonotonicClock.now())
        try daemon.stop()

        var redisRate: Double?
        if context.measuresRedis {
            context.progress("figure 1: redis-benchmark -c 1 -P 1 -n \(count)")
            let redis = try RedisServer(context, directory: try context.directory("figure1-redis"))
            redisRate = try redis.benchmarkSet(clients: 1, pipeline: 1, requests: count)
            try redis.stop()
        }
        report.rows.append(.versusRedis("1 client, SyncClient", unit: "actions/s", ours: clientRate, redis: redisRate, higherIsBetter: true, targetRatio: 1.0))
        report.rows.append(.versusRedis("1 client, raw frames", unit: "actions/s", ours: rawRate, redis: redisRate, higherIsBetter: true, targetRatio: nil))
        report.notes = [
            "todod: \(count) `edit` dispatches of a 128-character text to one item, each awaited before the next, after \(warmUp) unmeasured; once through SyncClient.dispatch, once as pre-encoded frames on a raw socket (what the client library costs).",
            "Redis: redis-benchmark -s SOCK -t set -d 128 -c 1 -P 1 -n \(count), appendonly yes, appendfsync always.",
        ]
        return report
    }
}
