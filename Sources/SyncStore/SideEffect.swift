/// Work that reads the state and dispatches actions later: timers, I/O. Katana's side effect.
///
/// Side effects run off the store, in Swift concurrency. They never touch the state directly:
/// they read the latest published state through their context and send actions back to the
/// store's thread through `dispatch`, where those actions queue like any client's.
public protocol SideEffect<State>: Sendable {
    /// The state this side effect reads.
    associatedtype State: Sendable

    /// Runs until done or until its task is cancelled (daemon shutdown).
    func run(_ context: SideEffectContext<State>) async
}

/// What a running side effect may do: read the latest state and dispatch actions.
public struct SideEffectContext<State: Sendable>: Sendable {
    /// Returns the latest state clients can see, with its version.
    public let currentState: @Sendable () -> (state: State, version: UInt64)
    /// Dispatches an action to the store and returns the version it produced.
    public let dispatch: @Sendable (any Action<State>) async throws -> UInt64

    /// A context from its two capabilities.
    public init(
        currentState: @escaping @Sendable () -> (state: State, version: UInt64),
        dispatch: @escaping @Sendable (any Action<State>) async throws -> UInt64
    ) {
        self.currentState = currentState
        self.dispatch = dispatch
    }
}
