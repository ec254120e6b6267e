import SyncLock
import SyncProtocol
import SyncStore

/// The store a `TestStore` drives, shared with the side effects it runs: actions take the
/// daemon's path (through their JSON, accepted with the test's dependencies, applied, and
/// replayed from their journaled form as recovery replays it) one at a time, and those a side
/// effect dispatched wait, with the states around them, until the test receives them.
final class LiveStore<State: Codable & Equatable & Sendable, Dependencies: SideEffectDependencies>: Sendable {
    /// An action applied, with the state before and after it and the version it made.
    struct Applied: Sendable {
        let action: any Action<State>
        let before: State
        let after: State
        let version: UInt64
        /// How the journaled form of the action, replayed, differs from what was applied, if it
        /// does; or why it would, for an action whose acceptance reads the state unannounced.
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
    /// Another state to accept each action on, to find acceptance that reads the state.
    private let probeState: State

    /// A store at `state`; `probeState` (the app's initial state) is where each action is
    /// accepted a second time, to find acceptance that reads the state without saying so.
    init(state: State, probeState: State, dependencies: Dependencies) {
        contents = Locked(Contents(store: Store(state: state)))
        self.probeState = probeState
        self.dependencies = dependencies
    }

    /// The state now, with its version.
    var current: (state: State, version: UInt64) {
        contents.withLock { ($0.store.state, $0.store.version) }
    }

    /// Accepts and applies `action`, as the daemon does: through its JSON (the daemon decodes
    /// what it journals, a client's action and a side effect's alike), accepted, applied; then
    /// replayed beside it from its journaled form: the same bytes accepted again with the same
    /// context, or, for an action whose acceptance reads the state, the accepted action through
    /// its JSON. One a side effect dispatched (`received`) waits for the test. A rejection is
    /// thrown, the state unchanged; an action that does not survive its JSON throws `WireFailure`.
    func apply<A: Action<State>>(_ action: A, received: Bool) throws -> Applied {
        let decoded = try Self.roundTrip(action, "as the daemon receives it")
        let context = dependencies.acceptanceContext()
        return try contents.withLock { contents in
            let before = contents.store.state
            var action = decoded
            action.accept(context, state: before)
            var divergence: String?
            let journaled: A
            if A.acceptanceReadsState {
                journaled = try Self.roundTrip(action, "as the journal keeps it")
            } else {
                journaled = decoded
                divergence = Self.stateReadingAcceptance(of: decoded, context, on: before, and: probeState)
            }
            var replay = contents.store
            try contents.store.apply(action)
            do {
                var again = journaled
                if !A.acceptanceReadsState { again.accept(context, state: replay.state) }
                try replay.apply(again)
                if replay.state != contents.store.state {
                    let difference = StateDifference.describe(expected: contents.store.state, actual: replay.state)
                    let cause =
                        A.acceptanceReadsState
                        ? "its Codable loses something acceptance fixed"
                        : "its acceptance is not a function of its context"
                    divergence =
                        "its journaled form, replayed on the state before it, gives another state (\(cause)):\n\(difference)"
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

    /// Why `action`'s journaled form would diverge on a shared log, when accepting it with
    /// `context` on `state` and on `other` gives two actions but `A` does not declare
    /// `acceptanceReadsState`: a rebase accepts it again on another state.
    private static func stateReadingAcceptance<A: Action<State>>(
        of action: A, _ context: AcceptanceContext, on state: State, and other: State
    ) -> String? {
        var here = action
        here.accept(context, state: state)
        var there = action
        there.accept(context, state: other)
        guard let hereBytes = try? WireJSON.encode(here), let thereBytes = try? WireJSON.encode(there),
            hereBytes != thereBytes
        else { return nil }
        return
            "its acceptance reads the state (accepted on the app's initial state it gives \(String(decoding: thereBytes, as: UTF8.self)), here \(String(decoding: hereBytes, as: UTF8.self))), but \(A.self) does not declare `acceptanceReadsState`: the journal keeps it as received and accepts it again on replay, and a shared log's rebase does so on another state"
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
                let applied = try apply(action, received: false)
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
        try apply(action, received: true).version
    }
}
