import SyncStore
import Testing

@testable import BoardDomain

@Suite struct CardActionsTests {
    @Test func aNewBoardHasTheThreeDefaultColumnsAndNothingElse() {
        #expect(BoardApp.initialState.columns.map(\.name) == ["todo", "doing", "done"])
        #expect(BoardApp.initialState.columns.allSatisfy { $0.cards.isEmpty && $0.limit == nil })
        #expect(BoardApp.initialState.archive.isEmpty && BoardApp.initialState.undoStack.isEmpty)
    }

    @Test func addFixesIdAndTimeAtAcceptanceAndTrims() throws {
        var board = BoardHarness()
        try board.apply(AddCard(title: "  write the spec \n", notes: " two pages "))
        let card = BoardCard(id: cardID(1), title: "write the spec", notes: "two pages", createdAt: 1000)
        #expect(board.state.columns[0].cards == [card])
        #expect(
            board.state.undoStack == [
                BoardUndoStep(
                    summary: #"add "write the spec""#, changes: [.restoreColumn(BoardColumn(name: "todo"))], change: 1)
            ])
        try board.apply(AddCard(title: "ship it", notes: "   ", column: "done"))
        let shipped = board.state.columns[2].cards[0]
        #expect(shipped.notes == nil, "blank notes are no notes")
        #expect(shipped.doneAt == 2000, "a card added to done is done from its creation")
    }

    @Test func anActionNotAcceptedIsRefused() {
        var state = BoardState()
        #expect(rejection { try AddCard(title: "x").update(&state) } == .notAccepted)
        #expect(state == BoardState())
    }

    @Test func badTitlesNotesAndColumnsAreRefusedWithTheReasonAndNothingChanges() throws {
        var board = BoardHarness()
        try board.add("keep me")
        let before = board.state
        #expect(rejection { try board.apply(AddCard(title: "   ")) }?.description == "the title is empty")
        #expect(
            rejection { try board.apply(AddCard(title: "a\u{1B}[2Jb")) }?.description
                == "the title contains control characters (line breaks, tabs, escape sequences)")
        #expect(
            rejection { try board.apply(AddCard(title: String(repeating: "x", count: 201))) }?.description
                == "the title has 201 characters; at most 200 are allowed")
        #expect(
            rejection { try board.apply(AddCard(title: "ok", notes: "line\nbreak")) }?.description
                == "the notes contains control characters (line breaks, tabs, escape sequences)")
        #expect(rejection { try board.apply(AddCard(title: "ok", column: "later")) }?.description == "no column later")
        #expect(board.state == before)
    }

    @Test func moveBetweenColumnsFixesDoneAtAndClearsItOnLeavingDone() throws {
        var board = BoardHarness()
        let spec = try board.add("spec")
        try board.add("tests")
        try board.apply(MoveCard(card: spec, column: "doing"))
        #expect(board.titles == ["todo": ["tests"], "doing": ["spec"], "done": []])
        #expect(board.state.columns[1].cards[0].doneAt == nil)
        try board.apply(MoveCard(card: spec, column: "done"), at: 50_000)
        #expect(board.state.columns[2].cards[0].doneAt == 50_000)
        try board.apply(MoveCard(card: spec, column: "done", position: 0))
        #expect(board.state.columns[2].cards[0].doneAt == 50_000, "a move within done keeps the time it got done")
        try board.apply(MoveCard(card: spec, column: "todo", position: 0))
        #expect(board.titles == ["todo": ["spec", "tests"], "doing": [], "done": []])
        #expect(board.state.columns[0].cards[0].doneAt == nil)
        #expect(
            board.state.undoStack.map(\.summary) == [
                #"add "spec""#, #"add "tests""#, #"move "spec" to doing"#, #"move "spec" to done"#,
                #"move "spec" to todo"#,
            ], "a move to where the card already is records nothing")
    }

    @Test func moveWithinAColumnToEachPosition() throws {
        var board = BoardHarness()
        let a = try board.add("a")
        try board.add("b")
        let c = try board.add("c")
        try board.apply(MoveCard(card: a, position: 2))
        #expect(board.titles["todo"] == ["b", "c", "a"])
        try board.apply(MoveCard(card: c, position: 0))
        #expect(board.titles["todo"] == ["c", "b", "a"])
        try board.apply(MoveCard(card: a, position: 1))
        #expect(board.titles["todo"] == ["c", "a", "b"])
        try board.apply(MoveCard(card: c))
        #expect(board.titles["todo"] == ["a", "b", "c"], "no position is the bottom")
    }

    @Test func moveRefusesUnknownCardsColumnsAndPositionsChangingNothing() throws {
        var board = BoardHarness()
        let a = try board.add("a")
        try board.add("b")
        let before = board.state
        #expect(rejection { try board.apply(MoveCard(card: "nope", column: "doing")) }?.description == "no card nope")
        #expect(rejection { try board.apply(MoveCard(card: a, column: "later")) }?.description == "no column later")
        #expect(
            rejection { try board.apply(MoveCard(card: a, position: 2)) }?.description
                == "position 2 is outside column todo, which takes positions 0 to 1")
        #expect(
            rejection { try board.apply(MoveCard(card: a, column: "doing", position: -1)) }?.description
                == "position -1 is outside column doing, which takes positions 0 to 0")
        #expect(board.state == before)
    }

    @Test func editReplacesTitleAndNotesAndKeepsWhatIsOmitted() throws {
        var board = BoardHarness()
        let id = try board.add("draft")
        try board.apply(EditCard(card: id, notes: "see the wiki"))
        #expect(board.state.columns[0].cards[0].title == "draft")
        #expect(board.state.columns[0].cards[0].notes == "see the wiki")
        try board.apply(EditCard(card: id, title: " final "))
        #expect(board.state.columns[0].cards[0].title == "final")
        #expect(board.state.columns[0].cards[0].notes == "see the wiki")
        try board.apply(EditCard(card: id, notes: ""))
        #expect(board.state.columns[0].cards[0].notes == nil)
        let steps = board.state.undoStack.count
        try board.apply(EditCard(card: id, title: "final"))
        #expect(board.state.undoStack.count == steps, "an edit that changes nothing records nothing")
        let before = board.state
        #expect(rejection { try board.apply(EditCard(card: id, title: "")) }?.description == "the title is empty")
        #expect(rejection { try board.apply(EditCard(card: "nope", title: "x")) }?.description == "no card nope")
        #expect(board.state == before)
    }

    @Test func archiveTakesTheCardOffTheBoardAndArchivedCardsCannotBeTouched() throws {
        var board = BoardHarness()
        let id = try board.add("old idea")
        try board.apply(ArchiveCard(card: id), at: 9_000)
        #expect(board.titles["todo"] == [])
        #expect(
            board.state.archive == [
                BoardCard(id: id, title: "old idea", createdAt: 1000, archived: true, archivedAt: 9_000)
            ])
        let before = board.state
        for action in [
            ArchiveCard(card: id) as any Action<BoardState>, MoveCard(card: id, column: "doing"),
            EditCard(card: id, title: "x"),
        ] {
            #expect(rejection { try board.applyAny(action) }?.description == #"card "old idea" is archived"#)
        }
        #expect(board.state == before)
    }
}

extension BoardHarness {
    /// Accepts and applies an action of any type.
    mutating func applyAny(_ action: any Action<BoardState>) throws {
        try apply(action, at: nil)
    }
}
