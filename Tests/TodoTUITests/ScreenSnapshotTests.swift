import SyncClient
import SyncStore
import TerminalUI
import TerminalUITesting
import Testing
import TodoDomain

@testable import TodoTUI

/// Every screen of `todo tui` in its states, at 80×24, 40×12 and 132×43 (and narrower where
/// it matters), compared with the files in `__Snapshots__` (`RECORD_SNAPSHOTS=1` records).
/// Models are put into the screens as their subscriptions would (Tempura's
/// `ViewControllerTestCase.configure`), over a store that never delivers anything itself.
@MainActor @Suite struct ScreenSnapshotTests {
    let snapshots = Snapshots(besides: #filePath)
    static let createdAt: Int64 = 1_714_564_800_000 // 2024-05-01 12:00 UTC

    static let fewItems = [
        ListViewModel.Row(number: 1, text: "buy milk", completed: true),
        ListViewModel.Row(number: 2, text: "walk the dog", completed: false),
        ListViewModel.Row(number: 4, text: "call the plumber about the kitchen sink", completed: false),
    ]

    /// The main screen at `size` after `configure`, as the terminal would show it.
    private func frame(_ size: Size, _ configure: (MainScreen, TerminalApp) -> Void) -> Canvas {
        let screen = MainScreen(store: .inert)
        let app = TerminalApp(root: screen, terminal: FakeTerminal(size: size), colors: true)
        app.start()
        screen.receive(connection: .connected(version: 7))
        configure(screen, app)
        return app.currentFrame()
    }

    private func list(_ rows: [ListViewModel.Row], version: UInt64 = 12) -> ViewModelUpdate<ListViewModel> {
        var model = ListViewModel(state: TodoState(), params: .init())
        model.items = ChunkedArray(rows)
        model.doneCount = rows.count { $0.completed }
        model.openCount = rows.count - model.doneCount
        return ViewModelUpdate(version: version, model: model)
    }

    private func item(_ row: ListViewModel.Row) -> ViewModelUpdate<ItemViewModel> {
        var model = ItemViewModel(
            state: TodoState(
                items: [
                    TodoItem(
                        id: "i", number: row.number, text: row.text, completed: row.completed,
                        createdAt: Self.createdAt,
                        completedAt: row.completed ? Self.createdAt + 3_600_000 : nil)
                ], nextNumber: row.number + 1), params: .init(number: row.number))!
        model.item.number = row.number
        return ViewModelUpdate(version: 12, model: model)
    }

    /// Shows `rows`, selects `selected` (by moving down), and delivers its item.
    private func show(
        _ rows: [ListViewModel.Row], selecting selected: Int? = nil, on screen: MainScreen, app: TerminalApp
    ) {
        screen.receive(list: list(rows))
        if let selected, let index = rows.firstIndex(where: { $0.number == selected }) {
            for _ in 0..<index { app.handle(.key(.character("j"))) }
        }
        if let number = screen.listScreen.selected, let row = rows.first(where: { $0.number == number }) {
            screen.detailScreen.receive(item: item(row), number: number)
        }
    }

    @Test func loadingBeforeAnythingArrived() throws {
        try snapshots.verify("main-loading") { size in
            let screen = MainScreen(store: .inert)
            let app = TerminalApp(root: screen, terminal: FakeTerminal(size: size), colors: true)
            app.start()
            return app.currentFrame()
        }
    }

    @Test func emptyList() throws {
        try snapshots.verify("main-empty") { size in frame(size) { screen, _ in screen.receive(list: list([])) } }
    }

    @Test func aFewItemsWithTheSecondSelected() throws {
        try snapshots.verify("main-items", sizes: Snapshots.standardSizes + [Size(columns: 24, rows: 6)]) { size in
            frame(size) { screen, app in show(Self.fewItems, selecting: 2, on: screen, app: app) }
        }
    }

    @Test func aLongListScrolledToTheEnd() throws {
        let rows = (1...60).map { ListViewModel.Row(number: $0, text: "item number \($0)", completed: $0 % 3 == 0) }
        try snapshots.verify("main-long-list-end") { size in
            frame(size) { screen, app in
                show(rows, on: screen, app: app)
                app.handle(.key(.end))
                screen.detailScreen.receive(item: item(rows[59]), number: 60)
            }
        }
    }

    @Test func aVeryLongItemText() throws {
        let long = String(repeating: "a very long item text that goes on and on ", count: 23).trimmingTrailingSpace
        let rows = [
            ListViewModel.Row(number: 1, text: "short", completed: false),
            ListViewModel.Row(number: 2, text: long, completed: false),
        ]
        try snapshots.verify("main-long-text") { size in
            frame(size) { screen, app in show(rows, selecting: 2, on: screen, app: app) }
        }
    }

    @Test func wideCharacters() throws {
        let rows = [
            ListViewModel.Row(number: 1, text: "漢字とかなの買い物リストを作る", completed: false),
            ListViewModel.Row(number: 2, text: "emoji 😀 family 👨‍👩‍👧 flag 🇫🇷 heart ❤️", completed: true),
            ListViewModel.Row(number: 3, text: "combining: Zoe\u{0308} cafe\u{0301} n\u{0303}", completed: false),
            ListViewModel.Row(number: 4, text: "한국어 할 일 목록과 긴 텍스트가 잘리는 곳", completed: false),
        ]
        try snapshots.verify("main-wide-characters") { size in
            frame(size) { screen, app in show(rows, selecting: 1, on: screen, app: app) }
        }
    }

    @Test func aFilterWithNothingToShow() throws {
        try snapshots.verify("main-filter-open-empty") { size in
            frame(size) { screen, app in
                show(Self.fewItems, on: screen, app: app)
                app.handle(.key(.character("f")))
                screen.receive(list: list([]))
            }
        }
    }

    @Test func theAddForm() throws {
        try snapshots.verify("main-add-modal", sizes: Snapshots.standardSizes + [Size(columns: 24, rows: 6)]) { size in
            frame(size) { screen, app in
                show(Self.fewItems, selecting: 2, on: screen, app: app)
                app.handle(.key(.character("a")))
                for character in "buy bread 🍞" { app.handle(.key(.character(character))) }
                #expect(app.navigator.routes == ["main", "add item"])
                #expect(
                    app.currentCursor()?.row == app.currentFrameModalRect().minRow + min(2, size.rows - 2),
                    "the cursor is in the field")
            }
        }
    }

