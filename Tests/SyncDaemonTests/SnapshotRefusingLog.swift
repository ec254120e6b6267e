import SyncJournal

/// A shared log that keeps every entry, in a real SQLite journal, and refuses every snapshot,
/// as PostgreSQL does to a role without `INSERT` on the snapshots (which the integration tests
/// run for real): what no test can make a real shared log do at a chosen commit.
final class SnapshotRefusingLog: Journal {
    let entriesKeptIn: SQLiteJournal
    /// The snapshots it was given, and refused.
    private(set) var refusedSnapshots = 0
    private(set) var lastSnapshotFailure: JournalError?

    init(keepingEntriesIn journal: SQLiteJournal) { entriesKeptIn = journal }

    var isShared: Bool { true }
    var location: String { entriesKeptIn.location }
    var snapshotSpacing: UInt64 {
        get { entriesKeptIn.snapshotSpacing }
        set { entriesKeptIn.snapshotSpacing = newValue }
    }
    func prepareForWriting() throws(JournalError) { try entriesKeptIn.prepareForWriting() }
    func lastVersion() throws(JournalError) -> UInt64 { try entriesKeptIn.lastVersion() }
    func entries(after version: UInt64, limit: Int) throws(JournalError) -> [JournalEntry] {
        try entriesKeptIn.entries(after: version, limit: limit)
    }
    func latestSnapshot() throws(JournalError) -> Snapshot? { nil }
    func snapshot(atOrBelow version: UInt64) throws(JournalError) -> Snapshot? { nil }

    func append(_ entries: [JournalEntry], snapshot: Snapshot?) throws(JournalError) {
        lastSnapshotFailure = nil
        try entriesKeptIn.append(entries, snapshot: nil)
        guard let snapshot else { return }
        refusedSnapshots += 1
        lastSnapshotFailure = .storage(
            path: location, operation: "saving the snapshot at version \(snapshot.version)",
            reason: "permission denied for table todod_snapshots")
    }
}
