/// A named projection of the state: Tempura's `ViewModelWithState`, computed by the daemon.
///
/// Clients subscribe to a view model by wire name and params; the daemon computes each distinct
/// (view model, params) pair once per state version and pushes it only when it changed. A failing
/// initializer means "no model" (for example the item asked for does not exist) and travels on
/// the wire as `null`.
public protocol ViewModel<State>: Codable, Equatable, Sendable {
    /// The state this view model projects.
    associatedtype State
    /// What a subscriber chooses (a filter, an item number). `NoParams` when there is nothing.
    associatedtype Params: Codable, Hashable, Sendable

    /// The name that identifies this view model on the wire. Never change it.
    static var wireName: String { get }

    /// Projects the state. Must be pure. `nil` means there is no model for these params.
    init?(state: State, params: Params)
}

/// Params for view models that take none; `{}` on the wire.
public struct NoParams: Codable, Hashable, Sendable {
    /// The only value.
    public init() {}
}
