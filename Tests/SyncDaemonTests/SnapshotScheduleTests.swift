import SyncJournal
import Testing

@testable import SyncDaemon

/// When snapshots are due, from the batches committed: at every multiple of the interval, or,
/// following the state's size, only once the actions since the last snapshot hold a few times
/// its bytes, and never further apart than the spacing time travel needs.
@Suite struct SnapshotScheduleTests {
    /// The versions at which `schedule` has a snapshot due, committing `versions` one action per
    /// batch, each action's name and payload `actionBytes` bytes; every snapshot due is encoded
    /// into `snapshotBytes` bytes.
    private static func due(
        _ schedule: SnapshotSchedule, versions: ClosedRange<UInt64>, actionBytes: Int = 100, snapshotBytes: Int
    ) -> [UInt64] {
        var schedule = schedule
        return versions.filter { version in
            guard schedule.isDue(after: [entry(version, bytes: actionBytes)]) else { return false }
            schedule.encoded(bytes: snapshotBytes)
            return true
        }
    }

    private static func entry(_ version: UInt64, bytes: Int) -> JournalEntry {
        JournalEntry(
            version: version, name: "a", payload: Array(repeating: UInt8(ascii: "x"), count: bytes - 1),
            acceptedAt: 0, peerUID: nil, peerPID: nil)
    }

    @Test func aFixedScheduleIsDueAtEveryMultipleWhateverTheSize() {
        let due = Self.due(.every(10, after: 0), versions: 1...50, snapshotBytes: 1_000_000)
        #expect(due == [10, 20, 30, 40, 50])
    }

    @Test func aBatchCrossingAMultipleIsDueAtItsEnd() {
        var schedule = SnapshotSchedule.every(10, after: 0)
        let beforeTheMultiple = schedule.isDue(after: (1...9).map { Self.entry($0, bytes: 10) })
        let acrossIt = schedule.isDue(after: (10...13).map { Self.entry($0, bytes: 10) })
        let empty = schedule.isDue(after: [])
        #expect(!beforeTheMultiple && acrossIt && !empty)
        #expect(schedule.lastVersion == 13)
    }

    @Test func followingTheSizeASmallStateIsSavedAtEveryMultiple() {
        // 10 actions of 100 bytes hold 1000 bytes: more than four snapshots of 200.
        let due = Self.due(
            .followingSize(10, maximumSpacing: 100, after: 0), versions: 1...50, snapshotBytes: 200)
        #expect(due == [10, 20, 30, 40, 50])
    }

    @Test func followingTheSizeALargeStateWaitsForFourTimesItsBytesOfActions() {
        // A snapshot of 1000 bytes: due again once 4000 bytes of actions (40) follow it. The
        // first one is due at the first multiple: no size is known before it.
        let due = Self.due(
            .followingSize(10, maximumSpacing: 1000, after: 0), versions: 1...130, snapshotBytes: 1000)
        #expect(due == [10, 50, 90, 130])
    }

    @Test func followingTheSizeNeverGoesPastTheSpacing() {
        // Snapshots far larger than any run of actions: one every 30 versions (the spacing),
        // at a multiple of 10; and one at every multiple when the spacing is below the interval.
        let spaced = Self.due(
            .followingSize(10, maximumSpacing: 30, after: 0), versions: 1...100, snapshotBytes: 1_000_000)
        #expect(spaced == [10, 40, 70, 100])
        let uneven = Self.due(
            .followingSize(20, maximumSpacing: 30, after: 0), versions: 1...100, snapshotBytes: 1_000_000)
        #expect(uneven == [20, 40, 60, 80, 100])
        let tight = Self.due(
            .followingSize(10, maximumSpacing: 5, after: 0), versions: 1...30, snapshotBytes: 1_000_000)
        #expect(tight == [10, 20, 30])
    }

    @Test func aRecoveredSnapshotCountsAsTheLastOne() {
        // Recovered at version 35 (a snapshot at a clean stop): the spacing counts from there.
        let due = Self.due(
            .followingSize(10, maximumSpacing: 30, after: 35), versions: 36...100, snapshotBytes: 1_000_000)
        #expect(due == [40, 70, 100])
    }
}
