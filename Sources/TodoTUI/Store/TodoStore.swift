import SyncClient
import SyncStore
import SyncTerminalUI
import TerminalUI
import TodoDomain

/// The todo daemon as the screens see it: actions to send, and feeds of the view models and
/// of the connection state.
///
/// A struct of functions so that screens can be built over the real daemon (`live(_:)`) or
/// over fixed values for snapshots (`inert`).
public struct TodoStore: ScreenStore {
    /// Any todo action.
    public typealias Action = any SyncStore.Action<TodoState>

    private let send: @Sendable (Action) async throws -> Void
    /// `list {filter}`.
    public let list: @Sendable (ListFilter) -> Feed<ViewModelUpdate<ListViewModel>>
    /// `item {number}`.
    public let item: @Sendable (Int) -> Feed<ViewModelUpdate<ItemViewModel>>
    /// `undo {}`: the change the next undo reverts.
    public let undo: Feed<ViewModelUpdate<UndoViewModel>>
    /// The connection state, for the status line.
    public let connection: Feed<DisplayedConnectionState>

    /// A store made of these functions.
    public init(
        dispatch: @escaping @Sendable (Action) async throws -> Void,
        list: @escaping @Sendable (ListFilter) -> Feed<ViewModelUpdate<ListViewModel>>,
        item: @escaping @Sendable (Int) -> Feed<ViewModelUpdate<ItemViewModel>>,
        undo: Feed<ViewModelUpdate<UndoViewModel>>,
        connection: Feed<DisplayedConnectionState>
    ) {
        send = dispatch
        self.list = list
        self.item = item
        self.undo = undo
        self.connection = connection
    }

    /// Sends `action` to the daemon; throws its refusal (`SyncClientError`).
    public func dispatch(_ action: Action) async throws {
        try await send(action)
    }

    /// A store whose feeds end at once and which refuses every action: screens built on it
    /// show only what a test puts in them.
    public static let inert = TodoStore(
        dispatch: { _ in throw SyncClientError.daemonUnreachable(path: "", reason: "no daemon in this test") },
        list: { _ in .just("list", []) },
        item: { _ in .just("item", []) },
        undo: .just("undo", []),
        connection: .just("connection", []))
}
