extension DaemonConfiguration {
    /// The most versions between two snapshots the journal keeps, and between two snapshots a
    /// schedule that follows the state's size saves: half the replay limit, so that every past
    /// version is within reach of `get … at`.
    var snapshotSpacing: UInt64 { UInt64(max(1, maximumReplayedActions / 2)) }

    /// When the writer of a journal whose newest snapshot is at `lastVersion` saves the next ones.
    func snapshotSchedule(after lastVersion: UInt64) -> SnapshotSchedule {
        snapshotsFollowStateSize
            ? .followingSize(snapshotInterval, maximumSpacing: snapshotSpacing, after: lastVersion)
            : .every(snapshotInterval, after: lastVersion)
    }
}
