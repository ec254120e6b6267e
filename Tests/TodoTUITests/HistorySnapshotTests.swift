import SyncClient
import SyncProtocol
import SyncStore
import TerminalUI
import TerminalUITesting
import Testing
import TodoDomain

@testable import TodoTUI

/// The read-only history mode of `todo tui`: entered with `h`, stepped with `[` and `]`, left
/// with Esc; keys that change things do nothing in it.
@MainActor @Suite struct HistorySnapshotTests {
    let snapshots = Snapshots(besides: #filePath)

    private static func list(_ rows: [ListViewModel.Row]) -> ListViewModel {
        var model = ListViewModel(state: TodoState(), params: .init())
        model.items = ChunkedArray(rows)
        model.doneCount = rows.count { $0.completed }
        model.openCount = rows.count - model.doneCount
        return model
    }

    static let now = [
        ListViewModel.Row(number: 1, text: "buy milk", completed: true),
        ListViewModel.Row(number: 2, text: "walk the dog", completed: false),
    ]
    static let atVersion2 = [
        ListViewModel.Row(number: 1, text: "buy milk", completed: false),
        ListViewModel.Row(number: 2, text: "walk dog", completed: false),
    ]
    static let entry2 = HistoryEntry(
        version: 2, name: "add",
        payload: .object(["text": .string("walk dog"), "change": .integer(7), "createdAt": .integer(1)]),
        acceptedAt: 1_714_564_800_000, uid: 1000, pid: 42)

    /// The main screen at version 4 with the history mode entered; `steps` pressed in it.
    private func history(_ size: Size, steps: [Key]) -> (app: TerminalApp, main: MainScreen) {
        let screen = MainScreen(store: .inert, history: .inert)
        let app = TerminalApp(root: screen, terminal: FakeTerminal(size: size), colors: true)
        app.start()
        screen.receive(connection: .connected(version: 4))
        screen.receive(list: ViewModelUpdate(version: 4, model: Self.list(Self.now)))
        app.handle(.key(.character("h")))
        for key in steps { app.handle(.key(key)) }
        return (app, screen)
    }

    @Test func theHistoryModeShowsAPastVersionAndWhatItsActionDid() throws {
        try snapshots.verify("history-version-2") { size in
            let (app, _) = history(size, steps: [.character("["), .left])
            let screen = try #require(app.navigator.topScreen as? HistoryScreen)
            #expect(screen.version == 2)
            screen.receive(HistoryMoment(version: 2, list: Self.list(Self.atVersion2), entry: Self.entry2))
            return app.currentFrame()
        }
    }

    @Test func theStartHasNoActionAndSteppingStopsAtBothEnds() throws {
        try snapshots.verify("history-version-0") { size in
            let (app, _) = history(size, steps: [.home, .character("["), .character("[")])
            let screen = try #require(app.navigator.topScreen as? HistoryScreen)
            #expect(screen.version == 0)
            screen.receive(HistoryMoment(version: 0, list: Self.list([]), entry: nil))
            return app.currentFrame()
        }
        let (app, _) = history(Size(columns: 80, rows: 24), steps: [.end, .character("]"), .right])
        #expect((app.navigator.topScreen as? HistoryScreen)?.version == 4, "never past the newest version")
    }

    @Test func aMomentForAnotherVersionIsNotShownAndKeysThatChangeThingsDoNothing() throws {
        let (app, main) = history(Size(columns: 80, rows: 24), steps: [.character("[")])
        let screen = try #require(app.navigator.topScreen as? HistoryScreen)
        screen.receive(HistoryMoment(version: 2, list: Self.list(Self.atVersion2), entry: Self.entry2))
        #expect(screen.rootView.model?.moment == nil, "version 3 is shown, not 2")
        // Space, d, a, u, e: none reaches the list; the history stays.
        for key: Key in [
            .character(" "), .character("d"), .character("a"), .character("u"), .character("e"), .character("f"),
        ] { app.handle(.key(key)) }
        #expect(app.navigator.topScreen === screen)
        #expect(main.filter == .all)
        app.handle(.key(.escape))
        #expect(app.navigator.topScreen === main, "Esc leaves the history")
        #expect(SnapshotText.render(app.currentFrame()).contains("h history"), "the status line names the key")
    }
}
