import SyncLock
import SyncProtocol
import SyncStore
import Testing

/// Runs an app's actions and side effects in memory, with test dependencies, and checks each
/// state change the way TCA's `TestStore` does: `send(action) { expected mutation }` fails when
/// the state the action made differs from the state before with the mutation applied, and
/// `receive(A.self) { … }` does the same for the next action a side effect dispatched.
/// `finish()` fails on any dispatched action the test did not receive (and so does dropping a
/// store that still holds some).
///
/// Actions take the daemon's path: a sent action, one a side effect dispatched and a side effect
/// are encoded and decoded as they cross the wire, accepted as the daemon accepts them
/// (`accept(_:state:)` with the clock's time and the next id of the dependencies), and the
/// journaled form of each action is replayed beside it. An action whose acceptance reads the
/// state without declaring `acceptanceReadsState` fails here (it is accepted a second time on
/// the app's initial state to find out), and so does one that declares it and whose `Codable`
/// loses what acceptance fixed: not in a replay. An action, side effect or view model the app does not register fails too. With
/// a `TestClock` and `SequentialIDs` the states are the same on every run. Every wait has a
/// deadline and says what it waited for. Failures are recorded with Swift Testing's
/// `Issue.record`.
public final class TestStore<App: SyncApp> {
    private let live: LiveStore<App.State, App.Dependencies>
    /// The state as the test has accounted for it.
    private var expected: App.State
    private var tasks: [Task<Void, Never>] = []
    /// Whether each of `tasks` ended.
    private var tasksEnded: [Locked<Bool>] = []
    /// The dispatched side effects `start` started, by wire name, with whether each ended.
    private var started: [(name: String, ended: Locked<Bool>)] = []
    private var finished = false

    /// A store at `state` whose acceptance and side effects get `dependencies`.
    public init(_ app: App.Type = App.self, state: App.State = App.initialState, dependencies: App.Dependencies) {
        live = LiveStore(state: state, probeState: App.initialState, dependencies: dependencies)
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
        guard isRegistered(A.self, sourceLocation) else { return }
        let applied: LiveStore<App.State, App.Dependencies>.Applied
        do {
            applied = try live.apply(action, received: false)
        } catch let failure as LiveStore<App.State, App.Dependencies>.WireFailure {
            Issue.record("\(failure)", sourceLocation: sourceLocation)
            return
        }
        try check(applied, "\"\(A.wireName)\"", expect, sourceLocation)
    }

    /// Applies `actions` all or nothing, as the daemon applies a `batch`, and checks that
    /// together they changed the state as `expect` changes the state before. The first
    /// refusal is thrown and nothing is applied.
    public func send(
        batch actions: [any Action<App.State>], sourceLocation: SourceLocation = #_sourceLocation,
        _ expect: ((inout App.State) throws -> Void)? = nil
    ) throws {
        for action in actions {
            guard isRegistered(type(of: action), sourceLocation) else { return }
        }
        let applied: LiveStore<App.State, App.Dependencies>.Applied
        do {
            applied = try live.apply(batch: actions)
        } catch let failure as LiveStore<App.State, App.Dependencies>.WireFailure {
            Issue.record("\(failure)", sourceLocation: sourceLocation)
            return
        }
        try check(applied, "the batch of \(actions.count)", expect, sourceLocation)
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
        guard isRegistered(Swift.type(of: applied.action), sourceLocation) else { return }
        guard applied.action is A else {
            Issue.record("Expected to receive \"\(A.wireName)\"; received \"\(name)\".", sourceLocation: sourceLocation)
            expected = applied.after
            return
        }
        try check(applied, "the received \"\(name)\"", expect, sourceLocation)
    }

