import SyncJournal

/// When the journal writer saves a snapshot, decided from each batch it commits. A value the
/// loop thread keeps and alone changes.
///
/// A snapshot is due when a batch crosses a multiple of `interval`. A schedule that follows the
/// snapshots' size (the daemon's default) lets such a point pass while the actions journaled
/// since the last snapshot hold fewer bytes than `growthFactor` times that snapshot: a large
/// state beside small actions would otherwise cost more to save, again and again, than the
/// actions themselves (a restart then replays more actions, at most `growthFactor` snapshots'
/// worth). It never lets the versions since the last snapshot pass `maximumSpacing`, so that
/// every version stays within reach of time travel's replay.
struct SnapshotSchedule: Equatable {
    /// How many times a snapshot's size the actions journaled after it must hold before the
    /// next one, in a schedule that follows the size.
    static let growthFactor = 4

    /// Snapshots are due at multiples of this many versions.
    let interval: UInt64
    /// In a schedule that follows the snapshots' size, the most versions from one snapshot to
    /// the next; `nil`: one at every multiple of `interval`.
    let maximumSpacing: UInt64?

    /// The version of the last snapshot due (or recovered).
    private(set) var lastVersion: UInt64
    /// The bytes of the last snapshot encoded; 0 until one is.
    private(set) var lastSize = 0
    /// The bytes of the actions committed since the last snapshot due.
    private(set) var bytesSinceLast = 0

    /// A snapshot at every multiple of `interval` after `lastVersion`.
    static func every(_ interval: UInt64, after lastVersion: UInt64) -> SnapshotSchedule {
        SnapshotSchedule(interval: interval, maximumSpacing: nil, lastVersion: lastVersion)
    }

    /// A snapshot at a multiple of `interval` once the actions since `lastVersion` hold
    /// `growthFactor` times the last snapshot's bytes, and at least every `maximumSpacing`
    /// versions.
    static func followingSize(_ interval: UInt64, maximumSpacing: UInt64, after lastVersion: UInt64)
        -> SnapshotSchedule
    {
        SnapshotSchedule(interval: interval, maximumSpacing: maximumSpacing, lastVersion: lastVersion)
    }

    private init(interval: UInt64, maximumSpacing: UInt64?, lastVersion: UInt64) {
        precondition(interval > 0, "a snapshot interval of 0 versions")
        self.interval = interval
        self.maximumSpacing = maximumSpacing
        self.lastVersion = lastVersion
    }

    /// Whether a snapshot is due at the end of `batch` (actions in version order, about to be
    /// committed); when it is, the schedule counts from there.
    mutating func isDue(after batch: [JournalEntry]) -> Bool {
        guard let first = batch.first, let last = batch.last else { return false }
        for entry in batch { bytesSinceLast += entry.name.utf8.count + entry.payload.count }
        guard last.version / interval > (first.version - 1) / interval else { return false }
        if let maximumSpacing, bytesSinceLast < Self.growthFactor * lastSize,
            last.version - min(lastVersion, last.version) + interval <= maximumSpacing
        {
            return false
        }
        lastVersion = last.version
        bytesSinceLast = 0
        return true
    }

    /// A snapshot was encoded into `bytes` bytes (its state and its ledger).
    mutating func encoded(bytes: Int) {
        lastSize = bytes
    }
}
