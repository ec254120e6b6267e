import SyncLock

/// The latest published state and its version, readable from any thread (side effects).
/// The loop thread writes it each time a new version becomes visible to clients.
final class StateMirror<State: Sendable>: Sendable {
    private let current: Locked<(state: State, version: UInt64)>

    /// A mirror holding `state` at `version`.
    init(state: State, version: UInt64) {
        current = Locked((state, version))
    }

    /// Replaces the published state.
    func publish(state: State, version: UInt64) {
        current.withLock { $0 = (state, version) }
    }

    /// The published state and its version.
    func read() -> (state: State, version: UInt64) {
        current.withLock { $0 }
    }
}
