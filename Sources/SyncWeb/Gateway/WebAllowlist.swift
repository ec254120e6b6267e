import SyncClient
import SyncProtocol
import SyncStore

/// What a page may do through a gateway: the actions it may dispatch and the view models it
/// may subscribe to, by wire name. Anything else a browser asks for is refused by the gateway
/// before it reaches the daemon.
public struct WebAllowlist: Sendable {
    /// The actions, by wire name.
    let actions: [String: WebAction]
    /// The view models, by wire name.
    let viewModels: [String: WebViewModel]

    /// An allowlist of `actions` and `viewModels`.
    public init(actions: [WebAction], viewModels: [WebViewModel]) {
        self.actions = Dictionary(actions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.viewModels = Dictionary(viewModels.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// One action a page may dispatch: its payload is decoded as the action's own type in the
/// gateway, so a payload of the wrong shape never reaches the daemon.
public struct WebAction: Sendable {
    /// The action's wire name.
    let name: String
    /// Decodes `payload` (JSON) as the action and dispatches it; returns the version.
    let dispatch: @Sendable (_ client: SyncClient, _ payload: [UInt8]) async throws(WebActionError) -> UInt64

    /// The action type `type`.
    public static func of<A: Action>(_ type: A.Type) -> WebAction {
        WebAction(name: A.wireName) { client, payload throws(WebActionError) in
            let action: A
            do {
                action = try WireJSON.decode(A.self, from: payload)
            } catch {
                throw .invalidPayload("the payload is not a \(A.wireName) action")
            }
            do throws(SyncClientError) {
                return try await client.dispatch(action)
            } catch {
                throw .daemon(error)
            }
        }
    }
}

/// Why a page's dispatch failed.
enum WebActionError: Error {
    /// The payload does not decode as the action.
    case invalidPayload(String)
    /// The daemon (or the client library) refused or failed it.
    case daemon(SyncClientError)
}

/// One view model a page may subscribe to, with any params its type decodes.
public struct WebViewModel: Sendable {
    /// The view model's wire name.
    let name: String
    /// The params as the view model's type reads them, encoded again with sorted keys (so that
    /// equal params share one subscription to the daemon), or `nil` if they do not decode.
    let canonicalParams: @Sendable (_ params: [UInt8]) -> [UInt8]?
    /// Subscribes with canonical `params` and hands each model (JSON, `null` for none) with its
    /// version to `deliver`, until the subscription ends or the task is cancelled.
    let follow:
        @Sendable (
            _ client: SyncClient, _ params: [UInt8], _ deliver: @Sendable (UInt64, JSONValue) -> Void
        ) async throws -> Void

    /// The view model type `type`.
    public static func of<M: ViewModel>(_ type: M.Type) -> WebViewModel {
        WebViewModel(
            name: M.wireName,
            canonicalParams: { bytes in
                guard let params = try? WireJSON.decode(M.Params.self, from: bytes) else { return nil }
                return try? WireJSON.encode(params)
            },
            follow: { client, bytes, deliver in
                // The models travel as JSON values: the gateway never needs them as `M`.
                let params = try WireJSON.decode(JSONValue.self, from: bytes)
                for try await update in client.subscribe(viewModel: M.wireName, params: params) {
                    deliver(update.version, update.model ?? .null)
                }
            })
    }
}
