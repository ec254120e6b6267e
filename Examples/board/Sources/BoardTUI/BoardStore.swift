import BoardDomain
import SyncClient
import SyncStore
import TerminalUI

/// The board daemon as the screens see it: actions to send, and feeds of the view models.
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

    /// A store made of these functions.
    public init(
        dispatch: @escaping @Sendable (Action) async throws -> Void,
        board: Feed<ViewModelUpdate<BoardViewModel>>,
        undo: Feed<ViewModelUpdate<BoardUndoViewModel>>
    ) {
        send = dispatch
        self.board = board
        self.undo = undo
    }

    /// Sends `action`; throws its refusal.
    public func dispatch(_ action: Action) async throws {
        try await send(action)
    }

    /// The store over a connected `client`.
    public static func live(_ client: SyncClient) -> BoardStore {
        BoardStore(
            dispatch: { action in _ = try await client.dispatch(action) },
            board: Feed("board") { client.subscribe(BoardViewModel.self, params: NoParams()) },
            undo: Feed("undo") { client.subscribe(BoardUndoViewModel.self, params: NoParams()) })
    }

    /// A store whose feeds end at once and which refuses every action: screens built on it
    /// show only what a test puts in them.
    public static let inert = BoardStore(
        dispatch: { _ in throw SyncClientError.connectionClosed(reason: "no daemon in this test") },
        board: .just("board", []),
        undo: .just("undo", []))
}
