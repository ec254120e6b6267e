/// Everything the daemon runtime needs to know about an application, and nothing about how it
/// is served: the initial state, the actions, side effects and view models that exist, by wire
/// name, the kind of dependencies its side effects are given, and who it is on a machine.
public protocol SyncApp: SendableMetatype {
    /// The app's names on a machine (socket, data directory, variables, units): the daemon
    /// command, the client's `connect(to:)` and the command line all take them from here.
    static var identity: AppIdentity { get }

    /// The one authoritative state value.
    associatedtype State: Codable, Equatable, Sendable
    /// What side effects and acceptance are given: a clock, ids, and whatever the app adds.
    associatedtype Dependencies: SideEffectDependencies = StandardDependencies

    /// The state of a new, empty store.
    static var initialState: State { get }

    /// Every action the app accepts. Wire names must be unique.
    static var actions: [any Action<State>.Type] { get }

    /// Every side effect clients may dispatch. Wire names must be unique, and unlike any
    /// action's. None by default.
    static var sideEffects: [any DispatchedSideEffect<State, Dependencies>.Type] { get }

    /// Every view model clients may subscribe to. Wire names must be unique.
    static var viewModels: [any ViewModel<State>.Type] { get }
}

extension SyncApp {
    /// No dispatched side effects.
    public static var sideEffects: [any DispatchedSideEffect<State, Dependencies>.Type] { [] }

    /// The action type registered under `wireName`, if any.
    public static func actionType(named wireName: String) -> (any Action<State>.Type)? {
        actions.first { $0.wireName == wireName }
    }

    /// The dispatched side effect type registered under `wireName`, if any.
    public static func sideEffectType(named wireName: String) -> (any DispatchedSideEffect<State, Dependencies>.Type)? {
        sideEffects.first { $0.wireName == wireName }
    }

    /// The view model type registered under `wireName`, if any.
    public static func viewModelType(named wireName: String) -> (any ViewModel<State>.Type)? {
        viewModels.first { $0.wireName == wireName }
    }
}
