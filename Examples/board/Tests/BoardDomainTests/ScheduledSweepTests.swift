import SyncStore
import SyncTesting
import Testing

@testable import BoardDomain

/// `boardd --sweep-after DAYS` on the test clock: nothing is archived before its time, each
/// card once it has been done for more than the days, exactly once.
@Suite struct ScheduledSweepTests {
    static let day = SweepDoneCards.dayMilliseconds

    /// A board with two cards in done, done at 0 and at 1000.
    static let twoDone: BoardState = {
        var state = BoardState()
        state.columns[2].cards = [
            BoardCard(id: "a", title: "old", createdAt: 0, doneAt: 0),
            BoardCard(id: "b", title: "newer", createdAt: 0, doneAt: 1000),
        ]
        return state
    }()

    @Test func archivesEachCardOnceItHasBeenDoneForMoreThanTheDays() async throws {
        let clock = TestClock(now: 0)
        let store = TestStore(
            BoardApp.self, state: Self.twoDone, dependencies: StandardDependencies(clock: clock, ids: SequentialIDs()))
        store.start(ScheduledSweep(days: 1))
        await store.advance(by: Self.day)
        #expect(store.version == 0, "a card done exactly a day ago is not due")
        await store.advance(by: 1)
        await store.receive(ArchiveDoneCards.self) {
            $0.columns[2].cards = [Self.twoDone.columns[2].cards[1]]
            $0.archive = [
                BoardCard(id: "a", title: "old", createdAt: 0, doneAt: 0, archived: true, archivedAt: Self.day + 1)
            ]
            $0.undoStack = [
                BoardUndoStep(
                    summary: "sweep 1 done card",
                    changes: [.restoreColumn(Self.twoDone.columns[2]), .unarchive(ids: ["a"])],
                    change: Self.change(1))
            ]
        }
        let beforeSecond = store.state
        await store.advance(by: 1000)
        await store.receive(ArchiveDoneCards.self) {
            $0.columns[2].cards = []
            $0.archive.append(
                BoardCard(
                    id: "b", title: "newer", createdAt: 0, doneAt: 1000, archived: true, archivedAt: Self.day + 1001))
            $0.undoStack.append(
                BoardUndoStep(
                    summary: "sweep 1 done card",
                    changes: [.restoreColumn(beforeSecond.columns[2]), .unarchive(ids: ["b"])], change: Self.change(2)))
        }
        await store.advance(by: 10 * Self.day)
        await store.finish()
        #expect(store.version == 2, "each card went once")
    }

    @Test func aCardMovedOutOfDoneIsNotDue() {
        var state = Self.twoDone
        state.columns[0].cards = state.columns[2].cards
        state.columns[2].cards = []
        #expect(ScheduledSweep(days: 0).next(in: state) == nil)
        #expect(ScheduledSweep(days: 0).next(in: Self.twoDone)?.due == 1)
    }

    /// The change id of the `n`th accepted action.
    private static func change(_ n: UInt64) -> Int {
        AcceptanceContext(identifier: SequentialIDs.id(n), millisecondsSinceEpoch: 0).changeID
    }
}
