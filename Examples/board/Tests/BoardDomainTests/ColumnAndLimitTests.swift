import SyncStore
import Testing

@testable import BoardDomain

@Suite struct ColumnAndLimitTests {
    @Test func addColumnAtTheEndOrAtAPosition() throws {
        var board = BoardHarness()
        try board.apply(AddColumn(name: " review "))
        try board.apply(AddColumn(name: "ideas", position: 0))
        #expect(board.state.columns.map(\.name) == ["ideas", "todo", "doing", "done", "review"])
        #expect(
            board.state.undoStack.last
                == BoardUndoStep(summary: "add column ideas", changes: [.removeColumn(name: "ideas")], change: 2))
    }

    @Test func badColumnsAreRefusedWithTheReason() throws {
        var board = BoardHarness()
        let before = board.state
        #expect(
            rejection { try board.apply(AddColumn(name: "doing")) }?.description == "there is a column doing already")
        #expect(
            rejection { try board.apply(AddColumn(name: "in review")) }?.description
                == "the column name contains spaces")
        #expect(rejection { try board.apply(AddColumn(name: " ")) }?.description == "the column name is empty")
        #expect(
            rejection { try board.apply(AddColumn(name: String(repeating: "c", count: 25))) }?.description
                == "the column name has 25 characters; at most 24 are allowed")
        #expect(
            rejection { try board.apply(AddColumn(name: "later", position: 4)) }?.description
                == "column position 4 is outside the board, which takes positions 0 to 3")
        #expect(board.state == before)
    }

    @Test func theLimitRefusesOneCardTooManyAndLeavesTheStateAsItWas() throws {
        var board = BoardHarness()
        try board.apply(SetColumnLimit(column: "doing", limit: 3))
        var ids: [String] = []
        for title in ["a", "b", "c", "d"] { ids.append(try board.add(title)) }
        for id in ids.prefix(3) { try board.apply(MoveCard(card: id, column: "doing")) }
        let before = board.state
        #expect(
            rejection { try board.apply(MoveCard(card: ids[3], column: "doing")) }?.description
                == "column doing is at its limit of 3")
        #expect(
            rejection { try board.apply(AddCard(title: "e", column: "doing")) }?.description
                == "column doing is at its limit of 3")
        #expect(board.state == before)
        try board.apply(MoveCard(card: ids[2], column: "doing", position: 0))
        #expect(board.titles["doing"] == ["c", "a", "b"], "a move within a full column is no new card")
        try board.apply(MoveCard(card: ids[0], column: "done"))
        try board.apply(MoveCard(card: ids[3], column: "doing"))
        #expect(board.titles["doing"] == ["c", "b", "d"])
    }

    @Test func setLimitRefusesBadLimitsAndALimitBelowTheCards() throws {
        var board = BoardHarness()
        try board.add("a")
        try board.add("b")
        let before = board.state
        #expect(
            rejection { try board.apply(SetColumnLimit(column: "todo", limit: 1)) }?.description
                == "column todo holds 2 cards, more than a limit of 1")
        #expect(
            rejection { try board.apply(SetColumnLimit(column: "todo", limit: 0)) }?.description
                == "a limit must be at least 1 (got 0); null removes it")
        #expect(
            rejection { try board.apply(SetColumnLimit(column: "later", limit: 2)) }?.description == "no column later")
        #expect(board.state == before)
        try board.apply(SetColumnLimit(column: "todo", limit: 2))
        #expect(board.state.columns[0].limit == 2)
        try board.apply(SetColumnLimit(column: "todo", limit: 2))
        try board.apply(SetColumnLimit(column: "todo", limit: nil))
        #expect(board.state.columns[0].limit == nil)
        #expect(board.state.undoStack.suffix(2).map(\.summary) == ["limit todo to 2", "remove the limit of todo"])
    }
}
