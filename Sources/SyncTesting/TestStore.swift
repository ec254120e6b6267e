import SyncStore
import Testing

/// Runs an app's actions and side effects in memory, with test dependencies, and checks each
/// state change the way TCA's `TestStore` does: `send(action) { expected mutation }` fails when
/// the state the action made differs from the state before with the mutation applied, and
/// `receive(A.self) { … }` does the same for the next action a side effect dispatched.
/// `finish()` fails on any dispatched action the test did not receive (and so does dropping a
/// store that still holds some).
///
/// Actions are accepted as the daemon accepts them (`accept(_:state:)` with the clock's time
/// and the next id of the dependencies), so with a `TestClock` and `SequentialIDs` the states
/// are the same on every run. Failures are recorded with Swift Testing's `Issue.record`.
public final class TestStore<App: SyncApp> {
    private let live: LiveStore<App.State, App.Dependencies>
    /// The state as the test has accounted for it.
    private var expected: App.State
    private var tasks: [Task<Void, Never>] = []
    private var finished = false

    /// A store at `state` whose acceptance and side effects get `dependencies`.
    public init(_ app: App.Type = App.self, state: App.State = App.initialState, dependencies: App.Dependencies) {
        live = LiveStore(state: state, dependencies: dependencies)
        expected = state
    }

    deinit {
        for task in tasks { task.cancel() }
        let pending = live.pendingNames
        if !finished, !pending.isEmpty {
            Issue.record(
                "The test store was dropped with actions a side effect dispatched that the test did not receive: \(pending.joined(separator: ", "))."
            )
        }
    }

    /// The state now.
    public var state: App.State { live.current.state }
    /// How many actions were applied.
    public var version: UInt64 { live.current.version }
    /// The dependencies given to acceptance and side effects.
    public var dependencies: App.Dependencies { live.dependencies }

    /// Applies `action` and checks that it changed the state as `expect` changes the state
    /// before (no `expect`: that it changed nothing). A rejection is thrown, as the daemon's
    /// store throws it, and the state is unchanged; a test of one writes `#expect(throws:)`.
    public func send<A: Action<App.State>>(
        _ action: A, sourceLocation: SourceLocation = #_sourceLocation,
        _ expect: ((inout App.State) throws -> Void)? = nil
    ) throws {
        let pending = live.pendingNames
        if !pending.isEmpty {
            Issue.record(
                "Sent \"\(A.wireName)\" before receiving what side effects dispatched: \(pending.joined(separator: ", ")).",
                sourceLocation: sourceLocation)
        }
        let applied = try live.apply(action, received: false)
        try check(applied, "\"\(A.wireName)\"", expect, sourceLocation)
    }

    /// Waits (up to `deadlineSeconds` of real time, against hanging) for the next action a side
    /// effect dispatched, and checks that it is an `A` and changed the state as `expect` says.
    public func receive<A: Action<App.State>>(
        _ type: A.Type, deadlineSeconds: Int = 30, sourceLocation: SourceLocation = #_sourceLocation,
        _ expect: ((inout App.State) throws -> Void)? = nil
    ) async rethrows {
        var applied: LiveStore<App.State, App.Dependencies>.Applied?
        _ = await Polling.until(deadlineSeconds: deadlineSeconds) {
            applied = live.takeReceived()
            return applied != nil
        }
        guard let applied else {
            Issue.record(
                "Expected to receive \"\(A.wireName)\"; no side effect dispatched anything within \(deadlineSeconds) s.",
                sourceLocation: sourceLocation)
            return
        }
        let name = Swift.type(of: applied.action).wireName
        guard applied.action is A else {
            Issue.record("Expected to receive \"\(A.wireName)\"; received \"\(name)\".", sourceLocation: sourceLocation)
            expected = applied.after
            return
        }
        try check(applied, "the received \"\(name)\"", expect, sourceLocation)
    }

    /// Runs the dispatched side effect `effect` to its end and returns its result (or throws
    /// its error); the actions it dispatched then wait for `receive`.
    public func run<E: DispatchedSideEffect<App.State, App.Dependencies>>(_ effect: E) async throws -> E.Result {
        try await effect.run(live.context())
    }

    /// Starts the dispatched side effect `effect` in a task and returns it, for a test that acts
    /// while the side effect runs (one that waits on the clock or the state); `finish()` does
    /// not cancel it.
    public func start<E: DispatchedSideEffect<App.State, App.Dependencies>>(_ effect: E) -> Task<E.Result, any Error> {
        let context = live.context()
        return Task { try await effect.run(context) }
    }

    /// Starts the long-running side effect `effect` in a task, which `finish()` cancels.
    public func start<E: SideEffect<App.State, App.Dependencies>>(_ effect: E) {
        let context = live.context()
        tasks.append(Task { await effect.run(context) })
    }

    /// Runs `schedule` on the store's clock, as the daemon does, until `finish()`: what is due
    /// is dispatched and waits for `receive`; the rest waits for the clock to reach it.
    public func start<S: Schedule<App.State>>(_ schedule: S) {
        start(ScheduleRunner<S, App.Dependencies>(schedule: schedule))
    }

    /// Cancels the side effects and schedules `start` started, waits for them to end, and fails if any action
    /// they (or a `run`) dispatched was not received.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        finished = true
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        tasks = []
        let pending = live.pendingNames
        if !pending.isEmpty {
            Issue.record(
                "Side effects dispatched actions the test did not receive: \(pending.joined(separator: ", ")).",
                sourceLocation: sourceLocation)
        }
    }

    private func check(
        _ applied: LiveStore<App.State, App.Dependencies>.Applied, _ what: String,
        _ expect: ((inout App.State) throws -> Void)?,
        _ sourceLocation: SourceLocation
    ) rethrows {
        var wanted = expected
        try expect?(&wanted)
        if wanted != applied.after {
            Issue.record(
                "The state after \(what) is not the expected one:\n\(StateDifference.describe(expected: wanted, actual: applied.after))",
                sourceLocation: sourceLocation)
        }
        expected = applied.after
    }
}
