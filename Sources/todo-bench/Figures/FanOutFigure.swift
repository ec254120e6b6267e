import SyncLock
import SyncProtocol
import TodoDomain

/// Figure 3: fan-out latency. One dispatch per millisecond for several seconds to a list with
/// 100 and 1000 subscribers; the latency runs from the dispatch's write to each subscriber
/// having the new model decoded. Against Redis pub/sub: 100 subscribers, one 128-byte PUBLISH
/// per millisecond, from the PUBLISH's write to each subscriber having read the message.
enum FanOutFigure {
    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        let count = max(10, Int(options.fanOutSeconds * 1000) / options.fanOutPeriodMs)
        let period = UInt64(options.fanOutPeriodMs) * 1_000_000
        var report = FigureReport(
            figure: 3, title: "Fan-out latency at one dispatch every \(options.fanOutPeriodMs) ms")
        var ours: [(subscribers: Int, sample: FanOutSample)] = []
        for subscribers in options.fanOutSubscribers {
            context.progress(
                "figure 3: \(count) toggles, one every \(options.fanOutPeriodMs) ms, to \(subscribers) SyncClient subscribers of list"
            )
            ours.append(
                (
                    subscribers,
                    try await measureTodod(context, subscribers: subscribers, count: count, periodNanoseconds: period)
                ))
        }
        let rawSubscribers = options.redisSubscribers
        var rawRounds: [FanOutSample] = []
        for round in 1...options.fanOutRounds {
            context.progress(
                "figure 3, round \(round) of \(options.fanOutRounds): \(count) toggles, one every \(options.fanOutPeriodMs) ms, to \(rawSubscribers) raw subscribers of summary read by one thread"
            )
            rawRounds.append(
                try await measureTododRaw(
                    context, subscribers: rawSubscribers, count: count, periodNanoseconds: period, round: round))
        }
        // The round whose p99 is the median one stands for the figure; the worst round's
        // p99, p99.9 and maximum are rows of their own, so that a stall in one round shows.
        let raw = rawRounds.sorted { $0.latency.p99 < $1.latency.p99 }[rawRounds.count / 2]
        let worstP99 = rawRounds.map(\.latency.p99).max() ?? 0
        let syncs = min(count, 2000)
        context.progress("figure 3: \(syncs) appends of 4 KiB, each followed by fdatasync")
        let fsync = try DiskSyncProbe.measure(directory: try context.directory("figure3-fsync"), count: syncs)
        var redis: FanOutSample?
        var redisOneThread: FanOutSample?
        if context.measuresRedis {
            context.progress(
                "figure 3: \(count) PUBLISHes, one every \(options.fanOutPeriodMs) ms, to \(options.redisSubscribers) Redis subscribers, a thread each, then all read by one thread"
            )
            redis = try await measureRedis(
                context, subscribers: options.redisSubscribers, count: count, periodNanoseconds: period,
                reading: .threadEach)
            redisOneThread = try await measureRedis(
                context, subscribers: rawSubscribers, count: count, periodNanoseconds: period, reading: .oneThread)
        }
        for (subscribers, sample) in ours {
            let comparable = subscribers == options.redisSubscribers ? redis : nil
            report.rows.append(
                .versusRedis(
                    "p50, \(subscribers) SyncClient subscribers", unit: "ms", ours: sample.latency.p50,
                    redis: comparable?.latency.p50, higherIsBetter: false, targetRatio: nil))
            report.rows.append(
                .versusRedis(
                    "p99, \(subscribers) SyncClient subscribers", unit: "ms", ours: sample.latency.p99,
                    redis: comparable?.latency.p99, higherIsBetter: false,
                    targetRatio: subscribers == options.redisSubscribers ? 1.0 : nil))
            record(sample, as: "todod\(subscribers)", in: &report)
        }
        report.rows.append(
            .versusRedis(
                "p50, \(rawSubscribers) raw subscribers, one thread", unit: "ms", ours: raw.latency.p50,
                redis: redisOneThread?.latency.p50, higherIsBetter: false, targetRatio: nil))
        var rawP99 = ResultRow.versusRedis(
            "p99, \(rawSubscribers) raw subscribers, one thread, worst of \(rawRounds.count) rounds", unit: "ms",
            ours: worstP99, redis: redisOneThread?.latency.p99, higherIsBetter: false, targetRatio: nil)
        rawP99.target = "<= Redis + fsync p99"
        rawP99.met = redisOneThread.map { worstP99 <= $0.latency.p99 + fsync.p99 }
        report.rows.append(rawP99)
        report.rows.append(
            .versusRedis(
                "p99.9, \(rawSubscribers) raw subscribers, worst round", unit: "ms",
                ours: rawRounds.map(\.latency.p999).max() ?? 0, redis: redisOneThread?.latency.p999,
                higherIsBetter: false, targetRatio: nil))
        report.rows.append(
            .absolute(
                "max, \(rawSubscribers) raw subscribers, worst round", unit: "ms",
                ours: rawRounds.map(\.latency.max).max() ?? 0, atMost: 10))
        report.rows.append(
            .absolute("fsync p99 (4 KiB append + fdatasync)", unit: "ms", ours: fsync.p99, atMost: nil))
        if let syncClients = ours.first(where: { $0.subscribers == rawSubscribers }) {
            report.rows.append(
                .relative(
                    "p99, \(rawSubscribers) SyncClient over raw subscribers", unit: "ms",
                    ours: syncClients.sample.latency.p99, baseline: raw.latency.p99,
                    baselineName: "raw subscribers", targetRatio: 2))
        }
        record(raw, as: "todod\(rawSubscribers)Raw", in: &report)
        report.tails = ours.map { LatencyTail("todod, \($0.subscribers) SyncClient subscribers", $0.sample.latency) }
        for (round, sample) in rawRounds.enumerated() {
            report.tails.append(LatencyTail("todod, \(rawSubscribers) raw, round \(round + 1)", sample.latency))
        }
        if let redis { report.tails.append(LatencyTail("Redis, \(options.redisSubscribers) threads", redis.latency)) }
        if let redisOneThread {
            report.tails.append(LatencyTail("Redis, \(rawSubscribers) one thread", redisOneThread.latency))
        }
        report.tails.append(LatencyTail("fsync (4 KiB + fdatasync)", fsync))
        for (round, sample) in rawRounds.enumerated() {
            report.details["todod\(rawSubscribers)RawRound\(round + 1)P99Ms"] = sample.latency.p99
            report.details["todod\(rawSubscribers)RawRound\(round + 1)P999Ms"] = sample.latency.p999
            report.details["todod\(rawSubscribers)RawRound\(round + 1)MaxMs"] = sample.latency.max
        }
        report.details["fsyncP50Ms"] = fsync.p50
        report.details["fsyncP90Ms"] = fsync.p90
        report.details["fsyncMaxMs"] = fsync.max
        report.details["fsyncSamples"] = Double(fsync.count)
        if let redis { record(redis, as: "redis\(options.redisSubscribers)", in: &report) }
        if let redisOneThread { record(redisOneThread, as: "redis\(rawSubscribers)OneThread", in: &report) }
        report.notes = [
            "todod: a list holding one item whose model is 128 bytes of JSON; a raw connection on its own thread writes one dispatch every \(options.fanOutPeriodMs) ms (complete, reopen, ... of that item; \(count) in all) without waiting for acks; each subscriber is a SyncClient connection subscribed to list, and the time is taken in the task iterating its update stream (after the client's reader thread decoded the model), a task preferring the client's executor, so that it runs on the thread that read the update. The latency of a dispatch at a subscriber ends at the first model it receives whose version is at least the dispatch's (a later model also shows the change), so every dispatch counts for every subscriber. The first 10% are not measured.",
            "Redis: \(options.redisSubscribers) RESP connections each SUBSCRIBEd and read by a thread of its own (as SyncClient reads on a thread per connection); a connection on its own thread PUBLISHes one 128-byte message every \(options.fanOutPeriodMs) ms whose first 10 bytes are its sequence number. PUBLISH is not written to the append-only file; every todod update follows an fsync.",
            "Raw subscribers (the daemon's cost without the client library's): \(rawSubscribers) raw connections subscribed to summary (a model of a few dozen bytes; the list has one item), all read by ONE bench thread with epoll, each readable socket read once per wake-up and its frames' versions read from their tails; the same toggles at the same pace, then an add that ends the run. Redis, one thread: \(rawSubscribers) SUBSCRIBEd connections read the same way, the same PUBLISHes. The p99 target is Redis's one-thread p99 plus the fsync p99 of this run: every todod update follows the fsync of its action, PUBLISH writes nothing.",
            "fsync p99: \(syncs) appends of 4 KiB (about a small SQLite WAL commit) to a file in the run's directory, each followed by fdatasync, one after another, between the todod and the Redis runs of this figure: the floor of a durable update on this disk at this time.",
            "ReceivedFraction < 1: subscribers were sent fewer models than dispatches, because todod sends a subscriber that has not read its previous update only the newest model; their latencies still count, up to the model that included the change.",
        ]
        return report
    }

    private static func record(_ sample: FanOutSample, as name: String, in report: inout FigureReport) {
        report.details["\(name)P90Ms"] = sample.latency.p90
        report.details["\(name)MaxMs"] = sample.latency.max
        report.details["\(name)MeanMs"] = sample.latency.mean
        report.details["\(name)Latencies"] = Double(sample.latency.count)
        report.details["\(name)ReceivedFraction"] = sample.receivedFraction
        report.details["\(name)Unseen"] = Double(sample.unseen)
        report.details["\(name)AchievedPerSecond"] = sample.achievedRate
    }

    /// Starts the publisher's thread for both servers: message `index` sent by `send` once per
    /// period, then the stop message; the send times go to `sentAt`. A failure is recorded and
    /// `shutDown` ends the connection, so that the readers waiting on it stop too.
    static func startPacer(
        count: Int, periodNanoseconds: UInt64, sentAt: Locked<[UInt64]>, failure: Locked<String?>,
        send: @escaping @Sendable (Int) throws -> Void, sendStop: @escaping @Sendable () throws -> Void,
        shutDown: @escaping @Sendable () -> Void
    ) throws(BenchError) -> BenchThread {
        try BenchThread {
            do {
                let times = try Pacer.run(count: count, periodNanoseconds: periodNanoseconds, send: send)
                try sendStop()
                sentAt.withLock { $0 = times }
            } catch {
                failure.withLock { $0 = $0 ?? "publisher: \(error)" }
                shutDown()
            }
        }
    }

    /// The text of the list's one item: as long as makes the list model 128 bytes.
    static func itemText() -> String {
        let item = TodoItem(id: "", number: 1, text: "", completed: false, createdAt: 0)
        let empty = (try? WireJSON.encode(ListViewModel(state: TodoState(items: [item]), params: .init())))?.count ?? 80
        return String(repeating: "f", count: max(1, 128 - empty))
    }
}
