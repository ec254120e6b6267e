import SyncJournal

/// A journal whose every append fails with `error`: the flush failures a real disk gives only
/// rarely (an `fsync` that fails after the write), which no test can provoke on demand.
final class FailingJournal: Journal {
    let error: JournalError
    init(_ error: JournalError) { self.error = error }
    func prepareForWriting() throws(JournalError) {}
    func lastVersion() throws(JournalError) -> UInt64 { 0 }
    func append(_ entries: [JournalEntry], snapshot: Snapshot?) throws(JournalError) { throw error }
    func entries(after version: UInt64, limit: Int) throws(JournalError) -> [JournalEntry] { [] }
    func latestSnapshot() throws(JournalError) -> Snapshot? { nil }
    func snapshot(atOrBelow version: UInt64) throws(JournalError) -> Snapshot? { nil }
    var snapshotSpacing: UInt64 = 0
    var location: String { "/nowhere/journal.sqlite3" }
}
