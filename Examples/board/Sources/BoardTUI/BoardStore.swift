import BoardDomain
import SyncClient
import SyncStore
import SyncTerminalUI
import TerminalUI

/// The board daemon as the screens see it: actions to send, and feeds of the view models and
/// of the connection.
///
/// A struct of functions so that screens can be built over the real daemon (`live(_:)`), over
/// a board in memory, or over nothing at all for snapshots (`inert`).
public struct BoardStore: ScreenStore {
    /// Any board action.
    public typealias Action = any SyncStore.Action<BoardState>

    private let send: @Sendable (Action) async throws -> Void
    /// `board {}`.
    public let board: Feed<ViewModelUpdate<BoardViewModel>>
    /// `undo {}`: the change the next undo reverts.
    public let undo: Feed<ViewModelUpdate<BoardUndoViewModel>>
    /// The connection to boardd, for the status line.
    public let connection: Feed<DisplayedConnectionState>

    /// A store made of these functions; `connection` by default never reports anything.
    public init(
        dispatch: @escaping @Sendable (Action) async throws -> Void,
        board: Feed<ViewModelUpdate<BoardViewModel>>,
        undo: Feed<ViewModelUpdate<BoardUndoViewModel>>,
        connection: Feed<DisplayedConnectionState> = .just("connection", [])
    ) {
        send = dispatch
        self.board = board
        self.undo = undo
        self.connection = connection
    }

    /// Sends `action`; throws its refusal.
    public func dispatch(_ action: Action) async throws {
        try await send(action)
    }

    /// The store over a connected `client`: the framework's feeds and dispatcher.
    public static func live(_ client: SyncClient) -> BoardStore {
        BoardStore(
            dispatch: client.dispatcher(of: BoardState.self),
            board: client.feed(BoardViewModel.self, params: NoParams()),
            undo: client.feed(BoardUndoViewModel.self, params: NoParams()),
            connection: client.connectionStateFeed())
    }

    /// A store whose feeds end at once and which refuses every action: screens built on it
    /// show only what a test puts in them.
    public static let inert = BoardStore(
        dispatch: { _ in throw SyncClientError.daemonUnreachable(path: "", reason: "no daemon in this test") },
        board: .just("board", []),
        undo: .just("undo", []))
}
