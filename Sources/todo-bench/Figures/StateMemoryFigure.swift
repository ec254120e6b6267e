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
        let daemon = try TodoDaemon(context, directory: try context.directory("figure12-todod"))
        MonotonicClock.sleep(seconds: IdleMemoryFigure.settleSeconds)
        let emptyResident = try daemon.process.residentBytes()
        _ = try PipelinedWriter(
            socketPath: daemon.socketPath, clients: StalledSubscriberFigure.clients,
            depth: StalledSubscriberFigure.depth, total: items
        ) { id, _ in DispatchLoad.addFrame(id: id, text: text) }.run()
        // Let the commit and snapshot in flight (one is due at every 1000th version) finish.
        MonotonicClock.sleep(seconds: IdleMemoryFigure.settleSeconds)
        let resident = try daemon.process.residentBytes()
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
        report.details["rssBytes"] = Double(resident)
        report.details["emptyRSSBytes"] = Double(emptyResident)
        report.details["dataBytes"] = Double(data)
        report.details["encodedStateBytes"] = Double(state)
        report.details["rssGrowthPerItemBytes"] = Double(resident - emptyResident) / Double(items)
        report.details["encodedBytesPerItem"] = Double(state) / Double(items)
        report.notes = [
            "A fresh todod with an empty journal takes \(items) adds of a \(text.count)-character text from \(StalledSubscriberFigure.clients) raw connections with \(StalledSubscriberFigure.depth) in flight each (figure 8's load, no subscriber); VmRSS from /proc/PID/status \(IdleMemoryFigure.settleSeconds) s after the last ack (emptyRSSBytes: the same before the first add). The encoded state is the JSON of the snapshot the daemon saves when it stops (SIGTERM), read back from its journal and checked to be at version \(items): the state as the daemon itself encodes it. dataBytes is VmData (allocated, resident or not)."
        ]
        return report
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
