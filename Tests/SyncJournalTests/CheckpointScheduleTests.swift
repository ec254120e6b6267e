import Testing

@testable import SyncJournal

/// When the WAL's checkpoints are asked for, from the WAL's size after each commit: once per
/// batch past the threshold (a checkpoint per commit once gave each durable action up to two
/// more syncs of the disk), the copy in the commit at the backstop, and the same again once the
/// WAL has started over.
@Suite struct CheckpointScheduleTests {
    /// What the commits that leave the WAL at each of `pages` ask for, in order ("125 wake",
    /// "200 copy"), with a threshold of 100 pages; commits that ask nothing are left out.
    private static func asked(_ pages: some Sequence<Int32>) -> [String] {
        var schedule = CheckpointSchedule(pageThreshold: 100)
        return pages.compactMap { page in
            switch schedule.afterCommit(walPages: page) {
            case .nothing: nil
            case .wakeTheThread: "\(page) wake"
            case .copyHere: "\(page) copy"
            }
        }
    }

    @Test func onePagePerCommitAsksOncePerBatchThenCopiesAtTheBackstop() {
        let schedule = CheckpointSchedule(pageThreshold: 100)
        #expect(schedule.batchPages == 25 && schedule.backstopPages == 1000)
        let asked = Self.asked(1...1000)
        #expect(asked.prefix(4) == ["100 wake", "125 wake", "150 wake", "175 wake"])
        #expect(asked.suffix(2) == ["975 wake", "1000 copy"])
        #expect(asked.count == 37)
    }

    @Test func theWALStartingAgainStartsTheScheduleAgain() {
        // Up to 130 pages, then the WAL starts over and grows to 130 again.
        #expect(Self.asked(Array(1...130) + Array(1...130)) == ["100 wake", "125 wake", "100 wake", "125 wake"])
        var schedule = CheckpointSchedule(pageThreshold: 100)
        for page: Int32 in 1...110 { _ = schedule.afterCommit(walPages: page) }
        // Started over, and a large commit lands past the threshold at once: asked again at once.
        #expect(schedule.afterCommit(walPages: 3) == .nothing)
        #expect(schedule.afterCommit(walPages: 104) == .wakeTheThread)
    }

    @Test func largeCommitsAskAtEachBatchTheyCrossAndAlwaysCopyAtTheBackstop() {
        #expect(
            Self.asked([50, 120, 130, 160, 170, 990, 1000, 1001]) == [
                "120 wake", "160 wake", "990 wake", "1000 copy", "1001 copy",
            ])
    }

    @Test func aWALBelowTheThresholdAsksForNothing() {
        #expect(Self.asked(1...99).isEmpty)
    }
}
