import SyncJournal
import SyncProtocol
import TodoDomain

/// Figure 12: memory per item. A fresh daemon takes N adds of 200-character texts; its resident
/// set (`VmRSS`) is compared with the size of the state it holds, encoded as the daemon encodes
/// it (the JSON of the snapshot it saves when it stops).
enum StateMemoryFigure {
    /// Measures the figure (starting and stopping its own daemon) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let items = context.options.memoryItems
        let text = StalledSubscriberFigure.text
        var report = FigureReport(figure: 12, title: "Memory against the encoded state, \(items) items")
        context.progress("figure 12: \(items) adds of \(text.count) characters, then the daemon's RSS and its snapshot")
        let daemon = try TodoDaemon(
            context, directory: try context.directory("figure12-todod"),
            extraArguments: ["--snapshot-interval", String(snapshotInterval)])
        MonotonicClock.sleep(seconds: IdleMemoryFigure.settleSeconds)
        let emptyResident = try daemon.process.residentBytes()
        _ = try PipelinedWriter(
            socketPath: daemon.socketPath, clients: StalledSubscriberFigure.clients,
            depth: StalledSubscriberFigure.depth, total: items
        ) { id, _ in DispatchLoad.addFrame(id: id, text: text) }.run()
        // The last snapshot due is encoded and saved after the last ack (it takes about a
        // second at 100,000 items): the figure is the daemon at rest, once it is in the journal.
        let snapshotDue = UInt64(items) / snapshotInterval * snapshotInterval
        let journalPath = daemon.dataDirectory + "/" + SQLiteJournal.fileName
        if snapshotDue > 0 {
            // Blocking, as the sleeps around it: nothing else runs in the bench meanwhile.
            try MonotonicClock.poll("the snapshot at version \(snapshotDue)", timeout: 120, interval: 0.05) {
                () throws(BenchError) -> Bool? in
                let newest = try newestSnapshotVersion(journalPath) ?? 0
                return newest >= snapshotDue ? true : nil
            }
        }
        MonotonicClock.sleep(seconds: IdleMemoryFigure.settleSeconds)
        let resident = try daemon.process.residentBytes()
        let peak = try daemon.process.statusBytes("VmHWM")
        let data = try daemon.process.statusBytes("VmData")
        try daemon.stop()
        let state = try finalState(dataDirectory: daemon.dataDirectory, version: UInt64(items))

        let mebibyte = Double(1 << 20)
        report.rows.append(.absolute("daemon RSS", unit: "MiB", ours: Double(resident) / mebibyte, atMost: nil))
        report.rows.append(.absolute("encoded state", unit: "MiB", ours: Double(state) / mebibyte, atMost: nil))
        report.rows.append(
            .relative(
                "daemon RSS over the encoded state", unit: "MiB", ours: Double(resident) / mebibyte,
                baseline: Double(state) / mebibyte, baselineName: "the encoded state", targetRatio: 3))
        // The empty daemon's RSS is mostly the code of the binary and its shared libraries.
        report.rows.append(
            .absolute("empty daemon RSS", unit: "MiB", ours: Double(emptyResident) / mebibyte, atMost: nil))
        report.rows.append(
            .relative(
                "RSS growth over the encoded state", unit: "MiB",
                ours: Double(resident - emptyResident) / mebibyte, baseline: Double(state) / mebibyte,
                baselineName: "the encoded state", targetRatio: 3))
        report.rows.append(.absolute("peak RSS (VmHWM)", unit: "MiB", ours: Double(peak) / mebibyte, atMost: nil))
        report.details["rssBytes"] = Double(resident)
        report.details["peakRSSBytes"] = Double(peak)
        report.details["emptyRSSBytes"] = Double(emptyResident)
        report.details["dataBytes"] = Double(data)
        report.details["encodedStateBytes"] = Double(state)
        report.details["rssGrowthPerItemBytes"] = Double(resident - emptyResident) / Double(items)
        report.details["encodedBytesPerItem"] = Double(state) / Double(items)
        report.notes = [
            "A fresh todod with an empty journal takes \(items) adds of a \(text.count)-character text from \(StalledSubscriberFigure.clients) raw connections with \(StalledSubscriberFigure.depth) in flight each (figure 8's load, no subscriber); VmRSS from /proc/PID/status \(IdleMemoryFigure.settleSeconds) s after the journal holds the last snapshot due (every \(snapshotInterval) versions exactly, given with --snapshot-interval so that the last one is known: todod's default lets some of these pass for a state this large; it is encoded and saved after the last ack), emptyRSSBytes the same before the first add, and the peak (VmHWM) of the whole run. The encoded state is the JSON of the snapshot the daemon saves when it stops (SIGTERM), read back from its journal and checked to be at version \(items): the state as the daemon itself encodes it. dataBytes is VmData (allocated, resident or not)."
        ]
        return report
    }

    /// How often the daemon saves a snapshot (`--snapshot-interval`: exactly, where todod's
    /// default lets some multiples of its 1000 pass for a large state).
    private static let snapshotInterval: UInt64 = 1000

    /// The version of the newest snapshot in the journal at `path`, read while the daemon runs.
    private static func newestSnapshotVersion(_ path: String) throws(BenchError) -> UInt64? {
        do {
            return try SQLiteJournal.newestSnapshotVersion(path: path)
        } catch {
            throw .file(path: path, reason: "cannot read its snapshots: \(error)")
        }
    }

    /// The bytes of the state in the newest snapshot of the journal in `dataDirectory`, which
    /// must be at `version`.
    private static func finalState(dataDirectory: String, version: UInt64) throws(BenchError) -> Int {
        let path = dataDirectory + "/" + SQLiteJournal.fileName
        let snapshot: Snapshot?
        do {
            snapshot = try SQLiteJournal(path: path).latestSnapshot()
        } catch {
            throw .file(path: path, reason: "cannot read the snapshot: \(error)")
        }
        guard let snapshot, snapshot.version == version else {
            throw .unexpectedReply(
                from: "todod",
                reply:
                    "its snapshot after the stop is at version \(snapshot.map { String($0.version) } ?? "none"), not \(version)"
            )
        }
        return snapshot.state.count
    }
}
