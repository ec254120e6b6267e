import SyncLock
import SyncProtocol
import TodoDomain

/// Figure 9: cross-host latency on a shared log. Two daemons on two simulated hosts share one
/// log in PostgreSQL; a raw connection to the first dispatches at a steady pace (100 per
/// second), and a subscriber of `summary` on the second daemon times each change's arrival:
/// from the dispatch's write on host 1 to the update in hand on host 2. A subscriber on host 1
/// and the acks give the same dispatch's local update and commit; the time from the ack to
/// the update on host 2 is what the way from one host to the other costs (notification,
/// catch-up read, apply).
enum CrossHostLatencyFigure {
    /// Measures the figure (starting and stopping its own daemons) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        let lab = try context.sharedLogLab()
        let rate = options.crossHostRate
        let count = max(10, Int(options.crossHostSeconds * Double(rate)))
        var report = FigureReport(figure: 9, title: "Cross-host latency on a shared log, \(rate) dispatches/s")
        var probe: FsyncProbe?
        if options.fsyncTestSeconds > 0 {
            context.progress(
                "figure 9: pg_test_fsync -s \(options.fsyncTestSeconds) beside the database (about \(options.fsyncTestSeconds * 15) s)"
            )
            probe = try FsyncProbe(directory: lab.server.directory, seconds: options.fsyncTestSeconds)
        }
        try lab.createDatabase("figure9")
        context.progress(
            "figure 9: \(count) dispatches at \(rate)/s to a daemon on host 1, a subscriber of summary on host 2 (and one on host 1)"
        )
        let writer = try lab.startDaemon(
            context, host: 0, database: "figure9", directory: try context.directory("figure9-host1"))
        let reader = try lab.startDaemon(
            context, host: 1, database: "figure9", directory: try context.directory("figure9-host2"))
        try writer.addItems(1)
        let remote = try UpdateRecorder(daemon: reader, viewModel: SummaryViewModel.wireName)
        let local = try UpdateRecorder(daemon: writer, viewModel: SummaryViewModel.wireName)
        try await remote.wait(forVersion: 1, what: "the subscriber on host 2", timeout: 30)
        try lab.server.sql("SELECT pg_stat_reset_shared('wal')")

        let paced = try await dispatchPaced(to: writer, count: count, periodNanoseconds: UInt64(1e9 / Double(rate)))
        // The end-of-run message: the toggles alternate, so a daemon that applies the last two
        // together (a catch-up of both) has no new summary to send for them; an add always has.
        let last = try writer.addItems(1)
        try await remote.wait(forVersion: last, what: "the subscriber on host 2", timeout: 60)
        try await local.wait(forVersion: last, what: "the subscriber on host 1", timeout: 60)
        let remoteArrivals = await remote.finish()
        let localArrivals = await local.finish()
        try writer.stop()
        try reader.stop()
        let wal = try WALFlushes(lab.server, database: "figure9")

