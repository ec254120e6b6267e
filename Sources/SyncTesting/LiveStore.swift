import SyncLock
import SyncStore

/// The store a `TestStore` drives, shared with the side effects it runs: actions are accepted
/// with the test's dependencies and applied one at a time, and those a side effect dispatched
/// wait, with the states around them, until the test receives them.
final class LiveStore<State: Sendable, Dependencies: SideEffectDependencies>: Sendable {
    /// An action applied, with the state before and after it and the version it made.
    struct Applied: Sendable {
        let action: any Action<State>
        let before: State
        let after: State
        let version: UInt64
    }

    private struct Contents: Sendable {
        var store: Store<State>
        var received: [Applied] = []
    }

    private let contents: Locked<Contents>
    let dependencies: Dependencies

    init(state: State, dependencies: Dependencies) {
        contents = Locked(Contents(store: Store(state: state)))
        self.dependencies = dependencies
    }

    /// The state now, with its version.
    var current: (state: State, version: UInt64) {
        contents.withLock { ($0.store.state, $0.store.version) }
    }

    /// Accepts and applies `action`, as the daemon does; one a side effect dispatched
    /// (`received`) waits for the test. A rejection is thrown, the state unchanged.
    func apply<A: Action<State>>(_ action: A, received: Bool) throws -> Applied {
        var action = action
        let context = dependencies.acceptanceContext()
        return try contents.withLock { contents in
            let before = contents.store.state
            action.accept(context, state: before)
            try contents.store.apply(action)
            let applied = Applied(
                action: action, before: before, after: contents.store.state, version: contents.store.version)
            if received { contents.received.append(applied) }
            return applied
        }
    }

    /// The oldest action a side effect dispatched that the test has not received, taken.
    func takeReceived() -> Applied? {
        contents.withLock { $0.received.isEmpty ? nil : $0.received.removeFirst() }
    }

    /// The wire names of the actions dispatched and not received yet.
    var pendingNames: [String] {
        contents.withLock { $0.received.map { type(of: $0.action).wireName } }
    }

    /// A side effect's context on this store.
    func context() -> SideEffectContext<State, Dependencies> {
        SideEffectContext(
            currentState: { [self] in current },
            dispatch: { [self] action in try dispatch(action) },
            dependencies: dependencies)
    }

    private func dispatch<A: Action<State>>(_ action: A) throws -> UInt64 {
        try apply(action, received: true).version
    }
}
