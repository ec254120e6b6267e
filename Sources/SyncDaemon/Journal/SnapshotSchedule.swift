import SyncJournal

/// When the journal writer saves a snapshot, decided from the batches it commits. A value the
/// loop thread keeps and alone changes.
///
/// A snapshot is due when a batch crosses a multiple of `interval`. A schedule that follows the
/// snapshots' size (the daemon's default) lets such a point pass while the actions journaled
/// since the last snapshot hold fewer bytes than `growthFactor` times that snapshot: a large
/// state beside small actions would otherwise cost more to save, again and again, than the
/// actions themselves (a restart then replays more actions, at most `growthFactor` snapshots'
/// worth). It lets no point pass that would leave more than `maximumSpacing` versions from
/// the last snapshot to the next multiple, so that every version stays within reach of time
/// travel's replay.
///
/// The schedule moves only with what is durable: `isDue` only looks, `committed` counts a batch
/// once its commit succeeded (so a batch overtaken on a shared log, or rolled back, is looked at
/// again when it comes back), and a snapshot that is due but never saved (its encoding or its
/// write failed) is reported with `snapshotLost`, which makes the next multiple due.
struct SnapshotSchedule: Equatable {
    /// How many times a snapshot's size the actions journaled after it must hold before the
    /// next one, in a schedule that follows the size.
    static let growthFactor = 4

    /// Where a schedule starts: the newest snapshot in the journal and what was journaled after it.
    struct Origin: Equatable {
        /// The version of the snapshot (0: none).
        var version: UInt64
        /// The bytes of the snapshot, its state and its ledger (0: none).
        var snapshotBytes: Int
        /// The bytes of the actions after it (see `bytes(of:)`).
        var bytesSince: Int

        /// A journal without a snapshot or an action.
        static let empty = Origin(version: 0, snapshotBytes: 0, bytesSince: 0)
    }

    /// Snapshots are due at multiples of this many versions.
    let interval: UInt64
    /// In a schedule that follows the snapshots' size, the most versions from one snapshot to
    /// the next multiple; `nil`: one at every multiple of `interval`.
    let maximumSpacing: UInt64?

    /// The version of the last snapshot due (or recovered).
    private(set) var lastVersion: UInt64
    /// The bytes of the last snapshot encoded (or recovered); 0 until one is, or after one
    /// was lost.
    private(set) var lastSize: Int
    /// The bytes of the actions committed since the last snapshot due.
    private(set) var bytesSinceLast: Int

    /// A snapshot at every multiple of `interval`.
    static func every(_ interval: UInt64, from origin: Origin) -> SnapshotSchedule {
        SnapshotSchedule(interval: interval, maximumSpacing: nil, origin: origin)
    }

    /// A snapshot at a multiple of `interval` once the actions since the last snapshot hold
    /// `growthFactor` times its bytes, or before the next multiple would be more than
    /// `maximumSpacing` versions from it.
    static func followingSize(_ interval: UInt64, maximumSpacing: UInt64, from origin: Origin) -> SnapshotSchedule {
        SnapshotSchedule(interval: interval, maximumSpacing: maximumSpacing, origin: origin)
    }

    private init(interval: UInt64, maximumSpacing: UInt64?, origin: Origin) {
        precondition(interval > 0, "a snapshot interval of 0 versions")
        self.interval = interval
        self.maximumSpacing = maximumSpacing
        lastVersion = origin.version
        lastSize = origin.snapshotBytes
        bytesSinceLast = origin.bytesSince
    }

    /// What an action counts for in the schedule: its name and payload, the bytes that grow
    /// the journal (the other columns are a few dozen bytes an action, whatever the state).
    static func bytes(of entry: JournalEntry) -> Int {
        entry.name.utf8.count + entry.payload.count
    }

    /// What a snapshot counts for in the schedule: its state and its ledger.
    static func bytes(of snapshot: Snapshot) -> Int {
        snapshot.state.count + (snapshot.ledger?.count ?? 0)
    }

    /// Whether a snapshot is due at the end of `batch` (actions in version order, about to be
    /// committed).
    func isDue(after batch: [JournalEntry]) -> Bool {
        guard let first = batch.first, let last = batch.last,
            last.version / interval > (first.version - 1) / interval
        else { return false }
        guard let maximumSpacing else { return true }
        let bytes = batch.reduce(bytesSinceLast) { $0 + Self.bytes(of: $1) }
        let nextMultiple = (last.version / interval + 1) * interval
        return bytes >= Self.growthFactor * lastSize || nextMultiple - min(lastVersion, nextMultiple) > maximumSpacing
    }

    /// `batch` is durable (this daemon's, or other daemons' on a shared log), with the
    /// snapshot at its end due if `withSnapshot`.
    mutating func committed(_ batch: [JournalEntry], withSnapshot: Bool) {
        guard let last = batch.last else { return }
        if withSnapshot {
            lastVersion = last.version
            bytesSinceLast = 0
        } else {
            bytesSinceLast = batch.reduce(bytesSinceLast) { $0 + Self.bytes(of: $1) }
        }
    }

    /// The snapshot last due was encoded into `bytes` bytes (its state and its ledger).
    mutating func snapshotEncoded(bytes: Int) {
        lastSize = bytes
    }

    /// A snapshot that was due will not be saved: the next multiple is due.
    mutating func snapshotLost() {
        lastSize = 0
    }
}
