import SyncClient
import SyncStore
import TerminalUI

/// A screen store for any app: dispatches the app's actions and feeds any of its view models
/// and the connection state, over a connected `SyncClient` (`live`) or over nothing
/// (`inert`, for snapshot tests, whose screens show only what the test gives them). An app
/// whose screens need no store of their own uses it as it is.
public struct AppScreenStore<App: SyncApp>: ScreenStore {
    /// Any action of the app.
    public typealias Action = any SyncStore.Action<App.State>

    private let client: SyncClient?

    private init(client: SyncClient?) {
        self.client = client
    }

    /// The store over a connected `client`.
    public static func live(_ client: SyncClient) -> AppScreenStore { AppScreenStore(client: client) }

    /// A store whose feeds end at once and which refuses every action.
    public static var inert: AppScreenStore { AppScreenStore(client: nil) }

    /// Sends `action` to the daemon; throws its refusal (`SyncClientError`).
    public func dispatch(_ action: Action) async throws {
        guard let client else {
            throw SyncClientError.daemonUnreachable(path: "", reason: "an inert store has no daemon")
        }
        try await client.dispatcher(of: App.State.self)(action)
    }

    /// The updates of `Model` for `params`.
    public func feed<Model: ViewModel<App.State>>(_ type: Model.Type, params: Model.Params) -> Feed<
        ViewModelUpdate<Model>
    > {
        client?.feed(type, params: params) ?? .just(Model.wireName, [])
    }

    /// The connection state, for a status line (`DisplayedConnectionState.text`).
    public var connection: Feed<DisplayedConnectionState> {
        client?.connectionStateFeed() ?? .just("connection", [])
    }
}
