import SyncLock
import SyncProtocol
import SyncStore

/// The store a `TestStore` drives, shared with the side effects it runs: actions take the
/// daemon's path (a client's action through its JSON, accepted with the test's dependencies,
/// applied, and its journaled form read back as a replay reads it) one at a time, and those a
/// side effect dispatched wait, with the states around them, until the test receives them.
final class LiveStore<State: Codable & Equatable & Sendable, Dependencies: SideEffectDependencies>: Sendable {
    /// An action applied, with the state before and after it and the version it made.
    struct Applied: Sendable {
        let action: any Action<State>
        let before: State
        let after: State
        let version: UInt64
        /// How the journaled form of the action, replayed, differs from what was applied, if it does.
        let replayDivergence: String?
    }

    /// An action that does not survive its JSON, as the daemon would receive or journal it.
    struct WireFailure: Error, CustomStringConvertible {
        let description: String
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

    /// Accepts and applies `action`, as the daemon does: a client's (`fromClient`) is first
    /// encoded and decoded as it crosses the wire; once accepted, its journaled form is read
    /// back and replayed beside it, as recovery and time travel replay it. One a side effect
    /// dispatched (`received`) waits for the test. A rejection is thrown, the state unchanged;
    /// an action that does not survive its JSON throws `WireFailure`.
    func apply<A: Action<State>>(_ action: A, received: Bool, fromClient: Bool) throws -> Applied {
        var action = fromClient ? try Self.roundTrip(action, "as a client sends it") : action
        let context = dependencies.acceptanceContext()
        return try contents.withLock { contents in
            let before = contents.store.state
            action.accept(context, state: before)
            let journaled = try Self.roundTrip(action, "as the journal keeps it")
            var replay = contents.store
            try contents.store.apply(action)
            var divergence: String?
            do {
                try replay.apply(journaled)
                if replay.state != contents.store.state {
                    divergence = StateDifference.describe(expected: contents.store.state, actual: replay.state)
                }
            } catch {
                divergence = "the replay refuses it: \(error)"
            }
            let applied = Applied(
                action: action, before: before, after: contents.store.state, version: contents.store.version,
                replayDivergence: divergence)
            if received { contents.received.append(applied) }
            return applied
        }
    }

    /// Applies `actions` all or nothing, each as `apply` applies a client's action; the first
    /// refusal is thrown with the state unchanged. Returns the batch's last action, with the
    /// states before the first and after the last.
    func apply(batch actions: [any Action<State>]) throws -> Applied {
        let saved = contents.withLock { $0.store }
        var last: Applied?
        var divergences: [String] = []
        do {
            for action in actions {
                let applied = try apply(action, received: false, fromClient: true)
                if let divergence = applied.replayDivergence { divergences.append(divergence) }
                last = applied
            }
        } catch {
            contents.withLock { $0.store = saved }
            throw error
        }
        guard let last else { throw WireFailure(description: "a batch holds at least one action") }
        return Applied(
            action: last.action, before: saved.state, after: last.after, version: last.version,
            replayDivergence: divergences.isEmpty ? nil : divergences.joined(separator: "\n"))
    }

    /// `action` encoded and decoded again with the daemon's JSON.
    private static func roundTrip<A: Action<State>>(_ action: A, _ how: String) throws(WireFailure) -> A {
        do {
            return try WireJSON.decode(A.self, from: try WireJSON.encode(action))
        } catch {
            throw WireFailure(description: "\"\(A.wireName)\" does not survive its JSON \(how): \(error)")
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
        try apply(action, received: true, fromClient: false).version
    }
}
