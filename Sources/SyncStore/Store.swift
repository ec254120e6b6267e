/// The state container: one state value, changed only by actions, one at a time.
///
/// The store does no I/O. It knows nothing of sockets, journals or clocks: whoever drives it
/// (the daemon's server, a test, a replay) feeds it accepted actions and decides what to do with
/// the new version. Every applied action increments `version`, starting at 0.
public struct Store<State: Sendable>: Sendable {
    /// The current state.
    public private(set) var state: State
    /// How many actions have been applied since the initial state.
    public private(set) var version: UInt64

    /// A store at `version` holding `state` (version 0 for a new store).
    public init(state: State, version: UInt64 = 0) {
        self.state = state
        self.version = version
    }

    /// Applies an accepted action and returns the new version.
    ///
    /// If the action throws, the state and version are left exactly as they were and the error
    /// is rethrown.
    @discardableResult
    public mutating func apply(_ action: some Action<State>) throws -> UInt64 {
        var next = state
        try action.update(&next)
        state = next
        version += 1
        return version
    }
}
