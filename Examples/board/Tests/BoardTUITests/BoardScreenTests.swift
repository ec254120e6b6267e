import BoardDomain
import SyncStore
import TerminalUI
import TerminalUITesting
import Testing

@testable import BoardTUI

/// The board screen driven by keys over a real board in memory: what each key sends, what
/// the board becomes, where the selection goes, and what the status line says of a refusal.
@MainActor @Suite struct BoardScreenTests {
    let memory: MemoryBoard
    let screen: BoardScreen
    let app: TerminalApp

    init() {
        memory = MemoryBoard()
        screen = BoardScreen(store: memory.screenStore())
        app = TerminalApp(root: screen, terminal: FakeTerminal(size: Size(columns: 80, rows: 24)), colors: true)
        app.start()
    }

    private var model: BoardScreenModel { screen.rootView.model! }

    private func press(_ keys: Key...) {
        for key in keys { app.handle(.key(key)) }
    }

    private func type(_ text: String) {
        for character in text { app.handle(.key(.character(character))) }
    }

    /// Adds a card through the form, as a user would, and waits for it on the board.
    private func addThroughTheForm(_ title: String) async throws {
        let cards = memory.state.columns.reduce(0) { $0 + $1.cards.count }
        press(.character("a"))
        #expect(app.navigator.routes == ["board", "add card"])
        type(title)
        press(.enter)
        try await waitUntil("the card \(title) is on the board and the form closed") {
            memory.state.columns.reduce(0) { $0 + $1.cards.count } == cards + 1 && app.navigator.routes == ["board"]
                && model.board?.columns.reduce(0) { $0 + $1.cards.count } == cards + 1
        }
    }

    private func titles(_ column: Int) -> [String] {
        memory.state.columns[column].cards.map(\.title)
    }

    @Test func addingCardsThroughTheFormPutsThemInTheSelectedColumn() async throws {
        try await waitUntil("the board arrived") { model.board != nil }
        try await addThroughTheForm("write the spec")
        press(.right)
        try await addThroughTheForm("review the PR")
        #expect(titles(0) == ["write the spec"])
        #expect(titles(1) == ["review the PR"])
        #expect(model.column == 1 && model.selectedCard?.title == "review the PR")
    }

    @Test func moveKeysCarryTheCardAndTheSelectionFollowsIt() async throws {
        try await waitUntil("the board arrived") { model.board != nil }
        try await addThroughTheForm("a")
        try await addThroughTheForm("b")
        press(.down)
        #expect(model.selectedCard?.title == "b")
        press(.character(">"))
        try await waitUntil("b is in doing") { titles(1) == ["b"] && model.column == 1 }
        #expect(model.selectedCard?.title == "b")
        press(.character(">"))
        try await waitUntil("b is done") { titles(2) == ["b"] && model.column == 2 }
        #expect(memory.state.columns[2].cards[0].doneAt != nil)
        press(.character("<"))
        try await waitUntil("b is back in doing") { titles(1) == ["b"] && model.column == 1 }
        press(.character("<"))
        try await waitUntil("b is back in todo, under a") { titles(0) == ["a", "b"] && model.column == 0 }
        press(.character("K"))
        try await waitUntil("b moved above a, and the screen saw it") { titles(0) == ["b", "a"] && model.card == 0 }
        #expect(model.selectedCard?.title == "b")
        press(.character("J"))
        try await waitUntil("b moved below a, and the screen saw it") { titles(0) == ["a", "b"] && model.card == 1 }
        press(.character("<"))
        #expect(memory.state.undoStack.count == 8, "no column left of the first: nothing is sent")
    }

    @Test func aMoveIntoAFullColumnIsRefusedAndTheStatusLineSaysWhy() async throws {
        try memory.apply(SetColumnLimit(column: "doing", limit: 1))
        try memory.apply(AddCard(title: "busy", column: "doing"))
        try memory.apply(AddCard(title: "waiting"))
        try await waitUntil("the board arrived") { model.board?.columns[0].cards.count == 1 }
        let before = memory.state
        press(.character(">"))
        try await waitUntil("the refusal is shown") { model.message == "column doing is at its limit of 1" }
        #expect(memory.state == before)
        #expect(model.column == 0 && model.selectedCard?.title == "waiting")
        press(.right)
        #expect(model.message == nil, "the next key clears the message")
    }

    @Test func theFormShowsARefusalAndStaysOpen() async throws {
        try memory.apply(SetColumnLimit(column: "todo", limit: 1))
        try memory.apply(AddCard(title: "only one"))
        try await waitUntil("the board arrived") { model.board?.columns[0].cards.count == 1 }
        press(.character("a"))
        type("one more")
        press(.enter)
        let form = try #require(app.navigator.topScreen as? CardFormScreen)
        try await waitUntil("the form shows the refusal") {
            form.rootView.model?.error == "column todo is at its limit of 1"
        }
        #expect(app.navigator.routes == ["board", "add card"])
        press(.escape)
        #expect(app.navigator.routes == ["board"])
        #expect(titles(0) == ["only one"])
    }

    @Test func archiveThenUndoPutsTheCardBack() async throws {
        try memory.apply(AddCard(title: "old idea"))
        try await waitUntil("the board arrived") { model.selectedCard?.title == "old idea" }
        press(.character("x"))
        try await waitUntil("archived") {
            memory.state.archive.count == 1 && model.board?.archivedCount == 1 && model.message != nil
        }
        #expect(model.message == #"archived "old idea""#)
        #expect(model.selectedCard == nil)
        try await waitUntil("the screen knows the archive is the change to undo") {
            screen.undoTarget?.summary == #"archive "old idea""#
        }
        press(.character("u"))
        try await waitUntil("undone, and the status line says so") {
            titles(0) == ["old idea"] && memory.state.archive.isEmpty && model.message == #"undid: archive "old idea""#
        }
        #expect(model.selectedCard?.title == "old idea")
    }

    @Test func undoWithNothingToUndoSaysSoAndSendsNothing() async throws {
        try await waitUntil("the board arrived") { model.board != nil }
        press(.character("u"))
        #expect(model.message == "nothing to undo")
        #expect(memory.store.version == 0)
    }

    @Test func helpOpensAndAnyKeyClosesIt() async throws {
        press(.character("?"))
        #expect(app.navigator.routes == ["board", "help"])
        press(.character("z"))
        #expect(app.navigator.routes == ["board"])
        press(.character("q"))
        #expect(app.hasQuit)
    }
}
