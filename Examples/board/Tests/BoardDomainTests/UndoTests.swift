import SyncStore
import Testing

@testable import BoardDomain

@Suite struct UndoTests {
    @Test func undoWalksBackThroughEveryKindOfChange() throws {
        var board = BoardHarness()
        var states = [board.state]
        let a = try board.add("a")
        states.append(board.state)
        let b = try board.add("b")
        states.append(board.state)
        try board.apply(MoveCard(card: a, column: "doing"))
        states.append(board.state)
        try board.apply(MoveCard(card: b, column: "done"))
        states.append(board.state)
        try board.apply(EditCard(card: a, title: "A", notes: "n"))
        states.append(board.state)
        try board.apply(ArchiveCard(card: b))
        states.append(board.state)
        try board.apply(AddColumn(name: "review", position: 2))
        states.append(board.state)
        try board.apply(SetColumnLimit(column: "doing", limit: 1))
        states.append(board.state)
        try board.apply(ArchiveDoneCards(cards: [a], doneBefore: .max))
        #expect(
            board.state == states.last, "an archive of done cards with none due changes nothing and records nothing")
        states.removeLast()
        while let expected = states.popLast() {
            try board.apply(UndoBoardChange())
            var withoutHistory = board.state
            withoutHistory.undoStack = expected.undoStack
            #expect(withoutHistory == expected)
            #expect(board.state.undoStack == expected.undoStack)
        }
        #expect(board.state == BoardState())
        #expect(rejection { try board.apply(UndoBoardChange()) } == .nothingToUndo)
    }

    @Test func undoNamesTheChangeItRevertsAtAcceptance() throws {
        var board = BoardHarness()
        try board.add("a")
        var undo = UndoBoardChange()
        undo.accept(context(99), state: board.state)
        #expect(undo.undoing == #"add "a""# && undo.reverts == 1)
        let target = BoardUndoViewModel(state: board.state, params: NoParams()).next
        #expect(target == BoardUndoTarget(change: 1, summary: #"add "a""#))
    }

    @Test func anUndoOvertakenByANewerChangeIsRefusedAndChangesNothing() throws {
        var board = BoardHarness()
        try board.add("a")
        let seen = try #require(BoardUndoViewModel(state: board.state, params: NoParams()).next)
        try board.add("b")
        let before = board.state
        #expect(
            rejection { try board.apply(UndoBoardChange(reverting: seen)) }?.description
                == #"nothing was undone: the undo was for add "a", but a newer change (add "b") landed first"#)
        #expect(board.state == before)
    }

    @Test func anUndoAcceptedWithNothingToUndoNeverRevertsALaterChange() throws {
        var board = BoardHarness()
        var undo = UndoBoardChange()
        undo.accept(context(50), state: board.state)
        try board.add("a")
        let before = board.state
        #expect(rejection { try board.store.apply(undo) } == .nothingToUndo)
        #expect(board.state == before)
    }

    @Test func theHistoryKeepsTheNewestHundredSteps() throws {
        var board = BoardHarness()
        for index in 0..<105 { try board.add("card \(index)") }
        #expect(board.state.undoStack.count == BoardState.undoDepth)
        #expect(board.state.undoStack.first?.summary == #"add "card 5""#)
    }
}
