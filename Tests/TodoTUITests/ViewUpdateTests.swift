import SyncClient
import SyncStore
import TerminalUI
import TerminalUITesting
import Testing
import TodoDomain

@testable import TodoTUI

/// `update(oldModel:)` repaints what changed and nothing else, and what reaches the terminal
/// is the difference.
@MainActor @Suite struct ViewUpdateTests {
    private let rows = (1...40).map { ListViewModel.Row(number: $0, text: "item \($0)", completed: false) }

    @Test func movingTheSelectionRepaintsTwoRows() {
        let view = ListPaneView()
        view.layout(size: Size(columns: 30, rows: 10))
        view.model = ListPaneModel(rows: rows, selected: 2, filter: .all)
        // Marks in rows the change does not concern: a full repaint would wipe them.
        view.canvas.put(Cell("#"), row: 5, column: 29)
        view.canvas.put(Cell("#"), row: 0, column: 29)
        view.model = ListPaneModel(rows: rows, selected: 3, filter: .all)
        #expect(view.canvas[5, 29].character == "#" && view.canvas[0, 29].character == "#")
        #expect(SnapshotText.lines(view.canvas)[2] == "   2 [ ] item 2")
        #expect(SnapshotText.lines(view.canvas)[3] == ">  3 [ ] item 3")
    }

    @Test func aChangedListRepaintsThePane() {
        let view = ListPaneView()
        view.layout(size: Size(columns: 30, rows: 10))
        view.model = ListPaneModel(rows: rows, selected: 2, filter: .all)
        view.canvas.put(Cell("#"), row: 5, column: 29)
        view.model = ListPaneModel(rows: Array(rows.dropFirst()), selected: 2, filter: .all)
        #expect(view.canvas[5, 29].character == " ")
        #expect(SnapshotText.lines(view.canvas)[1] == ">  2 [ ] item 2")
    }

    @Test func scrollingKeepsTheSelectionInViewAndMovesAsLittleAsPossible() {
        let view = ListPaneView()
        view.layout(size: Size(columns: 30, rows: 6))
        view.model = ListPaneModel(rows: rows, selected: 1, filter: .all)
        #expect(view.scrollOffset == 0)
        view.model = ListPaneModel(rows: rows, selected: 7, filter: .all)
        #expect(view.scrollOffset == 2, "seven rows, five visible: the selection on the last line")
        view.model = ListPaneModel(rows: rows, selected: 5, filter: .all)
        #expect(view.scrollOffset == 2, "still visible: no scrolling")
        view.model = ListPaneModel(rows: rows, selected: 1, filter: .all)
        #expect(view.scrollOffset == 0)
    }

    @Test func keysBecomeInteractions() {
        let view = ListPaneView()
        view.layout(size: Size(columns: 30, rows: 6))
        view.model = ListPaneModel(rows: rows, selected: 3, filter: .all)
        var selected: [Int] = []
        var toggled: [Int] = []
        view.didSelect = { selected.append($0) }
        view.didToggleItem = { toggled.append($0.number) }
        for key: Key in [.down, .character("k"), .pageDown, .pageUp, .end, .home, .character("G"), .character("g")] {
            _ = view.handle(key)
        }
        #expect(selected == [4, 2, 8, 1, 40, 1, 40, 1])
        #expect(view.handle(.character(" ")) && toggled == [3])
        #expect(!view.handle(.character("z")))
    }

    @Test func aOneRowChangeWritesAFractionOfAFullFrame() {
        let rows = (1...42).map {
            ListViewModel.Row(
                number: $0, text: "item \($0): some words long enough to fill most of the list pane", completed: false)
        }
        let terminal = FakeTerminal(size: Size(columns: 132, rows: 43))
        terminal.write(Array(ControlSequence.setUp.utf8))
        let screen = MainScreen(store: .inert)
        let app = TerminalApp(root: screen, terminal: terminal, colors: true)
        var model = ListViewModel(state: TodoState(), params: .init())
        model.items = ChunkedArray(rows)
        model.openCount = rows.count
        app.start()
        screen.receive(connection: .connected(version: 40))
        screen.receive(list: ViewModelUpdate(version: 40, model: model))
        app.renderIfNeeded()
        app.handle(.resize(terminal.size))
        app.renderIfNeeded()
        let full = terminal.lastWriteSize
        app.handle(.key(.down))
        app.renderIfNeeded()
        let selectionMove = terminal.lastWriteSize
        model.items[20].completed = true
        model.doneCount = 1
        model.openCount -= 1
        screen.receive(list: ViewModelUpdate(version: 41, model: model))
        app.renderIfNeeded()
        let oneItemToggled = terminal.lastWriteSize
        #expect(terminal.unsupported.isEmpty)
        #expect(
            selectionMove * 8 < full && oneItemToggled * 8 < full,
            "full frame \(full) bytes, selection move \(selectionMove), one item toggled elsewhere \(oneItemToggled)")
    }

    @Test func theFormFieldKeepsTheCursorInView() {
        let input = TextInput("0123456789", cursor: 8)
        let (shown, column) = input.visible(inWidth: 5)
        #expect(shown == "45678" && column == 4, "four characters before the cursor, the one under it")
        #expect(TextInput("漢字漢字", cursor: 4).visible(inWidth: 5) == ("漢字", 4))
        #expect(TextInput("ab").editing(with: .character("\u{301}"))?.text == "ab\u{301}")
        #expect(
            TextInput("ab").editing(with: .character("\u{301}"))?.cursor == 2,
            "a combining mark joins the character before")
        #expect(TextInput("walk the dog").editing(with: .control("w"))?.text == "walk the ")
        #expect(TextInput("abc", cursor: 1).editing(with: .backspace) == TextInput("bc", cursor: 0))
        #expect(TextInput("abc", cursor: 1).editing(with: .delete) == TextInput("ac", cursor: 1))
        #expect(TextInput("abc").editing(with: .enter) == nil)
    }
}
