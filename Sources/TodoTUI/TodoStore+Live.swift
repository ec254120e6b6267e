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
            connection: connectionStatuses(of: client))
    }

    /// The one place the status line's connection state comes from.
    ///
    /// Today's client has no connection-state stream and does not reconnect: the feed says
    /// connected (at the version of the daemon's welcome) at once, keeps a `summary`
    /// subscription open to notice the end of the connection, and then says disconnected,
    /// with the reason. When SyncClient offers `connectionStates()`, this body becomes a
    /// mapping of it: `.connected(version:)`, `.reconnecting(attempt:reason:)` and
    /// `.closed(reason:)` to the cases of the same names (`.closed` is `.disconnected`).
    static func connectionStatuses(of client: SyncClient) -> Feed<ConnectionStatus> {
        Feed("connection") {
            AsyncThrowingStream { continuation in
                continuation.yield(.connected(version: client.server.version))
                let watch = Task {
                    do {
                        for try await update in client.subscribe(SummaryViewModel.self, params: NoParams()) {
                            continuation.yield(.connected(version: update.version))
                        }
                        continuation.yield(.disconnected(reason: "the daemon ended the subscription"))
                    } catch {
                        if !Task.isCancelled { continuation.yield(.disconnected(reason: ConnectionStatus.reason(for: error))) }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in watch.cancel() }
            }
        }
    }
}
