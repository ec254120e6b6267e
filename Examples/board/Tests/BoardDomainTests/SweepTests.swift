import Foundation
import SyncStore
import Testing

@testable import BoardDomain

/// The sweep's rule (`SweepDoneCards.due`) and the action it dispatches (`archiveDone`), on a
/// plain store; `BoardTestStoreTests` runs the side effect itself.
@Suite struct SweepTests {
    static let day = SweepDoneCards.dayMilliseconds

    /// Cards done at day 1 (`old`), day 5 (`recent`), one still doing, one in todo.
    private func board() throws -> (board: BoardHarness, old: String, recent: String) {
        var board = BoardHarness()
        let old = try board.add("old")
        let recent = try board.add("recent")
        let doing = try board.add("doing")
        try board.add("todo")
        try board.apply(MoveCard(card: old, column: "done"), at: 1 * Self.day)
        try board.apply(MoveCard(card: recent, column: "done"), at: 5 * Self.day)
        try board.apply(MoveCard(card: doing, column: "doing"), at: 5 * Self.day)
        return (board, old, recent)
    }

    @Test func dueListsTheCardsDoneForMoreThanTheDays() throws {
        let (board, old, recent) = try board()
        #expect(SweepDoneCards.due(in: board.state, now: 8 * Self.day, days: 7) == [])
        #expect(SweepDoneCards.due(in: board.state, now: 8 * Self.day + 1, days: 7) == [old])
        #expect(SweepDoneCards.due(in: board.state, now: 13 * Self.day, days: 7) == [old, recent])
        #expect(SweepDoneCards.due(in: board.state, now: 13 * Self.day, days: 0) == [old, recent])
    }

    @Test func archiveDoneArchivesTheNamedCardsStillDoneInOneUndoStep() throws {
        var (board, old, recent) = try board()
        let before = board.state
        try board.apply(ArchiveDoneCards(cards: [old, recent], doneBefore: 3 * Self.day), at: 6 * Self.day)
        #expect(board.titles["done"] == ["recent"], "recent entered done after doneBefore")
        #expect(board.state.archive.map(\.id) == [old])
        #expect(board.state.archive[0].archived && board.state.archive[0].archivedAt == 6 * Self.day)
        #expect(board.state.undoStack.last?.summary == "sweep 1 done card")
        try board.apply(ArchiveDoneCards(cards: [old], doneBefore: 3 * Self.day), at: 6 * Self.day)
        #expect(
            board.state.undoStack.last?.summary == "sweep 1 done card",
            "a second archive finds nothing and records nothing")
        try board.apply(UndoBoardChange())
        #expect(board.state == before)
    }

    @Test func archiveDoneLeavesACardThatLeftDoneMeanwhile() throws {
        var (board, old, recent) = try board()
        try board.apply(MoveCard(card: old, column: "doing"), at: 6 * Self.day)
        let before = board.state
        try board.apply(ArchiveDoneCards(cards: [old], doneBefore: 3 * Self.day), at: 7 * Self.day)
        #expect(board.state == before, "old is in doing now: not archived")
        try board.apply(ArchiveDoneCards(cards: [recent, "no-such-card"], doneBefore: 9 * Self.day), at: 9 * Self.day)
        #expect(board.state.archive.map(\.id) == [recent] && board.titles["done"] == [])
    }

    @Test func archiveDoneIsReplayedExactly() throws {
        let (board, old, recent) = try board()
        var archive = ArchiveDoneCards(cards: [old, recent], doneBefore: 6 * Self.day)
        archive.accept(context(77, at: 6 * Self.day), state: board.state)
        var first = board.store
        var replay = board.store
        try first.apply(archive)
        let journaled = try JSONDecoder().decode(ArchiveDoneCards.self, from: JSONEncoder().encode(archive))
        try replay.apply(journaled)
        #expect(first.state == replay.state)
        #expect(first.state.archive.map(\.id) == [old, recent])
    }

    @Test func anUnacceptedArchiveIsRefused() throws {
        let (board, old, _) = try board()
        var store = board.store
        #expect(throws: BoardRejection.notAccepted) {
            try store.apply(ArchiveDoneCards(cards: [old], doneBefore: .max))
        }
        #expect(store.state == board.state)
    }
}
