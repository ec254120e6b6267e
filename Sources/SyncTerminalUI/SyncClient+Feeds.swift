import SyncClient
import SyncProtocol
import SyncStore
import TerminalUI

extension SyncClient {
    /// A feed of the view model `type` for `params`: each opening subscribes anew, and the
    /// screen disconnecting ends the subscription. It goes on through daemon restarts as the
    /// client's subscriptions do. `name` names it in failures and tests; by default the wire
    /// name and the params as JSON (`list {"filter":"all"}`).
    public func feed<Model: ViewModel>(_ type: Model.Type, params: Model.Params, name: String? = nil) -> Feed<
        ViewModelUpdate<Model>
    > {
        let paramsText = (try? WireJSON.encode(params)).map { String(decoding: $0, as: UTF8.self) } ?? "\(params)"
        return Feed(name ?? "\(Model.wireName) \(paramsText)") { self.subscribe(type, params: params) }
    }

    /// A feed of the connection state as a status line shows it, from the client's own connection
    /// states (which go on through daemon restarts); it ends when the client is closed.
    public func connectionStateFeed(name: String = "connection") -> Feed<DisplayedConnectionState> {
        Feed(name) {
            AsyncThrowingStream { continuation in
                let watch = Task {
                    for await state in self.connectionStates() {
                        switch state {
                        case .connected(let version): continuation.yield(.connected(version: version))
                        case .reconnecting(let attempt, let reason):
                            continuation.yield(.reconnecting(attempt: attempt, reason: reason.description))
                        case .closed(let reason): continuation.yield(.disconnected(reason: reason.description))
                        }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in watch.cancel() }
            }
        }
    }

    /// A function that sends any action of the app whose state is `State` and returns once the
    /// daemon accepted it, throwing its refusal (`SyncClientError`): what a `ScreenStore`'s
    /// `dispatch` calls.
    public func dispatcher<State>(of state: State.Type) -> @Sendable (any Action<State>) async throws -> Void {
        { action in _ = try await self.dispatch(action) }
    }
}