        let warmUp = count / 10
        let remoteSample = FanOutSample(
            sentAt: paced.sentAt, keys: paced.versions, arrivals: [remoteArrivals], warmUp: warmUp)
        let localSample = FanOutSample(
            sentAt: paced.sentAt, keys: paced.versions, arrivals: [localArrivals], warmUp: warmUp)
        let ack = Distribution(
            (warmUp..<count).map { (index: Int) -> Double in
                Double(paced.ackedAt[index] &- paced.sentAt[index]) / 1e6
            })
        // Host 2 can show a change before host 1's ack is read (the reader thread waits for a
        // core on a busy machine): the way between the hosts then added nothing, so 0, not a
        // negative latency.
        let crossings = delays(after: paced.ackedAt, keys: paced.versions, arrivals: remoteArrivals, from: warmUp)
        let crossing = Distribution(crossings.map { max(0, $0) })
        report.tails = [
            LatencyTail("subscriber on another host", remoteSample.latency),
            LatencyTail("subscriber on the same host", localSample.latency), LatencyTail("dispatch to ack", ack),
            LatencyTail("ack to update on another host", crossing),
        ]
        report.rows.append(
            .absolute("p50, subscriber on another host", unit: "ms", ours: remoteSample.latency.p50, atMost: nil))
        report.rows.append(
            .absolute("p99, subscriber on another host", unit: "ms", ours: remoteSample.latency.p99, atMost: 20))
        report.rows.append(
            .absolute("p50, subscriber on the same host", unit: "ms", ours: localSample.latency.p50, atMost: nil))
        report.rows.append(
            .absolute("p99, subscriber on the same host", unit: "ms", ours: localSample.latency.p99, atMost: nil))
        report.rows.append(.absolute("p50, dispatch to ack", unit: "ms", ours: ack.p50, atMost: nil))
        report.rows.append(.absolute("p99, dispatch to ack", unit: "ms", ours: ack.p99, atMost: nil))
        report.rows.append(
            .absolute("p50, ack on host 1 to update on host 2", unit: "ms", ours: crossing.p50, atMost: nil))
        report.rows.append(
            .absolute("p99, ack on host 1 to update on host 2", unit: "ms", ours: crossing.p99, atMost: nil))
        if let probe {
            report.rows.append(
                .absolute(
                    "8 kB write + fdatasync (pg_test_fsync)", unit: "ms", ours: probe.fdatasyncMicroseconds / 1000,
                    atMost: nil))
        }
        if let mean = wal.meanSyncMilliseconds {
            report.rows.append(.absolute("WAL flush during the run, mean", unit: "ms", ours: mean, atMost: nil))
        }
        record(remoteSample.latency, as: "remote", in: &report)
        record(localSample.latency, as: "local", in: &report)
        record(ack, as: "ack", in: &report)
        record(crossing, as: "ackToRemote", in: &report)
        report.details["ackToRemoteUpdatesFirst"] = Double(crossings.filter { $0 < 0 }.count)
        report.details["remoteUnseen"] = Double(remoteSample.unseen)
        report.details["remoteReceivedFraction"] = remoteSample.receivedFraction
        report.details["achievedPerSecond"] = remoteSample.achievedRate
        report.details["walSyncs"] = wal.syncs
        report.details["walSyncMilliseconds"] = wal.syncMilliseconds
        report.details["walWrites"] = wal.writes
        if let probe {
            report.details["pgTestFsyncFdatasyncUs"] = probe.fdatasyncMicroseconds
            if let fsync = probe.fsyncMicroseconds { report.details["pgTestFsyncFsyncUs"] = fsync }
            if let open = probe.openDatasyncMicroseconds { report.details["pgTestFsyncOpenDatasyncUs"] = open }
        }
        report.notes = [
            "Two todod on one log in PostgreSQL (\(lab.transport)), a list of one item. A raw connection to the daemon on host 1, on its own thread, writes one dispatch every \(1000 / rate) ms (complete, reopen, ... of the item; \(count) in all, open loop: it does not wait for acks); a raw subscriber of summary on host 2 and one on host 1, each read by its own thread, note when each update arrives. Latency runs from just before the dispatch's write to the first update whose version is at least the dispatch's; ack to update on host 2 runs from the ack's read on host 1 to that update on host 2 (0 when the update came first). The first 10% are not measured.",
            "Every update and ack follows the commit in PostgreSQL (fsync on, synchronous_commit on, wal_sync_method fdatasync). The daemon on host 2 learns of the commit from LISTEN/NOTIFY on its listener connection, then reads the new entries on its thread pool, checks their chained hashes, applies them and publishes.",
            "WAL flush: pg_stat_wal's wal_sync_time over wal_sync during the run (track_wal_io_timing on), read after both daemons' sessions ended; reads write no WAL, so these are the appends' (and the snapshots', one per 1000 versions)."
                + (probe == nil
                    ? " pg_test_fsync was not run (--fsync-test-seconds 0)."
                    : " pg_test_fsync -s \(options.fsyncTestSeconds) ran on the database's file system just before, nothing else of the bench running."),
        ]
        return report
    }

    /// What the paced publisher sent and got back.
    private struct Paced {
        /// When each dispatch was written.
        var sentAt: [UInt64]
        /// The version each dispatch was acked with.
        var versions: [UInt64]
        /// When each ack was read.
        var ackedAt: [UInt64]
    }

    /// Writes `count` toggles of item 1 to `daemon`, one per period, and reads their acks on
    /// another thread.
    private static func dispatchPaced(to daemon: TodoDaemon, count: Int, periodNanoseconds: UInt64) async throws
        -> Paced
    {
        let publisher = try daemon.rawConnection()
        defer { publisher.stream.shutDown() }
        let frames: [[UInt8]] = (0..<count).map { index in
            let id = Int64(index + 1)
            let payload = FrameSocket.encode {
                index % 2 == 0
                    ? try DispatchRequest(id: id, actionName: CompleteItem.wireName).encoded(
                        payload: CompleteItem(number: 1))
                    : try DispatchRequest(id: id, actionName: ReopenItem.wireName).encoded(
                        payload: ReopenItem(number: 1))
            }
            return FrameEncoder.frame(payload)
        }
        let acks = Locked((versions: [UInt64](repeating: 0, count: count), at: [UInt64](repeating: 0, count: count)))
        let sentAt = Locked([UInt64]())
        let failure = Locked<String?>(nil)
        let reader = try BenchThread {
            do {
                for _ in 0..<count {
                    let reply = try publisher.nextReply()
                    let at = MonotonicClock.now()
                    guard case .ack(let id, let version) = reply, (1...Int64(count)).contains(id) else {
                        throw BenchError.unexpectedReply(from: "todod", reply: FrameSocket.describe(reply))
                    }
                    acks.withLock {
                        $0.versions[Int(id - 1)] = version
                        $0.at[Int(id - 1)] = at
                    }
                }
            } catch {
                failure.withLock { $0 = $0 ?? "acks: \(error)" }
            }
        }
        let pacer = try FanOutFigure.startPacer(
            count: count, periodNanoseconds: periodNanoseconds, sentAt: sentAt, failure: failure,
            send: { index in try publisher.send(framed: frames[index]) }, sendStop: {},
            shutDown: { publisher.stream.shutDown() })
        await pacer.joinFromTask()
        await reader.joinFromTask()
        if let failure = failure.withLock({ $0 }) { throw BenchError.process(name: "figure 9", reason: failure) }
        let (versions, ackedAt) = acks.withLock { ($0.versions, $0.at) }
        return Paced(sentAt: sentAt.withLock { $0 }, versions: versions, ackedAt: ackedAt)
    }

    /// For each dispatch from `first` on, the time from `times[i]` to the first arrival whose
    /// version is at least `keys[i]` (both in version order), in milliseconds; dispatches never
    /// seen are left out (`FanOutSample` counts them).
    private static func delays(after times: [UInt64], keys: [UInt64], arrivals: [Arrival], from first: Int) -> [Double]
    {
        var next = 0
        var delays: [Double] = []
        for index in first..<keys.count {
            while next < arrivals.count && arrivals[next].key < keys[index] { next += 1 }
            guard next < arrivals.count else { break }
            delays.append(Double(Int64(bitPattern: arrivals[next].at &- times[index])) / 1e6)
        }
        return delays
    }

    private static func record(_ latency: Distribution, as name: String, in report: inout FigureReport) {
        report.details["\(name)P50Ms"] = latency.p50
        report.details["\(name)P90Ms"] = latency.p90
        report.details["\(name)P99Ms"] = latency.p99
        report.details["\(name)MaxMs"] = latency.max
        report.details["\(name)MeanMs"] = latency.mean
        report.details["\(name)Latencies"] = Double(latency.count)
    }
}
