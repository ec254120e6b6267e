import BoardDomain
import TerminalUI
import TerminalUITesting
import Testing

@testable import BoardTUI

/// `update(oldModel:)` repaints the columns that changed and nothing else, and keys become
/// the view's interactions.
@MainActor @Suite struct BoardViewTests {
    private let board = BoardSnapshotTests.sample

    /// The view at 60×10 showing `board` with the selection at `column`, `card`.
    private func view(column: Int = 0, card: Int? = 0) -> BoardView {
        let view = BoardView()
        view.layout(size: Size(columns: 60, rows: 10))
        view.model = BoardScreenModel(board: board, column: column, card: card, version: 3)
        return view
    }

    @Test func movingTheSelectionWithinAColumnRepaintsThatColumnOnly() {
        let view = view()
        // Marks inside the other columns: a repaint of them would wipe them.
        view.canvas.put(Cell("#"), row: 5, column: 30)
        view.canvas.put(Cell("#"), row: 5, column: 50)
        view.model?.card = 1
        #expect(view.canvas[5, 30].character == "#" && view.canvas[5, 50].character == "#")
        #expect(SnapshotText.lines(view.canvas)[1].hasPrefix("│  write the spec"))
        #expect(SnapshotText.lines(view.canvas)[2].hasPrefix("│> plan the demo"))
    }

    @Test func movingToAnotherColumnRepaintsTheTwoColumnsOnly() {
        let view = view()
        view.canvas.put(Cell("#"), row: 5, column: 50)
        view.canvas.put(Cell("#"), row: 5, column: 10)
        view.model?.column = 1
        #expect(view.canvas[5, 50].character == "#", "done is untouched")
        #expect(view.canvas[5, 10].character == " ", "todo lost its selection: repainted")
        #expect(SnapshotText.lines(view.canvas)[1].contains("││> review the PR"))
    }

    @Test func aChangedColumnIsRepaintedAndTheOthersAreNot() {
        let view = view()
        view.canvas.put(Cell("#"), row: 5, column: 10)
        var changed = board
        changed.columns[2].cards.append(CardSummary(id: "new", title: "new card", hasNotes: false))
        view.model?.board = changed
        #expect(view.canvas[5, 10].character == "#")
        #expect(SnapshotText.lines(view.canvas)[0].contains("done 2"))
        #expect(SnapshotText.lines(view.canvas)[2].contains("│  new card"))
    }

    @Test func aNewLayoutRepaintsEverything() {
        let view = view()
        view.canvas.put(Cell("#"), row: 5, column: 10)
        view.layout(size: Size(columns: 60, rows: 10))
        #expect(view.canvas[5, 10].character == " ")
        #expect(SnapshotText.lines(view.canvas)[1].hasPrefix("│> write the spec"))
    }

    @Test func keysBecomeInteractions() {
        let view = view()
        var selections: [[Int]] = []
        var moves: [Int] = []
        var shifts: [Int] = []
        var requests: [String] = []
        view.didSelect = { selections.append([$0, $1]) }
        view.didMoveCard = { moves.append($0) }
        view.didShiftCard = { shifts.append($0) }
        view.didRequestAdd = { requests.append("add") }
        view.didRequestArchive = { requests.append("archive") }
        view.didRequestUndo = { requests.append("undo") }
        view.didRequestHelp = { requests.append("help") }
        view.didRequestQuit = { requests.append("quit") }
        let keys: [Key] = [
            .left, .character("h"), .right, .character("l"), .up, .character("k"), .down, .character("j"),
            .character(">"), .character("<"), .character("J"), .character("K"),
            .character("a"), .character("x"), .character("u"), .character("?"), .character("q"),
        ]
        #expect(keys.allSatisfy { view.handle($0) })
        #expect(selections == [[-1, 0], [-1, 0], [1, 0], [1, 0], [0, -1], [0, -1], [0, 1], [0, 1]])
        #expect(moves == [1, -1] && shifts == [1, -1])
        #expect(requests == ["add", "archive", "undo", "help", "quit"])
        #expect(!view.handle(.character("z")) && !view.handle(.enter), "keys it has no use for are left to others")
    }
}
