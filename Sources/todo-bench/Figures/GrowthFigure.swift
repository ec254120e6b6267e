import SyncClient
import SyncLock
import TodoDomain

/// Figure 5: what one toggle costs as the list grows: its dispatch latency (dispatch to ack,
/// with a subscriber of the whole list attached) and the bytes of the update each subscriber
/// receives, for lists of 100, 10k and 100k items.
enum GrowthFigure {
    /// What one list size measured.
    struct Sample {
        /// Items in the list.
        var items: Int
        /// Dispatch-to-ack latencies of the measured toggles, in milliseconds.
        var latencyMs: Distribution
        /// Bytes of update frame per toggle received by the subscriber (headers included).
        var updateBytes: Double
        /// Bytes of the first update (the whole list at subscription).
        var firstModelBytes: Int
    }

    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    ///
    /// Every size's daemon runs for the whole figure and the toggles go in rounds, a few per
    /// size in turn, so that each size meets the same moments of the machine's other load
    /// (the disk's above all): measured one after the other, the smallest list's median moved
    /// by a third between runs, and with it every ratio.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        var report = FigureReport(figure: 5, title: "Cost of one toggle as the list grows")
        var lists: [ToggledList] = []
        defer { for list in lists { list.stop() } }
        for (index, size) in context.options.growthSizes.enumerated() {
            context.progress("figure 5: a list of \(size) items")
            lists.append(try await ToggledList(context, items: size, directoryName: "figure5-\(index)-\(size)"))
        }
        let toggles = context.options.growthToggles
        let rounds = min(toggles, 10)
        context.progress("figure 5: \(toggles) toggles per list, in \(rounds) rounds")
        for round in 0..<rounds {
            let count = toggles / rounds + (round < toggles % rounds ? 1 : 0)
            for list in lists { try await list.toggle(count) }
        }
        var samples: [Sample] = []
        for list in lists { samples.append(try await list.finish(expecting: toggles)) }
        guard let smallest = samples.first else { return report }
        let largest = samples.count > 1 ? samples.last : nil
        for sample in samples {
            let isLargest = sample.items == largest?.items
            report.rows.append(
                .relative(
                    "toggle latency p50, \(sample.items) items", unit: "ms", ours: sample.latencyMs.p50,
                    baseline: smallest.latencyMs.p50,
                    baselineName: "\(smallest.items) items", targetRatio: isLargest ? 1.2 : nil))
            report.rows.append(
                .absolute(
                    "update per subscriber, \(sample.items) items", unit: "bytes", ours: sample.updateBytes,
                    atMost: isLargest ? 512 : nil))
            report.details["items\(sample.items)LatencyP90Ms"] = sample.latencyMs.p90
            report.details["items\(sample.items)LatencyMaxMs"] = sample.latencyMs.max
            report.details["items\(sample.items)FirstModelBytes"] = Double(sample.firstModelBytes)
        }
        report.notes = [
            "For each N a journal of N adds with a snapshot at N is written directly (see figure 6) and a todod starts on it; one raw connection that takes patches (hello features [\"patch\"], as SyncClient does) subscribes to list (all items) and counts the bytes of each update frame (header included): the first is the whole model, the toggles' are patches; a SyncClient then dispatches complete and reopen of the middle item alternately, \(toggles) measured after 2 unmeasured, each awaited and seen by the subscriber before the next (so no update is coalesced).",
            "The daemons of all sizes run together and the toggles go in \(rounds) rounds, the sizes in turn, so that every size meets the same moments of the machine's load.",
            "Latency is dispatch to ack at the SyncClient: it includes recomputing and encoding the list for the subscriber, which the daemon does before it sends the ack.",
            "No periodic snapshot falls inside the measured toggles (none is due sooner than 1000 versions after the start) while there are fewer than 998 toggles; its cost, an encoding of the whole state every 1000 to 2500 versions (todod's default lets a multiple of 1000 pass while the actions since the last snapshot hold less than four times it), is not in these numbers.",
        ]
        return report
    }

    /// One list size under measurement: its daemon, the subscriber counting update bytes, and
    /// the client that toggles the middle item.
    private final class ToggledList {
        let items: Int
        private let daemon: TodoDaemon
        private let subscriber: FrameSocket
        private let firstModelBytes: Int
        private let received: Locked<(lastVersion: UInt64, frames: Int, bytes: Int)>
        private let failure = Locked<String?>(nil)
        private let reader: BenchThread
        private let client: SyncClient
        private var latencies: [Double] = []
        private var measuredFrom = (frames: 0, bytes: 0)
        private var toggled = 0
        private var finished = false

        /// Writes the journal in `directoryName`, starts the daemon, subscribes, and makes two
        /// unmeasured toggles. If this throws, the daemon's `deinit` kills it, which also ends
        /// the subscriber's reader thread.
        init(_ context: BenchContext, items: Int, directoryName: String) async throws {
            self.items = items
            let directory = try context.directory(directoryName)
            _ = try JournalBuilder.write(
                dataDirectory: directory + "/data", workload: .adds, count: items, snapshotVersion: UInt64(items))
            daemon = try TodoDaemon(context, directory: directory)
            let subscriber = try daemon.rawConnection(features: ["patch"])
            self.subscriber = subscriber
            firstModelBytes = try subscriber.subscribe(
                viewModel: ListViewModel.wireName, params: ListViewModel.Params())
            let received = Locked((lastVersion: UInt64(items), frames: 0, bytes: 0))
            self.received = received
            let failure = failure
            reader = try BenchThread {
                do {
                    while let frame = try subscriber.nextFrame() {
                        guard let version = try UpdateFrame.version(of: frame) else { continue }
                        received.withLock { $0 = (version, $0.frames + 1, $0.bytes + 4 + frame.count) }
                    }
                } catch {
                    failure.withLock { $0 = "subscriber: \(error)" }
                }
            }
            client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "todo-bench/5")
            try await toggle(2)
            latencies.removeAll()
            measuredFrom = received.withLock { ($0.frames, $0.bytes) }
        }

        /// Toggles the middle item `count` times, each awaited and seen by the subscriber.
        func toggle(_ count: Int) async throws {
            let number = max(1, items / 2)
            for _ in 0..<count {
                let started = MonotonicClock.now()
                let version =
                    toggled % 2 == 0
                    ? try await client.dispatch(CompleteItem(number: number))
                    : try await client.dispatch(ReopenItem(number: number))
                latencies.append(Double(MonotonicClock.now() - started) / 1e6)
                toggled += 1
                try await MonotonicClock.pollFromTask("the subscriber to receive version \(version)", timeout: 120) {
                    received.withLock { $0.lastVersion } >= version || failure.withLock { $0 } != nil
                }
            }
        }

        /// Stops everything and returns what was measured, checking that each of the `toggles`
        /// measured toggles sent the subscriber one update.
        func finish(expecting toggles: Int) async throws -> Sample {
            finished = true
            client.close()
            subscriber.stream.shutDown()
            await reader.joinFromTask()
            try daemon.stop()
            if let failure = failure.withLock({ $0 }) { throw BenchError.process(name: "figure 5", reason: failure) }
            let totals = received.withLock { ($0.frames, $0.bytes) }
            let updates = totals.0 - measuredFrom.frames
            guard updates == toggles else {
                throw BenchError.unexpectedReply(from: "todod", reply: "\(updates) updates for \(toggles) toggles")
            }
            return Sample(
                items: items, latencyMs: Distribution(latencies),
                updateBytes: Double(totals.1 - measuredFrom.bytes) / Double(updates), firstModelBytes: firstModelBytes)
        }

        /// Stops the subscriber and the daemon if the figure failed before `finish`.
        func stop() {
            guard !finished else { return }
            finished = true
            client.close()
            subscriber.stream.shutDown()
            try? daemon.stop()
        }
    }
}
