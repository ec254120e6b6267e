import BoardDomain
import SyncClient
import SyncStore
import SyncTerminalUI
import TerminalUI
import TerminalUITesting
import Testing

@testable import BoardTUI

/// The store's connection feed reaches the status line: a note while the connection is lost,
/// the counts again once it is back.
@MainActor @Suite struct BoardConnectionTests {
    private func screen(connection: [DisplayedConnectionState]) -> (BoardScreen, TerminalApp) {
        let store = BoardStore(
            dispatch: { _ in },
            board: .just(
                "board",
                [ViewModelUpdate(version: 1, model: BoardViewModel(state: BoardApp.initialState, params: NoParams()))]),
            undo: .just("undo", []),
            connection: .just("connection", connection))
        let screen = BoardScreen(store: store)
        let app = TerminalApp(root: screen, terminal: FakeTerminal(size: Size(columns: 60, rows: 8)), colors: true)
        app.start()
        return (screen, app)
    }

    @Test func aLostConnectionIsNotedInTheStatusLine() async throws {
        let (screen, app) = screen(connection: [
            .connected(version: 1), .reconnecting(attempt: 2, reason: "connection refused"),
        ])
        try await waitUntil("the note is shown") {
            screen.rootView.model?.connectionNote == "reconnecting (attempt 2): connection refused"
        }
        #expect(
            SnapshotText.lines(screen.rootView.canvas)[7].hasPrefix(" v1  reconnecting (attempt 2): connection refused")
        )
        withExtendedLifetime(app) {}
    }

    @Test func theNoteGoesOnceTheConnectionIsBack() async throws {
        let (screen, app) = screen(connection: [.reconnecting(attempt: 1, reason: "gone"), .connected(version: 1)])
        try await waitUntil("the board and the connection arrived") {
            screen.rootView.model?.board != nil && screen.rootView.model?.connectionNote == nil
                && SnapshotText.lines(screen.rootView.canvas)[7].hasPrefix(" v1  0 cards, 0 archived")
        }
        let (lost, otherApp) = self.screen(connection: [.disconnected(reason: "closed")])
        try await waitUntil("a lost connection is noted") {
            lost.rootView.model?.connectionNote == "disconnected: closed"
        }
        withExtendedLifetime((app, otherApp)) {}
    }
}
