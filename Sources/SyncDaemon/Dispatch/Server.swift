import CUV
import SyncJournal
import SyncProtocol
import SyncStore

/// The protocol engine: turns frames from connections into store changes, replies and view
/// model updates. Generic over the app; knows nothing of its domain. Loop-confined.
///
/// Durable before visible: an applied action is kept for the next commit and nothing of it
/// is shown until the writer reports it committed. Replies are queued at once, except acks,
/// which wait for the commit and are written at the end of a loop pass, after that pass's
/// updates. So no client sees a version a crash could lose, every update reflecting version V
/// is written before the ack carrying V, and everything produced in one pass leaves in one
/// write per connection.
final class Server<App: SyncApp>: ConnectionDelegate {
    let configuration: DaemonConfiguration
    let logger: Logger
    /// The latest published state, for side effects on other threads.
    let mirror: StateMirror<App.State>

    /// The applied state: durable actions plus those whose commit is pending.
    var store: Store<App.State>
    /// The newest state known to be on disk.
    var durableState: App.State
    /// The numbered dispatches applied, durable or pending (see `Server+ExactlyOnce.swift`).
    var ledger: DispatchLedger
    let writer: JournalWriter<App.State>
    let hub = ViewHub<App.State>()
    /// What every connection reads into.
    let readBuffer = ReadBuffer(byteCount: Connection.readChunkSize)
    var sessions: [Int: Session] = [:]
    /// The id the next accepted connection gets.
    var nextConnectionID = 1
    let loop: UnsafeMutablePointer<uv_loop_t>
    var passEnd: LoopHandle<uv_prepare_t>!
    var connectionsToFlush: [Connection] = []
    /// The actions applied since the last commit started, in order: the next commit's batch.
    var uncommitted: [JournalEntry] = []
    /// The dispatches whose answer waits for the journal (`PendingAcks`, in `Server+Acks.swift`).
    var pendingAcks = PendingAcks()
    /// Shutdown progress (see `Server+Shutdown.swift`).
    var shutdown = ShutdownProgress.serving
    /// The timer that cuts off clients that do not read their `bye` in time.
    var shutdownDeadline: LoopHandle<uv_timer_t>?
    /// The state and version clients have been shown: everything durable, as of the last pass.
    var publishedState: App.State
    var publishedVersion: UInt64
    /// The app's action types by wire name.
    let actionTypes = ActionDirectory<App.State>(App.actions)
    /// The app's dispatched side effect types by wire name (an action of the same name wins).
    let sideEffectTypes = Dictionary(App.sideEffects.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
    /// What acceptance and side effects are given: the clock, the ids, the app's own.
    let dependencies: App.Dependencies
    /// The side effects clients dispatched that are running (see `Server+SideEffects.swift`).
    var sideEffectCalls: SideEffectCalls<App>!
    /// What the listener of a shared log last saw; `nil` with a journal of this daemon only.
    var sharedLog: SharedLogObservation?
    /// Why no action is accepted any more (a shared log rewritten under this daemon), if so.
    var writeRefusal: String?
    /// Why the daemon must stop at once (a commit that may or may not be on disk), if so.
    var fatalStop: DaemonError?
    /// Called once when the daemon must stop at once; the daemon closes its own handles.
    var onFatalError: () -> Void = {}
    /// The rebuilds of past versions for `get` (see `Server+Get.swift`).
    var rebuilds: RebuildQueue

    /// A server for `store` and `ledger` (everything in them durable) on `loop`, committing
    /// through `writer`.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, store: Store<App.State>, ledger: DispatchLedger,
        writer: JournalWriter<App.State>,
        configuration: DaemonConfiguration, dependencies: App.Dependencies, logger: Logger
    ) throws(DaemonError) {
        let clashes = Set(App.actions.map { $0.wireName }).intersection(App.sideEffects.map { $0.wireName })
        precondition(
            clashes.isEmpty,
            "\(App.self) names an action and a side effect alike: \(clashes.sorted().joined(separator: ", "))")
        self.loop = loop
        self.dependencies = dependencies
        self.store = store
        self.ledger = ledger
        self.writer = writer
        durableState = store.state
        self.configuration = configuration
        self.logger = logger
        publishedState = store.state
        publishedVersion = store.version
        mirror = StateMirror(state: store.state, version: store.version)
        rebuilds = RebuildQueue(
            concurrencyLimit: configuration.maximumConcurrentRebuilds,
            waitingLimit: configuration.maximumWaitingRebuilds)
        passEnd = try makePassEndHook()
        writer.delegate = self
        sideEffectCalls = try SideEffectCalls(
            loop: loop, mirror: mirror, dependencies: dependencies,
            apply: { [unowned self] action, reply in self.apply(action, requester: .sideEffect(reply)) },
            finish: { [unowned self] call, outcome in self.sideEffectDidFinish(call, outcome) })
    }

    /// Number of connected clients.
    var connectionCount: Int { sessions.count }

    /// Queues `message` for `session`'s client.
    func send(_ message: ServerMessage, to session: Session) {
        session.connection.send(message)
    }

    /// Queues `error` for `session`'s client, then closes its connection once it is written.
    func closeWithError(_ error: ProtocolError, _ session: Session, because reason: DisconnectReason) {
        send(.error(error), to: session)
        session.connection.closeAfterFlushing(reason: reason)
    }

}
