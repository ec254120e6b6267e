import SyncClient
import SyncStore
import SyncTerminalUI
import TerminalUI
import TodoDomain

extension TodoStore {
    /// The store over a connected `client`.
    public static func live(_ client: SyncClient) -> TodoStore {
        TodoStore(
            dispatch: client.dispatcher(of: TodoState.self),
            list: { filter in client.feed(ListViewModel.self, params: .init(filter: filter)) },
            item: { number in client.feed(ItemViewModel.self, params: .init(number: number)) },
            undo: client.feed(UndoViewModel.self, params: NoParams()),
            connection: client.connectionStateFeed())
    }
}