    /// Runs the dispatched side effect `effect` to its end and returns its result (or throws
    /// its error); the actions it dispatched then wait for `receive`. A side effect that sleeps
    /// on the test clock never ends here, since only the test moves that clock: once it (or a
    /// task it started) sleeps on it, and still does a second later, the test fails and the
    /// side effect is cancelled (`start` it, then `advance(by:)` the clock). One that does not
    /// end within `deadlineSeconds` of real time fails the same way: a guard against a hang,
    /// generous because a loaded machine may run the task late, not a timing.
    public func run<E: DispatchedSideEffect<App.State, App.Dependencies>>(
        _ effect: E, deadlineSeconds: Int = 120, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> E.Result {
        let effect = try clientCopy(of: effect, sourceLocation)
        let ended = Locked(false)
        let context = live.context()
        let testClock = dependencies.clock as? TestClock
        let run = TestClock.newRun()
        let task = TestClock.$run.withValue(run) {
            Task {
                defer { ended.withLock { $0 = true } }
                return try await effect.run(context)
            }
        }
        let realTime = ContinuousClock()
        var asleepSince: ContinuousClock.Instant?
        _ = await Polling.until(deadlineSeconds: deadlineSeconds) {
            if ended.withLock({ $0 }) { return true }
            guard let testClock, testClock.hasSleeper(of: run) else {
                asleepSince = nil
                return false
            }
            let since = asleepSince ?? realTime.now
            asleepSince = since
            return realTime.now - since >= .seconds(1)
        }
        guard ended.withLock({ $0 }) else {
            task.cancel()
            Issue.record(
                asleepSince != nil
                    ? "run(\"\(E.wireName)\") did not end: it sleeps on the test clock, which only the test moves; start it with `start(_:)`, then `advance(by:)` the clock."
                    : "run(\"\(E.wireName)\") did not end within \(deadlineSeconds) s.",
                sourceLocation: sourceLocation)
            throw TestStoreFailure(reason: "the side effect \"\(E.wireName)\" did not end in time")
        }
        return try await task.value
    }

    /// Starts the dispatched side effect `effect` in a task and returns it, for a test that acts
    /// while the side effect runs (one that waits on the clock or the state); `finish()` fails
    /// if it is still running then.
    public func start<E: DispatchedSideEffect<App.State, App.Dependencies>>(
        _ effect: E, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Task<E.Result, any Error> {
        let copy = (try? clientCopy(of: effect, sourceLocation)) ?? effect
        let context = live.context()
        let ended = Locked(false)
        started.append((E.wireName, ended))
        return Task {
            defer { ended.withLock { $0 = true } }
            return try await copy.run(context)
        }
    }

    /// Moves the test clock on by `milliseconds` (the clock of the dependencies must be a
    /// `TestClock`) and lets the side effects it woke run (TCA's `await clock.advance(by:)`);
    /// what they dispatch waits for `receive`.
    public func advance(by milliseconds: Int64, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard let clock = dependencies.clock as? TestClock else {
            Issue.record(
                "advance(by:) needs a TestClock in the store's dependencies.", sourceLocation: sourceLocation)
            return
        }
        // What was started first runs until it sleeps on the clock (or ends), so that it sleeps
        // from the time before the advance, not after it.
        let running = { [started, tasksEnded] in
            started.count { !$0.ended.withLock { $0 } } + tasksEnded.count { !$0.withLock { $0 } }
        }
        _ = await Polling.until(deadlineSeconds: Self.settleSeconds) { clock.sleeperCount >= running() }
        clock.advance(by: milliseconds)
        for _ in 0..<Self.yieldsAfterAdvance { await Task.yield() }
    }

    /// How often `advance(by:)` yields to the side effects it woke.
    private static var yieldsAfterAdvance: Int { 16 }
    /// How long `advance(by:)` waits, at most, for the side effects running to sleep on the clock.
    private static var settleSeconds: Int { 5 }

    /// The model of `Model` for `params` at the state now, as a subscriber receives it (through
    /// its JSON); fails for a view model the app does not register.
    public func model<Model: ViewModel<App.State>>(
        _ type: Model.Type, params: Model.Params, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Model? {
        guard App.viewModels.contains(where: { $0.wireName == Model.wireName }) else {
            Issue.record(
                "The view model \"\(Model.wireName)\" is not in \(App.self).viewModels: the daemon would answer unknown_view_model.",
                sourceLocation: sourceLocation)
            return nil
        }
        guard let model = Model(state: state, params: params) else { return nil }
        do {
            return try WireJSON.decode(Model.self, from: try WireJSON.encode(model))
        } catch {
            Issue.record(
                "The view model \"\(Model.wireName)\" does not survive its JSON: \(error)",
                sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Starts the long-running side effect `effect` in a task, which `finish()` cancels.
    public func start<E: SideEffect<App.State, App.Dependencies>>(_ effect: E) {
        let context = live.context()
        let ended = Locked(false)
        tasksEnded.append(ended)
        tasks.append(
            Task {
                defer { ended.withLock { $0 = true } }
                await effect.run(context)
            })
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
        let running = started.filter { !$0.ended.withLock { $0 } }.map(\.name)
        if !running.isEmpty {
            Issue.record(
                "Side effects still running at finish(): \(running.joined(separator: ", ")). Advance the clock or change the state until they end, or cancel their tasks.",
                sourceLocation: sourceLocation)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        tasks = []
        tasksEnded = []
        let pending = live.pendingNames
        if !pending.isEmpty {
            Issue.record(
                "Side effects dispatched actions the test did not receive: \(pending.joined(separator: ", ")).",
                sourceLocation: sourceLocation)
        }
    }

    /// Whether the app registers the action `type`; records the failure if not.
    private func isRegistered(_ type: any Action<App.State>.Type, _ sourceLocation: SourceLocation) -> Bool {
        guard App.actions.contains(where: { $0.wireName == type.wireName }) else {
            Issue.record(
                "The action \"\(type.wireName)\" is not in \(App.self).actions: the daemon would refuse it (unknown_action), and a journal holding it would not replay.",
                sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    /// `effect` as the daemon receives it from a client: registered, through its JSON.
    private func clientCopy<E: DispatchedSideEffect<App.State, App.Dependencies>>(
        of effect: E, _ sourceLocation: SourceLocation
    ) throws -> E {
        guard App.sideEffects.contains(where: { $0.wireName == E.wireName }) else {
            Issue.record(
                "The side effect \"\(E.wireName)\" is not in \(App.self).sideEffects: the daemon would refuse it (unknown_action).",
                sourceLocation: sourceLocation)
            throw TestStoreFailure(reason: "the side effect \"\(E.wireName)\" is not registered")
        }
        do {
            return try WireJSON.decode(E.self, from: try WireJSON.encode(effect))
        } catch {
            Issue.record(
                "The side effect \"\(E.wireName)\" does not survive its JSON: \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    private func check(
        _ applied: LiveStore<App.State, App.Dependencies>.Applied, _ what: String,
        _ expect: ((inout App.State) throws -> Void)?,
        _ sourceLocation: SourceLocation
    ) rethrows {
        if let divergence = applied.replayDivergence {
            Issue.record(
                "\(what) diverges on replay: \(divergence)",
                sourceLocation: sourceLocation)
        }
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
