/// Everything the daemon runtime needs to know about an application, and nothing about how it
/// is served: the initial state and the actions and view models that exist, by wire name.
public protocol SyncApp {
    /// The one authoritative state value.
    associatedtype State: Codable, Equatable, Sendable

    /// The state of a new, empty store.
    static var initialState: State { get }

    /// Every action the app accepts. Wire names must be unique.
    static var actions: [any Action<State>.Type] { get }

    /// Every view model clients may subscribe to. Wire names must be unique.
    static var viewModels: [any ViewModel<State>.Type] { get }
}

extension SyncApp {
    /// The action type registered under `wireName`, if any.
    public static func actionType(named wireName: String) -> (any Action<State>.Type)? {
        actions.first { $0.wireName == wireName }
    }

    /// The view model type registered under `wireName`, if any.
    public static func viewModelType(named wireName: String) -> (any ViewModel<State>.Type)? {
        viewModels.first { $0.wireName == wireName }
    }
}
