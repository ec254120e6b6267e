import SyncProtocol
import TodoDomain

/// Figure 8: what one subscriber that stops reading costs everyone else. N adds of
/// 200-character texts into an empty daemon, once with no subscriber and once with one raw
/// subscriber of the whole `list` (no `patch` feature) that reads its first model and then
/// nothing, as a `todo watch` stopped with Ctrl-Z does: the dispatch throughput of both, and
/// the daemon's resident set after the adds.
enum StalledSubscriberFigure {
    /// The text of every add.
    static let text = String(repeating: "s", count: 200)
    /// Connections sending the adds.
    static let clients = 4
    /// Adds in flight per connection.
    static let depth = 4

    /// What one daemon measured.
    private struct Sample {
        var rate: Double
        var residentBytes: Int
        var actionsPerCommit: Double?
    }

    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    ///
    /// Each round starts two fresh daemons, the one without the subscriber first, so that
    /// both meet the same moments of the machine's other load.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let items = context.options.stalledItems
        let rounds = context.options.rounds
        var report = FigureReport(figure: 8, title: "One subscriber that stops reading, \(items) adds")
        var alone = Throughput()
        var stalled = Throughput()
        var aloneResident: [Int] = []
        var stalledResident: [Int] = []
        var commitSizes: [Double] = []
        for round in 0..<rounds {
            context.progress(
                "figure 8: round \(round + 1) of \(rounds): \(items) adds without, then with, a stalled subscriber")
            let without = try measure(
                context, items: items, stalledSubscriber: false, directoryName: "figure8-\(round)-alone")
            alone.add(items, rate: without.rate)
            aloneResident.append(without.residentBytes)
            let with = try measure(
                context, items: items, stalledSubscriber: true, directoryName: "figure8-\(round)-stalled")
            stalled.add(items, rate: with.rate)
            stalledResident.append(with.residentBytes)
            commitSizes += [without.actionsPerCommit, with.actionsPerCommit].compactMap { $0 }
        }
        let differences = zip(stalledResident, aloneResident).map { Double($0 - $1) }.sorted()
        let medianDifference = differences[differences.count / 2]
        report.rows.append(
            .relative(
                "dispatch throughput, 1 stalled list subscriber", unit: "actions/s", ours: stalled.rate,
                baseline: alone.rate,
                baselineName: "no subscriber", targetRatio: 0.8, higherIsBetter: true))
        report.rows.append(
            .absolute(
                "daemon RSS growth, 1 stalled list subscriber", unit: "MiB",
                ours: max(0, medianDifference) / Double(1 << 20), atMost: 16))
        report.details["rssDifferenceMedianBytes"] = medianDifference
        report.details["rssDifferenceMinBytes"] = differences.first
        report.details["rssDifferenceMaxBytes"] = differences.last
        report.details["noSubscriberActionsPerSecond"] = alone.rate
        report.details["noSubscriberRSSBytesMedian"] = Double(aloneResident.sorted()[aloneResident.count / 2])
        report.details["stalledSubscriberRSSBytesMedian"] = Double(stalledResident.sorted()[stalledResident.count / 2])
        if !commitSizes.isEmpty {
            report.details["actionsPerCommit"] = commitSizes.reduce(0, +) / Double(commitSizes.count)
        }
        report.notes = [
            "Each round: a fresh todod with an empty journal takes \(items) adds of a \(text.count)-character text from \(clients) raw connections with \(depth) in flight each (as figure 2 sends its edits); then another fresh todod takes the same with one more raw connection, greeted without features (whole models), subscribed to list (all items), that reads its first model and then nothing until the adds are acknowledged.",
            "Throughput is acknowledged adds per second over \(rounds) rounds (total adds over total time). RSS growth is VmRSS of the daemon with the stalled subscriber minus that of the daemon without, each read \(IdleMemoryFigure.settleSeconds) s after the last add is acknowledged (a snapshot may be due at every 1000th version); the median over the rounds (rssDifferenceMedianBytes, with the smallest and largest of the rounds; a negative difference, two processes' noise, is shown as 0).",
            "Then the stalled subscriber reads again, and the figure checks that it is still connected and ends on the model of the last version; actionsPerCommit is the daemons' own average (fewer actions per commit means more versions, each a model for the subscriber).",
        ]
        return report
    }

    /// One fresh daemon taking `items` adds, with or without the stalled subscriber.
    private static func measure(_ context: BenchContext, items: Int, stalledSubscriber: Bool, directoryName: String)
        throws(BenchError) -> Sample
    {
        let daemon = try TodoDaemon(context, directory: try context.directory(directoryName))
        var subscriber: FrameSocket?
        if stalledSubscriber {
            let socket = try daemon.rawConnection()
            _ = try socket.subscribe(viewModel: ListViewModel.wireName, params: ListViewModel.Params())
            subscriber = socket
        }
        let rate = try PipelinedWriter(socketPath: daemon.socketPath, clients: clients, depth: depth, total: items) {
            id, _ in DispatchLoad.addFrame(id: id, text: text)
        }.run()
        // Let the commit and snapshot in flight (one may be due at every 1000th version) finish.
        MonotonicClock.sleep(seconds: IdleMemoryFigure.settleSeconds)
        let resident = try daemon.process.residentBytes()
        if let subscriber { try catchUp(subscriber, to: UInt64(items)) }
        try daemon.stop()
        return Sample(
            rate: rate, residentBytes: resident,
            actionsPerCommit: CommitCounts(log: daemon.process.standardError)?.actionsPerCommit)
    }

    /// Reads the stalled subscriber's updates until one of `version` arrives.
    private static func catchUp(_ subscriber: FrameSocket, to version: UInt64) throws(BenchError) {
        while true {
            guard let frame = try subscriber.nextFrame() else {
                throw .unexpectedReply(
                    from: "todod", reply: "the stalled subscriber was disconnected before version \(version)")
            }
            if let received = try UpdateFrame.version(of: frame), received >= version { return }
        }
    }
}
