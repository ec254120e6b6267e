import Foundation
import SyncStore
import Testing
@testable import BoardDomain

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

    @Test func aSweepArchivesWhatIsDueAtItsAcceptanceTimeAndUndoPutsItBack() throws {
        var (board, old, _) = try board()
        let before = board.state
        try board.apply(SweepDoneCards(days: 3), at: 6 * Self.day)
        #expect(board.titles["done"] == ["recent"])
        #expect(board.state.archive.map(\.id) == [old])
        #expect(board.state.archive[0].archived && board.state.archive[0].archivedAt == 6 * Self.day)
        #expect(board.state.undoStack.last?.summary == "sweep 1 done card")
        try board.apply(SweepDoneCards(days: 3), at: 6 * Self.day)
        #expect(board.state.undoStack.last?.summary == "sweep 1 done card", "a second sweep finds nothing and records nothing")
        try board.apply(UndoBoardChange())
        #expect(board.state == before)
    }

    @Test func aSweepIsReplayedExactly() throws {
        let (board, _, _) = try board()
        var sweep = SweepDoneCards(days: 3)
        sweep.accept(context(77, at: 6 * Self.day), state: board.state)
        var first = board.store
        var replay = board.store
        try first.apply(sweep)
        let journaled = try JSONDecoder().decode(SweepDoneCards.self, from: JSONEncoder().encode(sweep))
        try replay.apply(journaled)
        #expect(first.state == replay.state)
    }

    @Test func badDaysAreRefused() throws {
        var (board, _, _) = try board()
        let before = board.state
        #expect(rejection { try board.apply(SweepDoneCards(days: -1)) }?.description == "a sweep takes 0 to 36500 days (got -1)")
        #expect(rejection { try board.apply(SweepDoneCards(days: 36_501)) } == .invalidDays(36_501))
        #expect(board.state == before)
    }
}
