import SyncJournal

/// What rebuilding the state at a past version starts from, as read from the journal: the
/// newest snapshot at or below the version, and the actions after it up to the version.
package enum PastStateBase: Sendable {
    /// Replay `entries` (consecutive, up to the version asked for) on `snapshot`, or on the
    /// initial state at version 0 when there is none.
    case replay(snapshot: Snapshot?, entries: [JournalEntry])
    /// More than the replay limit of actions lie between the nearest snapshot (at
    /// `snapshotVersion`, 0 for the initial state) and the version; nothing more was read.
    case beyondLimit(snapshotVersion: UInt64)
    /// The journal has no action at `version`, which the rebuild needs.
    case missing(version: UInt64)

    /// Reads the base of `version` from `journal`, reading no more than `replayLimit` actions.
    /// Runs on the journal's job thread.
    package static func read(_ version: UInt64, replayLimit: Int, from journal: any Journal) throws(JournalError)
        -> PastStateBase
    {
        let snapshot = try journal.snapshot(atOrBelow: version)
        let start = snapshot?.version ?? 0
        let needed = version - start
        guard needed <= UInt64(replayLimit) else { return .beyondLimit(snapshotVersion: start) }
        let entries = needed == 0 ? [] : try journal.entries(after: start, limit: Int(needed))
        for (offset, entry) in entries.enumerated() where entry.version != start + 1 + UInt64(offset) {
            return .missing(version: start + 1 + UInt64(offset))
        }
        guard UInt64(entries.count) == needed else { return .missing(version: start + 1 + UInt64(entries.count)) }
        return .replay(snapshot: snapshot, entries: entries)
    }
}
