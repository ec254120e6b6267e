import SyncClient
import TodoDomain

/// Figure 2: durable dispatch throughput with 50 clients of 16 pipelined actions each, todod and
/// Redis (`SET key <128 bytes>`, `appendfsync always`) driven by the same load generator, and
/// each server's CPU time per action.
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
                + (context.measuresRedis ? ", Redis SET, redis-benchmark" : "") + ") in \(rounds) rounds")
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
        let warmUp = max(1, total / 20)
        let tododWire = TododWire(socketPath: daemon.socketPath)
        let redisWire = redis.map { RESPSetWire(socketPath: $0.socketPath) }
        _ = try PipelinedWriter(wire: tododWire, clients: clients, depth: depth, total: warmUp).run()
        if let redisWire {
            _ = try PipelinedWriter(wire: redisWire, clients: clients, depth: depth, total: warmUp).run()
        }

        var todod = LoadTotals()
        var theirs = LoadTotals()
        var clientRate = Throughput()
        var benchmarkRate = Throughput()
        for round in 0..<rounds {
            let share = Throughput.share(of: total, rounds: rounds, round: round)
            todod.add(
                try PipelinedWriter(wire: tododWire, clients: clients, depth: depth, total: share)
                    .measure(server: daemon.process.pid))
            clientRate.add(
                share,
                seconds: try await Throughput.time {
                    try await dispatchConcurrently(share, over: connections, depth: depth)
                })
            if let redis, let redisWire {
                theirs.add(
                    try PipelinedWriter(wire: redisWire, clients: clients, depth: depth, total: share)
                        .measure(server: redis.process.pid))
                benchmarkRate.add(
                    share, rate: try redis.benchmarkSet(clients: clients, pipeline: depth, requests: share))
            }
        }
        for connection in connections { connection.close() }
        try daemon.stop()
        try redis?.stop()

        let allocations = try countAllocations(context, clients: clients, depth: depth, warmUp: warmUp, total: total)

        let measured = redis != nil
        report.rows.append(
            .versusRedis(
                "\(clients)x\(depth), one load generator", unit: "actions/s", ours: todod.rate.rate,
                redis: measured ? theirs.rate.rate : nil, higherIsBetter: true, targetRatio: 0.5))
        report.rows.append(
            .versusRedis(
                "\(clients)x\(depth), server CPU per action", unit: "us", ours: todod.serverMicrosecondsPerAction,
                redis: measured ? theirs.serverMicrosecondsPerAction : nil, higherIsBetter: false, targetRatio: 3))
        report.rows.append(
            .versusRedis(
                "\(clients)x\(depth), SyncClient", unit: "actions/s", ours: clientRate.rate,
                redis: measured ? theirs.rate.rate : nil, higherIsBetter: true, targetRatio: nil))
        report.details["tododServerCPUSeconds"] = todod.serverSeconds
        report.details["tododServerStatMicrosecondsPerAction"] = todod.serverTickMicrosecondsPerAction
        report.details["tododGeneratorMicrosecondsPerAction"] = todod.generatorMicrosecondsPerAction
        if measured {
            report.details["redisServerCPUSeconds"] = theirs.serverSeconds
            report.details["redisServerStatMicrosecondsPerAction"] = theirs.serverTickMicrosecondsPerAction
            report.details["redisGeneratorMicrosecondsPerAction"] = theirs.generatorMicrosecondsPerAction
            report.details["redisBenchmarkActionsPerSecond"] = benchmarkRate.rate
        }
        if let allocations {
            report.rows.append(
                .absolute(
                    "\(clients)x\(depth), allocations per action in todod", unit: "count", ours: allocations,
                    atMost: nil))
        }
        if let counts = CommitCounts(log: daemon.process.standardError) {
            report.details["actionsPerCommit"] = counts.actionsPerCommit
        }
        report.notes = [
            "One load generator for both servers (the target rows): \(clients) connections read by one epoll thread in the bench, each writing \(depth) pre-encoded requests at once and waiting for their \(depth) replies before the next \(depth), as redis-benchmark -P does; the same loop for both, only the bytes differ. todod: `edit` dispatches of a 128-character text (one item per connection), replies checked to be acks. Redis: SET key:C <128 bytes> (one key per connection), replies checked to be +OK, appendonly yes, appendfsync always. \(total) requests each after \(warmUp) unmeasured.",
            "Server CPU per action: the run time of every thread of the server process, summed from /proc/PID/task/TID/schedstat (nanoseconds), read just before the first write and after the last reply of each round, summed over the rounds and divided by the actions. ServerStatMicrosecondsPerAction is the same from utime + stime in /proc/PID/stat, whose 10 ms clock ticks are coarse next to a Redis round of a few tens of ms. On 2 cores the generator competes with the server for CPU; CPU per action does not depend on that. GeneratorMicrosecondsPerAction is the generator thread's own CPU per request.",
            "todod, SyncClient: \(clients) SyncClient connections, each dispatching \(depth) concurrent tasks and awaiting them all before the next \(depth); the client library's own cost (a JSON encode, a write and a continuation per request, a reader thread per connection) runs on the same 2 cores as the daemon. Compared with Redis under the load generator.",
            "redisBenchmarkActionsPerSecond: redis-benchmark -s SOCK -t set -d 128 -c \(clients) -P \(depth) on the same server in the same rounds, a check that the bench's generator drives Redis as fast as Redis's own tool does.",
            allocations == nil
                ? "Allocations per action: not counted (libtodo-malloc-count.so is not beside the bench; swift build --product todo-malloc-count)."
                : "Allocations per action: a daemon of its own started with libtodo-malloc-count.so preloaded (it counts every malloc, calloc, realloc and aligned allocation of the process), the same generator, the count read before and after \(min(total, Self.countedActions)) actions after \(warmUp) unmeasured, over the actions: everything the daemon allocates per durable action, its commits included.",
            "The count is split into \(rounds) rounds of todod, SyncClient, Redis and redis-benchmark in turn; each rate is total requests over total time. actionsPerCommit is the daemon's own average over its whole run.",
        ]
        return report
    }

    /// Most actions of the allocation count.
    static let countedActions = 20_000

    /// The allocations per action of a daemon with the counter preloaded under the figure's
    /// load, or `nil` when the counter is not built.
    private static func countAllocations(
        _ context: BenchContext, clients: Int, depth: Int, warmUp: Int, total: Int
    ) throws -> Double? {
        let directory = try context.directory("figure2-allocations")
        guard let counter = AllocationCounter(context, directory: directory) else { return nil }
        let count = min(total, countedActions)
        context.progress("figure 2: allocations of \(count) dispatches in a todod with the counter preloaded")
        let daemon = try TodoDaemon(context, directory: directory, launcher: counter.launcher)
        defer { try? daemon.stop() }
        _ = try daemon.addItems(clients)
        let wire = TododWire(socketPath: daemon.socketPath)
        _ = try PipelinedWriter(wire: wire, clients: clients, depth: depth, total: warmUp).run()
        let before = try counter.read()
        _ = try PipelinedWriter(wire: wire, clients: clients, depth: depth, total: count).run()
        let after = try counter.read()
        return Double(after - before) / Double(count)
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