    @Test func theAddFormShowingARefusal() throws {
        try snapshots.verify("main-add-modal-refused") { size in
            frame(size) { screen, app in
                show(Self.fewItems, on: screen, app: app)
                app.handle(.key(.character("a")))
                app.handle(.key(.enter))
                let form = app.navigator.topScreen as! ItemFormScreen
                form.rootView.model?.isSending = false
                form.rootView.model?.error = "the text is empty"
            }
        }
    }

    @Test func theEditForm() throws {
        try snapshots.verify("main-edit-modal") { size in
            frame(size) { screen, app in
                show(Self.fewItems, selecting: 4, on: screen, app: app)
                app.handle(.key(.character("e")))
                app.handle(.key(.home))
            }
        }
    }

    @Test func theDeleteQuestion() throws {
        try snapshots.verify("main-delete-confirm") { size in
            frame(size) { screen, app in
                show(Self.fewItems, selecting: 2, on: screen, app: app)
                app.handle(.key(.character("d")))
            }
        }
    }

    @Test func theHelpOverlay() throws {
        try snapshots.verify("main-help") { size in
            frame(size) { screen, app in
                show(Self.fewItems, on: screen, app: app)
                app.handle(.key(.character("?")))
            }
        }
    }

    @Test func disconnected() throws {
        try snapshots.verify("main-disconnected") { size in
            frame(size) { screen, app in
                show(Self.fewItems, on: screen, app: app)
                screen.receive(connection: .disconnected(reason: "the daemon closed the connection"))
            }
        }
    }

    @Test func reconnecting() throws {
        try snapshots.verify("main-reconnecting") { size in
            frame(size) { screen, app in
                show(Self.fewItems, on: screen, app: app)
                screen.receive(connection: .reconnecting(attempt: 2, reason: "connection refused"))
            }
        }
    }

    @Test func aMessageInTheStatusLine() throws {
        try snapshots.verify("main-message") { size in
            frame(size) { screen, app in
                show(Self.fewItems, on: screen, app: app)
                screen.show(message: "nothing to undo")
            }
        }
    }

    @Test func theListPaneAloneScrolledToItsEnd() throws {
        let rows = (1...30).map {
            ListViewModel.Row(number: $0 * 10, text: "row \($0)", completed: $0.isMultiple(of: 2))
        }
        try snapshots.verify(
            "list-pane-end", of: ListPaneView(), model: ListPaneModel(rows: rows, selected: 300, filter: .all),
            sizes: [
                Size(columns: 30, rows: 8), Size(columns: 80, rows: 24),
            ])
    }

    @Test func theFormFieldScrolledToTheCursor() throws {
        let input = TextInput(String(repeating: "0123456789", count: 10), cursor: 55)
        try snapshots.verify(
            "item-form-scrolled", of: TextFormView(), model: TextFormModel(title: "Edit item 9", input: input),
            sizes: [
                Size(columns: 30, rows: 6), Size(columns: 80, rows: 6),
            ])
    }
}

extension String {
    /// The text without trailing spaces.
    fileprivate var trimmingTrailingSpace: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension TerminalApp {
    /// Where the cursor is in the current frame.
    fileprivate func currentCursor() -> Position? { navigator.compose().cursor }

    /// Where the top (modal) screen is drawn.
    fileprivate func currentFrameModalRect() -> Rect {
        let size = navigator.size
        return Rect(origin: .origin, size: size).centered(navigator.topScreen.size)
    }
}
