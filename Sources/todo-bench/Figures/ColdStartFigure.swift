import Foundation
import SyncJournal

/// Figure 6: cold start. The time from the exec of todod to its first `welcome`, on a journal
/// of a million actions with a snapshot near the end: the daemon loads the snapshot and
/// replays the tail after it.
enum ColdStartFigure {
    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        var report = FigureReport(figure: 6, title: "Cold start with \(options.coldActions) actions in the journal")
        let snapshotVersion = UInt64(options.coldActions - options.coldTail)
        context.progress(
            "figure 6: writing a journal of \(options.coldActions) actions (snapshot at \(snapshotVersion))")
        let pristine = try context.directory("figure6-journal")
        let building = MonotonicClock.now()
        let written = try JournalBuilder.write(
            dataDirectory: pristine, workload: .churn(liveItems: 1000), count: options.coldActions,
            snapshotVersion: snapshotVersion)
        let buildSeconds = MonotonicClock.seconds(from: building, to: MonotonicClock.now())

        context.progress("figure 6: \(options.coldRuns) starts")
        var readyMs: [Double] = []
        var recoveryMs: [Double] = []
        for run in 0..<options.coldRuns {
            // Each start gets a fresh copy: a clean stop saves a snapshot, which would shorten the next replay.
            let directory = try context.directory("figure6-run\(run)")
            try BenchContext.makeDirectory(directory + "/data")
            try copy(pristine + "/" + SQLiteJournal.fileName, to: directory + "/data/" + SQLiteJournal.fileName)
            let daemon = try TodoDaemon(context, directory: directory)
            readyMs.append(daemon.secondsToReady * 1000)
            if let logged = loggedRecoveryMilliseconds(daemon.process.standardError) { recoveryMs.append(logged) }
            try daemon.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let ready = Distribution(readyMs)
        report.rows.append(
            .absolute("exec to ready (median of \(options.coldRuns))", unit: "ms", ours: ready.p50, atMost: 1000))
        report.details["readyMaxMs"] = ready.max
        report.details["readyMinMs"] = ready.min
        report.details["loggedRecoveryMedianMs"] = Distribution(recoveryMs).p50
        report.details["journalBytes"] = Double(written.fileBytes)
        report.details["itemsAtEnd"] = Double(written.itemCount)
        report.details["journalBuildSeconds"] = buildSeconds
        report.notes = [
            "The journal is written directly with SQLiteJournal (schema 1), each action accepted and applied to a Store as the daemon does: a list in steady state (each add is followed by completing the item added 500 adds earlier and removing the one added 1000 earlier, about \(written.itemCount) items at the end), \(options.coldActions) actions, \(Report.format(Double(written.fileBytes) / 1_048_576)) MiB, a snapshot at version \(snapshotVersion), \(options.coldTail) actions after it.",
            "Ready: from just before posix_spawn to the welcome answering a hello, polled every 0.5 ms; each run on a fresh copy of the journal, page cache warm. loggedRecoveryMedianMs is the daemon's own 'recovered ... in T ms' (snapshot load and replay, after the journal was opened and checked).",
        ]
        return report
    }

    private static func copy(_ source: String, to destination: String) throws(BenchError) {
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            throw .file(path: destination, reason: "cannot copy the journal: \(error)")
        }
    }

    /// T from the daemon's line `recovered version V from FILE (...) in T ms`.
    static func loggedRecoveryMilliseconds(_ log: String) -> Double? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("recovered version") }) else {
            return nil
        }
        let words = line.split(separator: " ")
        guard words.count >= 2, words.last == "ms" else { return nil }
        return Double(words[words.count - 2])
    }
}
