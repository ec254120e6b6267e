extension DaemonConfiguration {
    /// The most versions between two snapshots the journal keeps: half the replay limit, so
    /// that every past version is within reach of `get … at` (see `Journal.snapshotSpacing`).
    var snapshotSpacing: UInt64 { UInt64(max(1, maximumReplayedActions / 2)) }

    /// When the writer of a journal whose newest snapshot and the actions after it are
    /// `origin` saves the next snapshots. A schedule that follows the state's size keeps them
    /// at most half the journal's spacing apart (up to the next multiple of the interval), so
    /// that a batch running far past a multiple still leaves each span of the spacing a
    /// snapshot near its start.
    func snapshotSchedule(from origin: SnapshotSchedule.Origin) -> SnapshotSchedule {
        snapshotsFollowStateSize
            ? .followingSize(snapshotInterval, maximumSpacing: max(1, snapshotSpacing / 2), from: origin)
            : .every(snapshotInterval, from: origin)
    }
}
