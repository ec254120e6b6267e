/// The state container: one state value, changed only by actions, one at a time.
///
/// The store does no I/O. It knows nothing of sockets, journals or clocks: whoever drives it
/// (the daemon's server, a test, a replay) feeds it accepted actions and decides what to do with
/// the new version. Every applied action increments `version`, starting at 0.
public struct Store<State: Sendable>: Sendable {
    /// How many actions have been applied since the initial state. Declared before `state`:
    /// at an offset that does not depend on `State`, code generic over the state (the daemon's
    /// engine) reads and bumps it without asking the runtime for `Store<State>`'s layout.
    public private(set) var version: UInt64
    /// The current state.
    public private(set) var state: State

    /// A store at `version` holding `state` (version 0 for a new store).
    public init(state: State, version: UInt64 = 0) {
        self.state = state
        self.version = version
    }

    /// Applies an accepted action and returns the new version.
    ///
    /// The action updates the state in place, so its cost is that of the change, not of the
    /// state's size. If it throws, the version is unchanged and, by the `Action` contract
    /// (check, then change), so is the state; the error is rethrown.
    @discardableResult
    public mutating func apply(_ action: some Action<State>) throws -> UInt64 {
        try action.update(&state)
        version += 1
        return version
    }
}
