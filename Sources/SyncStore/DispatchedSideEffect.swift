/// A side effect a client dispatches by wire name, like an action, and whose result it awaits:
/// it reads the state, dispatches actions, and returns a `Result` (or throws, and the client
/// gets the error). Its own Codable fields are its payload on the wire.
///
/// It runs off the store with the app's dependencies; every action it dispatches is journaled
/// and durable before it is visible, as any action, and its result is sent once the last of
/// them is durable. Actions it dispatched before it threw or was cancelled stay applied: read
/// the state first, so that running it again is harmless.
public protocol DispatchedSideEffect<State, Dependencies>: Codable, Sendable {
    /// The state this side effect reads.
    associatedtype State: Sendable
    /// The dependencies it is given.
    associatedtype Dependencies: SideEffectDependencies
    /// What it answers the client: any Codable value (`NoResult` for none).
    associatedtype Result: Codable, Sendable = NoResult

    /// The name that identifies this side effect on the wire, unique among the app's actions
    /// and side effects. Never change it.
    static var wireName: String { get }

    /// Does the work and returns its result. Throwing fails it with the error's description.
    func run(_ context: SideEffectContext<State, Dependencies>) async throws -> Result
}

/// The result of a side effect that answers nothing but that it finished; `{}` on the wire.
public struct NoResult: Codable, Hashable, Sendable {
    /// The only value.
    public init() {}
}
