import SyncJournal
import Testing

@testable import SyncDaemon

/// When snapshots are due, from the batches committed: at every multiple of the interval, or,
/// following the state's size, only once the actions since the last snapshot hold a few times
/// its bytes, and never further apart than the spacing time travel needs; and only with what is
/// durable (a batch that failed, a snapshot that was lost).
@Suite struct SnapshotScheduleTests {
    /// The versions at which `schedule` has a snapshot due, committing each batch of `batches`
    /// (ranges of versions) in turn, each action's name and payload `actionBytes` bytes; every
    /// snapshot due is encoded into `snapshotBytes` bytes.
    private static func due(
        _ schedule: SnapshotSchedule, batches: [ClosedRange<UInt64>], actionBytes: Int = 100, snapshotBytes: Int
    ) -> [UInt64] {
        var schedule = schedule
        return batches.compactMap { versions in
            let batch = versions.map { entry($0, bytes: actionBytes) }
            let isDue = schedule.isDue(after: batch)
            schedule.committed(batch, withSnapshot: isDue)
            guard isDue else { return nil }
            schedule.snapshotEncoded(bytes: snapshotBytes)
            return versions.upperBound
        }
    }

    /// `due` with one action per batch.
    private static func due(_ schedule: SnapshotSchedule, versions: ClosedRange<UInt64>, snapshotBytes: Int)
        -> [UInt64]
    {
        due(schedule, batches: versions.map { $0...$0 }, snapshotBytes: snapshotBytes)
    }

    private static func entry(_ version: UInt64, bytes: Int = 100) -> JournalEntry {
        JournalEntry(
            version: version, name: "a", payload: Array(repeating: UInt8(ascii: "x"), count: bytes - 1),
            acceptedAt: 0, peerUID: nil, peerPID: nil)
    }

    @Test func aFixedScheduleIsDueAtEveryMultipleWhateverTheSize() {
        let due = Self.due(.every(10, from: .empty), versions: 1...50, snapshotBytes: 1_000_000)
        #expect(due == [10, 20, 30, 40, 50])
    }

    @Test func aBatchCrossingAMultipleIsDueAtItsEnd() {
        let schedule = SnapshotSchedule.every(10, from: .empty)
        #expect(!schedule.isDue(after: (1...9).map { Self.entry($0) }))
        #expect(schedule.isDue(after: (9...13).map { Self.entry($0) }))
        #expect(!schedule.isDue(after: []))
        #expect(Self.due(schedule, batches: [1...9, 10...13, 14...25], snapshotBytes: 10) == [13, 25])
    }

    @Test func followingTheSizeASmallStateIsSavedAtEveryMultiple() {
        // 10 actions of 100 bytes hold 1000 bytes: more than four snapshots of 200.
        let due = Self.due(.followingSize(10, maximumSpacing: 100, from: .empty), versions: 1...50, snapshotBytes: 200)
        #expect(due == [10, 20, 30, 40, 50])
    }

    @Test func followingTheSizeALargeStateWaitsForFourTimesItsBytesOfActions() {
        // A snapshot of 1000 bytes: due again once 4000 bytes of actions (40) follow it. The
        // first one is due at the first multiple: no size is known before it.
        let due = Self.due(
            .followingSize(10, maximumSpacing: 1000, from: .empty), versions: 1...130, snapshotBytes: 1000)
        #expect(due == [10, 50, 90, 130])
    }

    @Test func followingTheSizeNeverLetsTheNextMultipleGoPastTheSpacing() {
        // Snapshots far larger than any run of actions: one every 30 versions (the spacing),
        // at a multiple of 10; and one at every multiple when the spacing is below the interval.
        let spaced = Self.due(
            .followingSize(10, maximumSpacing: 30, from: .empty), versions: 1...100, snapshotBytes: 1_000_000)
        #expect(spaced == [10, 40, 70, 100])
        let uneven = Self.due(
            .followingSize(20, maximumSpacing: 30, from: .empty), versions: 1...100, snapshotBytes: 1_000_000)
        #expect(uneven == [20, 40, 60, 80, 100])
        let tight = Self.due(
            .followingSize(10, maximumSpacing: 5, from: .empty), versions: 1...30, snapshotBytes: 1_000_000)
        #expect(tight == [10, 20, 30])
    }

    @Test func aBatchRunningPastTheMultiplesTakesTheSnapshotAtItsEnd() {
        // One batch from 11 to 45 crosses 20, 30 and 40: the snapshot is at 45, 35 versions
        // after the last (the daemon's spacing is half the journal's, for this), and the next
        // counts from 45.
        let due = Self.due(
            .followingSize(10, maximumSpacing: 30, from: .empty),
            batches: [1...10, 11...45] + (46...80).map { $0...$0 }, snapshotBytes: 1_000_000)
        #expect(due == [10, 45, 70])
    }

    @Test func aRecoveredSnapshotAndTheActionsAfterItCount() {
        // Recovered: a snapshot of 1000 bytes at version 35 and 3000 bytes of actions after it.
        // 1000 bytes more (10 actions) make the 4000: due at 50, not at 40 as in a new journal.
        let origin = SnapshotSchedule.Origin(version: 35, snapshotBytes: 1000, bytesSince: 3000)
        let recovered = Self.due(
            .followingSize(10, maximumSpacing: 1000, from: origin), versions: 36...60, snapshotBytes: 1000)
        #expect(recovered.first == 50)
        let new = Self.due(
            .followingSize(10, maximumSpacing: 1000, from: .empty), versions: 36...60, snapshotBytes: 1000)
        #expect(new.first == 40)
        // The spacing counts from the recovered snapshot too.
        let large = SnapshotSchedule.Origin(version: 35, snapshotBytes: 1_000_000, bytesSince: 0)
        let spaced = Self.due(
            .followingSize(10, maximumSpacing: 30, from: large), versions: 36...100, snapshotBytes: 1_000_000)
        #expect(spaced == [60, 90])
    }

    @Test func onlyCommittedBatchesCountAndALostSnapshotMakesTheNextMultipleDue() {
        var schedule = SnapshotSchedule.followingSize(10, maximumSpacing: 1000, from: .empty)
        let first = (1...10).map { Self.entry($0) }
        #expect(schedule.isDue(after: first))
        schedule.committed(first, withSnapshot: true)
        schedule.snapshotEncoded(bytes: 1000)
        // Batches that failed are looked at, never committed: they count for nothing.
        for version: UInt64 in 11...50 { _ = schedule.isDue(after: [Self.entry(version)]) }
        #expect(!schedule.isDue(after: [Self.entry(50)]))
        // Committed, the same 4000 bytes make 50 due.
        schedule.committed((11...49).map { Self.entry($0) }, withSnapshot: false)
        #expect(schedule.isDue(after: [Self.entry(50)]))
        schedule.committed([Self.entry(50)], withSnapshot: true)
        #expect(!schedule.isDue(after: [Self.entry(60)]))
        // That snapshot never reached the journal: the next multiple is due.
        schedule.snapshotLost()
        #expect(schedule.isDue(after: [Self.entry(60)]))
    }
}
