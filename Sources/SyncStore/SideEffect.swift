/// Work that reads the state and dispatches actions later, for as long as the daemon serves:
/// timers, I/O. Katana's side effect, started by the daemon (not by a client).
///
/// Side effects run off the store, in Swift concurrency. They never touch the state directly:
/// they read the latest published state through their context and send actions back to the
/// store's thread through `dispatch`, where those actions queue like any client's. They read
/// the time and draw ids only through the context's dependencies.
public protocol SideEffect<State, Dependencies>: Sendable {
    /// The state this side effect reads.
    associatedtype State: Sendable
    /// The dependencies it is given.
    associatedtype Dependencies: SideEffectDependencies

    /// Runs until done or until its task is cancelled (daemon shutdown).
    func run(_ context: SideEffectContext<State, Dependencies>) async
}

/// What a running side effect may do: read the latest state, dispatch actions, and use the
/// app's dependencies.
public struct SideEffectContext<State: Sendable, Dependencies: SideEffectDependencies>: Sendable {
    /// Returns the latest state clients can see, with its version.
    public let currentState: @Sendable () -> (state: State, version: UInt64)
    /// Dispatches an action to the store and returns the version it produced, once that
    /// version is durable; throws the action's rejection (a `ProtocolError` in the daemon).
    public let dispatch: @Sendable (any Action<State>) async throws -> UInt64
    /// The clock, the id source and whatever else the app gives its side effects.
    public let dependencies: Dependencies

    /// A context from its capabilities.
    public init(
        currentState: @escaping @Sendable () -> (state: State, version: UInt64),
        dispatch: @escaping @Sendable (any Action<State>) async throws -> UInt64,
        dependencies: Dependencies
    ) {
        self.currentState = currentState
        self.dispatch = dispatch
        self.dependencies = dependencies
    }
}
