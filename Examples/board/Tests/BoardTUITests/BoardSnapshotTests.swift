import BoardDomain
import SyncClient
import SyncStore
import TerminalUI
import TerminalUITesting
import Testing

@testable import BoardTUI

/// The board screen in its states, at 80×24, 40×12 and 132×43 (and narrower where it
/// matters), compared with the files in `__Snapshots__` (`RECORD_SNAPSHOTS=1` records).
/// Boards are put into the screen as its subscription would, over a store that delivers
/// nothing itself.
@MainActor @Suite struct BoardSnapshotTests {
    let snapshots = Snapshots(besides: #filePath)

    static func card(_ n: Int, _ title: String, notes: Bool = false) -> CardSummary {
        CardSummary(id: "card-\(n)", title: title, hasNotes: notes)
    }

    static let sample = BoardViewModel(
        columns: [
            ColumnSummary(
                name: "todo", limit: nil,
                cards: [
                    card(1, "write the spec", notes: true), card(2, "plan the demo"),
                    card(3, "call the plumber about the kitchen sink before the weekend"),
                ]),
            ColumnSummary(
                name: "doing", limit: 2, cards: [card(4, "review the PR"), card(5, "fix the flaky test", notes: true)]),
            ColumnSummary(name: "done", limit: nil, cards: [card(6, "ship 0.1")]),
        ], archivedCount: 4)

    /// The board screen at `size` after `configure`, as the terminal would show it.
    private func frame(
        _ size: Size, board: BoardViewModel? = sample, _ configure: (BoardScreen, TerminalApp) -> Void = { _, _ in }
    ) -> Canvas {
        let screen = BoardScreen(store: .inert)
        let app = TerminalApp(root: screen, terminal: FakeTerminal(size: size), colors: true)
        app.start()
        if let board { screen.receive(board: ViewModelUpdate(version: 12, model: board)) }
        configure(screen, app)
        return app.currentFrame()
    }

    @Test func loadingBeforeTheBoardArrived() throws {
        try snapshots.verify("board-loading") { size in frame(size, board: nil) }
    }

    @Test func aNewEmptyBoard() throws {
        try snapshots.verify("board-empty") { size in
            frame(size, board: BoardViewModel(state: BoardState(), params: NoParams()))
        }
    }

    @Test func cardsWithTheSelectionInAFullColumn() throws {
        try snapshots.verify("board-cards", sizes: Snapshots.standardSizes + [Size(columns: 30, rows: 8)]) { size in
            frame(size) { _, app in
                app.handle(.key(.right))
                app.handle(.key(.down))
            }
        }
    }

    @Test func aLongColumnScrolledToItsLastCard() throws {
        let long = BoardViewModel(
            columns: [
                ColumnSummary(name: "backlog", limit: nil, cards: (1...50).map { Self.card($0, "card number \($0)") }),
                ColumnSummary(name: "done", limit: nil, cards: []),
            ], archivedCount: 0)
        try snapshots.verify("board-long-column") { size in
            frame(size, board: long) { _, app in
                for _ in 0..<49 { app.handle(.key(.down)) }
            }
        }
    }

    @Test func theAddForm() throws {
        try snapshots.verify("board-add-modal") { size in
            frame(size) { _, app in
                app.handle(.key(.right))
                app.handle(.key(.character("a")))
                for character in "pair on the bug" { app.handle(.key(.character(character))) }
            }
        }
    }

    @Test func theAddFormShowingARefusal() throws {
        try snapshots.verify("board-add-modal-refused") { size in
            frame(size) { _, app in
                app.handle(.key(.right))
                app.handle(.key(.character("a")))
                let form = app.navigator.topScreen as! CardFormScreen
                form.rootView.model?.error = "column doing is at its limit of 2"
            }
        }
    }

    @Test func theHelpOverlay() throws {
        try snapshots.verify("board-help") { size in frame(size) { _, app in app.handle(.key(.character("?"))) } }
    }

    @Test func aRefusalInTheStatusLine() throws {
        try snapshots.verify("board-message") { size in
            frame(size) { screen, _ in screen.show(message: "column doing is at its limit of 2") }
        }
    }
}
