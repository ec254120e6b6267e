import SyncClient
import SyncStore
import TerminalUI
import TodoDomain

extension TodoStore {
    /// The store over a connected `client`.
    public static func live(_ client: SyncClient) -> TodoStore {
        TodoStore(
            dispatch: { action in _ = try await client.dispatch(action) },
            list: { filter in
                Feed("list \(filter)") { client.subscribe(ListViewModel.self, params: .init(filter: filter)) }
            },
            item: { number in
                Feed("item \(number)") { client.subscribe(ItemViewModel.self, params: .init(number: number)) }
            },
            undo: Feed("undo") { client.subscribe(UndoViewModel.self, params: NoParams()) },
            connection: connectionStatuses(of: client))
    }

    /// The one place the status line's connection state comes from: the client's own
    /// connection states, which go on through daemon restarts.
    static func connectionStatuses(of client: SyncClient) -> Feed<ConnectionStatus> {
        Feed("connection") {
            AsyncThrowingStream { continuation in
                let watch = Task {
                    for await state in client.connectionStates() {
                        switch state {
                        case .connected(let version): continuation.yield(.connected(version: version))
                        case .reconnecting(let attempt, let reason): continuation.yield(.reconnecting(attempt: attempt, reason: reason))
                        case .closed(let reason): continuation.yield(.disconnected(reason: reason))
                        }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in watch.cancel() }
            }
        }
    }
}
