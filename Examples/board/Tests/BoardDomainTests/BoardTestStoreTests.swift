import Foundation
import SyncStore
import SyncTesting
import Testing

@testable import BoardDomain

/// A test store of the board whose clock starts at 0 and whose ids run 1, 2, 3…
private func makeBoardStore(clock: TestClock) -> TestStore<BoardApp> {
    TestStore(BoardApp.self, dependencies: StandardDependencies(clock: clock, ids: SequentialIDs()))
}

/// The card id of the `n`th accepted action.
private func id(_ n: UInt64) -> String { SequentialIDs.id(n).uuidString.lowercased() }

/// The change id of the `n`th accepted action.
private func change(_ n: UInt64) -> Int {
    AcceptanceContext(identifier: SequentialIDs.id(n), millisecondsSinceEpoch: 0).changeID
}

/// The board's actions and its `sweep` side effect in `SyncTesting`'s test store: each state
/// change exactly, and each action the sweep dispatched, with the test clock moved past the days.
@Suite struct BoardTestStoreTests {
    static let day = SweepDoneCards.dayMilliseconds

    @Test func actionsProduceTheExactStates() throws {
        let clock = TestClock(now: 1000)
        let store = makeBoardStore(clock: clock)
        let spec = BoardCard(id: id(1), title: "write the spec", createdAt: 1000)
        let initial = BoardApp.initialState
        try store.send(AddCard(title: " write the spec ")) {
            $0.columns[0].cards = [spec]
            $0.undoStack = [
                BoardUndoStep(
                    summary: #"add "write the spec""#, changes: [.restoreColumn(initial.columns[0])], change: change(1))
            ]
        }
        clock.advance(by: 1000)
        try store.send(SetColumnLimit(column: "doing", limit: 1)) {
            $0.columns[1].limit = 1
            $0.undoStack.append(
                BoardUndoStep(
                    summary: "limit doing to 1", changes: [.restoreColumn(initial.columns[1])], change: change(2)))
        }
        clock.advance(by: 1000)
        let before = store.state
        try store.send(MoveCard(card: id(1), column: "done")) {
            $0.columns[0].cards = []
            $0.columns[2].cards = [BoardCard(id: id(1), title: "write the spec", createdAt: 1000, doneAt: 3000)]
            $0.undoStack.append(
                BoardUndoStep(
                    summary: #"move "write the spec" to done"#,
                    changes: [.restoreColumn(before.columns[0]), .restoreColumn(before.columns[2])],
                    change: change(3)))
        }
        #expect(throws: BoardRejection.noSuchColumn("nowhere")) {
            try store.send(MoveCard(card: id(1), column: "nowhere"))
        }
        #expect(store.state.columns[2].cards.map(\.id) == [id(1)], "a refusal changes nothing")
        try store.send(UndoBoardChange()) {
            $0.columns = before.columns
            $0.undoStack.removeLast()
        }
    }

    @Test func theSweepReadsTheInjectedClockAndDispatchesOneArchiveOfTheCardsDue() async throws {
        let clock = TestClock(now: 0)
        let store = makeBoardStore(clock: clock)
        try store.send(AddCard(title: "old", column: "done")) {
            $0.columns[2].cards = [BoardCard(id: id(1), title: "old", createdAt: 0, doneAt: 0)]
            $0.undoStack = [
                BoardUndoStep(
                    summary: #"add "old""#, changes: [.restoreColumn(BoardApp.initialState.columns[2])],
                    change: change(1))
            ]
        }
        clock.advance(by: 2 * Self.day)
        let afterOld = store.state
        try store.send(AddCard(title: "recent", column: "done")) {
            $0.columns[2].cards.append(
                BoardCard(id: id(2), title: "recent", createdAt: 2 * Self.day, doneAt: 2 * Self.day))
            $0.undoStack.append(
                BoardUndoStep(
                    summary: #"add "recent""#, changes: [.restoreColumn(afterOld.columns[2])], change: change(2)))
        }

        clock.advance(by: 1 * Self.day)
        #expect(
            try await store.run(SweepDoneCards(days: 3)) == .init(archived: 0), "old is exactly 3 days done, not more")
        await store.finish()

        clock.advance(by: 1)
        let beforeSweep = store.state
        #expect(try await store.run(SweepDoneCards(days: 3)) == .init(archived: 1))
        await store.receive(ArchiveDoneCards.self) {
            $0.columns[2].cards = [BoardCard(id: id(2), title: "recent", createdAt: 2 * Self.day, doneAt: 2 * Self.day)]
            $0.archive = [
                BoardCard(
                    id: id(1), title: "old", createdAt: 0, doneAt: 0, archived: true, archivedAt: 3 * Self.day + 1)
            ]
            $0.undoStack.append(
                BoardUndoStep(
                    summary: "sweep 1 done card",
                    changes: [.restoreColumn(beforeSweep.columns[2]), .unarchive(ids: [id(1)])], change: change(3)))
        }

        clock.advance(by: 10 * Self.day)
        #expect(try await store.run(SweepDoneCards(days: 0)) == .init(archived: 1))
        await store.receive(ArchiveDoneCards.self) {
            $0.columns[2].cards = []
            $0.archive.append(
                BoardCard(
                    id: id(2), title: "recent", createdAt: 2 * Self.day, doneAt: 2 * Self.day, archived: true,
                    archivedAt: 13 * Self.day + 1))
            $0.undoStack.append(
                BoardUndoStep(
                    summary: "sweep 1 done card",
                    changes: [
                        .restoreColumn(
                            BoardColumn(
                                name: "done",
                                cards: [
                                    BoardCard(id: id(2), title: "recent", createdAt: 2 * Self.day, doneAt: 2 * Self.day)
                                ])), .unarchive(ids: [id(2)]),
                    ],
                    change: change(4)))
        }
        await store.finish()
    }

    @Test func aSweepOfBadDaysFailsAndDispatchesNothing() async throws {
        let store = makeBoardStore(clock: TestClock(now: 0))
        try store.send(AddCard(title: "old", column: "done")) {
            $0.columns[2].cards = [BoardCard(id: id(1), title: "old", createdAt: 0, doneAt: 0)]
            $0.undoStack = [
                BoardUndoStep(
                    summary: #"add "old""#, changes: [.restoreColumn(BoardApp.initialState.columns[2])],
                    change: change(1))
            ]
        }
        let before = store.state
        await #expect(throws: BoardRejection.invalidDays(-1)) { try await store.run(SweepDoneCards(days: -1)) }
        await #expect(throws: BoardRejection.invalidDays(36_501)) { try await store.run(SweepDoneCards(days: 36_501)) }
        #expect(store.state == before)
        await store.finish()
    }
}
