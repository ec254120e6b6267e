import SyncJournal
import SyncProtocol
import SyncStore

/// The daemon's protocol logic, without I/O: events in (`handle(_:)`, and
/// `handle(_:dispatchedBySideEffect:call:)` for a side effect's action), effects out
/// (`performOutputs(_:)`). Generic over the app; knows nothing of its domain, of libuv, sockets,
/// threads or clocks (the app's dependencies carry the clock acceptance reads). The shell
/// around it performs the outputs in order and feeds it what happens.
///
/// Durable before visible: an applied action is kept for the next commit and nothing of it
/// is shown until the journal reports it committed. Replies are queued at once, except acks,
/// which wait for the commit and are queued at the end of a loop pass, after that pass's
/// updates. So no client sees a version a crash could lose, every update reflecting version V
/// is written before the ack carrying V, and everything produced in one pass leaves in one
/// write per connection.
///
/// ```
/// received ─▶ frames ─▶ route (Engine+Routing) ─▶ apply (Engine+Apply) ─▶ uncommitted
/// passEnded ─▶ publish, acks, writes ─▶ startJournalJob(uncommitted)
/// journalJob… ─▶ settle (Engine+Commits): durable / failed / overtaken (Engine+Rebase) / …
/// ```
///
/// Each concern is an extension in the folder named after it; the state they share is here.
///
/// The properties every dispatch reads or changes are `@exclusivity(unchecked)`, without the
/// runtime's check of each access (5% of a dispatch's instructions). That holds because an
/// engine is used by one thread and nothing an engine calls while it changes one of them can
/// reach the engine or the connection again: the app's code (acceptance and `update`, run
/// with `store` open) and view rendering (run inside `outbound.drain`) are given no reference
/// to either, and the shell feeds the engine only from `performOutputs`, which reads `outputs`
/// one element at a time. Code that calls out from inside such a change must keep it so: the
/// compiler checks only overlaps within one function.
package final class Engine<App: SyncApp> {
    let configuration: EngineConfiguration
    /// What acceptance and side effects are given: the clock, the ids, the app's own.
    let dependencies: App.Dependencies
    /// The app's action types by wire name.
    let actionTypes = ActionDirectory<App.State>(App.actions)
    /// The app's dispatched side effect types by wire name (an action of the same name wins).
    let sideEffectTypes: [String: any DispatchedSideEffect<App.State, App.Dependencies>.Type]

    /// The applied state: durable actions plus those whose commit is pending.
    @exclusivity(unchecked) var store: Store<App.State>
    /// The newest state known to be on disk, and its version.
    var durableState: App.State
    @exclusivity(unchecked) package internal(set) var durableVersion: UInt64
    /// The applied state the journal job asked for last ends with (`startJournalJob`), and
    /// the version its batch ends with (none: `nil`): the durable state once that job's commit
    /// is (`CommitOutcome.durable`).
    package internal(set) var committingState: App.State
    var committingVersion: UInt64?
    /// The numbered dispatches applied, durable or pending (see `Engine+ExactlyOnce.swift`).
    @exclusivity(unchecked) package internal(set) var ledger: DispatchLedger
    /// The actions applied since the last commit started, in order: the next commit's batch.
    @exclusivity(unchecked) package internal(set) var uncommitted: [JournalEntry] = []
    /// The versions of each `batch` request applied and not durable yet: a rebase re-runs each
    /// all or nothing.
    var pendingBatches: [ClosedRange<UInt64>] = []
    /// The dispatches whose answer waits for the journal (`PendingAcks`).
    @exclusivity(unchecked) var pendingAcks = PendingAcks()
    /// Where the journal job is (see `Engine+PassEnd.swift`).
    var journalJob = JournalJobState.idle
    /// The state and version clients have been shown: everything durable, as of the last pass.
    package internal(set) var publishedState: App.State
    package internal(set) var publishedVersion: UInt64

    /// The connected clients by the shell's ids.
    @exclusivity(unchecked) var connections: [Int: ClientConnection] = [:]
    /// The connections with output queued in this pass, written at its end.
    @exclusivity(unchecked) var connectionsToFlush: [ClientConnection] = []
    /// What each connection still awaits an answer to.
    @exclusivity(unchecked) var requests = RequestBook()
    let hub = ViewHub<App.State>()
    /// The side effects clients dispatched that are running (see `Engine+SideEffects.swift`).
    var sideEffectCalls = SideEffectCallBook()
    /// The history reads and encodings and the rebuilds waiting for the journal or the pool.
    var journalReads = JournalReadBook<App.State>()
    /// The rebuilds of past versions for `get` (see `Engine+Get.swift`).
    var rebuilds: PoolJobQueue
    /// The encodings of history answers: one at a time, so that however many a client asks for,
    /// they hold one pool thread and the journal's commits keep the others.
    var historyEncodings = PoolJobQueue(concurrencyLimit: 1, waitingLimit: .max)
    /// The app's durable schedules, and where each is (see `Engine+Schedules.swift`).
    let schedules: [any Schedule<App.State>]
    /// Whether there are any: asked at every new version, and asking the array itself costs a
    /// runtime lookup of its (existential) type's metadata.
    let hasSchedules: Bool
    var scheduleBook = ScheduleBook()

    /// What the listener of a shared log last saw; `nil` with a journal of this daemon only.
    package internal(set) var sharedLog: SharedLogObservation?
    /// Why no action is accepted any more (a shared log rewritten under this daemon), if so.
    @exclusivity(unchecked) package internal(set) var writeRefusal: String?
    /// Shutdown progress (see `Engine+Shutdown.swift`).
    package internal(set) var shutdown = ShutdownProgress.serving

    /// The side effects `startSideEffect` outputs ask for, until the shell takes them.
    var sideEffectsToStart: [Int: any DispatchedSideEffect<App.State, App.Dependencies>] = [:]

    /// What the shell is to do, in order, since it last took them.
    @exclusivity(unchecked) private var outputs: [EngineOutput] = []
    /// Whether `performOutputs` is running.
    @exclusivity(unchecked) private var isPerformingOutputs = false
    /// Whether `wantPassEnd` was asked for and the pass has not ended yet.
    @exclusivity(unchecked) var passEndWanted = false

    /// An engine for `store` and `ledger` (everything in them durable), dispatching what
    /// `schedules` say is due.
    package init(
        store: Store<App.State>, ledger: DispatchLedger, configuration: EngineConfiguration,
        dependencies: App.Dependencies, schedules: [any Schedule<App.State>] = []
    ) {
        self.schedules = schedules
        hasSchedules = !schedules.isEmpty
        let clashes = Set(App.actions.map { $0.wireName }).intersection(App.sideEffects.map { $0.wireName })
        precondition(
            clashes.isEmpty,
            "\(App.self) names an action and a side effect alike: \(clashes.sorted().joined(separator: ", "))")
        self.configuration = configuration
        self.dependencies = dependencies
        self.store = store
        self.ledger = ledger
        durableState = store.state
        durableVersion = store.version
        committingState = store.state
        publishedState = store.state
        publishedVersion = store.version
        sideEffectTypes = Dictionary(
            App.sideEffects.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
        rebuilds = PoolJobQueue(
            concurrencyLimit: configuration.maximumConcurrentRebuilds,
            waitingLimit: configuration.maximumWaitingRebuilds)
    }

    /// Starts serving: the schedules dispatch what is due in the recovered state.
    package func start() {
        runSchedules()
    }

    /// Number of connected clients.
    package var connectionCount: Int { connections.count }

    /// The applied state (durable plus pending), for the final commit at shutdown.
    package var appliedStore: Store<App.State> { store }

    /// Performs what the engine asked for, in order, with `perform`. Performing one may feed the
    /// engine new inputs (an inline commit, a write that fails at once): their outputs are
    /// performed in this call too, after those asked for before them. Not called from within
    /// `perform` (the shell performs once per input, however deep its inputs nest).
    package func performOutputs(_ perform: (EngineOutput) -> Void) {
        precondition(!isPerformingOutputs, "performOutputs called from within performOutputs")
        isPerformingOutputs = true
        defer { isPerformingOutputs = false }
        var index = 0
        while index < outputs.count {
            let output = outputs[index]
            index += 1
            perform(output)
        }
        outputs.removeAll(keepingCapacity: true)
    }

    /// Asks the shell to do `output`, after everything asked before it.
    func emit(_ output: EngineOutput) {
        outputs.append(output)
    }

    /// Asks for the end of this loop pass, once.
    func wantPassEnd() {
        guard !passEndWanted else { return }
        passEndWanted = true
        emit(.wantPassEnd)
    }

    /// The side effect a `startSideEffect` output asked to start as call `call`, handed over
    /// once (`nil` after).
    package func takeSideEffect(forCall call: Int) -> (any DispatchedSideEffect<App.State, App.Dependencies>)? {
        sideEffectsToStart.removeValue(forKey: call)
    }

    /// Takes what the answer of journal read or pool job `id` is for out of `journalReads`, and
    /// asks for a pass end: a shutdown goes on at a pass end once the book is empty, and this
    /// answer may ask for none itself (its connection gone meanwhile, nothing to send).
    func takeJournalRead(_ id: Int) -> JournalReadBook<App.State>.Waiting? {
        wantPassEnd()
        return journalReads.take(id)
    }

    /// Writes a log line.
    func log(_ level: LogLevel, _ text: @autoclosure () -> String) {
        emit(.log(level, text()))
    }
}
