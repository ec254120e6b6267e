import Foundation
import SyncEngine
import SyncJournal
import SyncProtocol
import SyncStore
import SyncTesting

/// Drives an `Engine` as the daemon's shell does, in memory and at once (swift-nio's
/// `EmbeddedChannel` is the model): frames in, the frames each client was sent out, commits
/// held until a test settles them, journal reads answered from the entries committed, work for
/// the thread pool run inline (or held, `holdsPoolJobs`). Nothing here sleeps, spawns or opens a socket.
final class EngineHarness {
    /// How journal jobs run.
    enum CommitMode {
        /// Every job is held until `settle` ends it (a commit on the thread pool).
        case held
        /// Every job commits at once (a small commit on the loop thread).
        case inline
    }

    /// A commit held until `settle` ends it.
    struct HeldCommit {
        let entries: [JournalEntry]
    }

    let engine: Engine<TallyApp>
    let clock = TestClock(now: 1_000)
    var commitMode: CommitMode
    /// Everything committed, in order: the journal.
    private(set) var journal: [JournalEntry] = []
    /// The job running, if one is held.
    private(set) var heldCommit: HeldCommit?
    /// What each connection was sent, frame by frame.
    private(set) var frames: [Int: [[String: Any]]] = [:]
    /// The connections the engine closed.
    private(set) var closed: Set<Int> = []
    /// The connections the engine reads.
    private(set) var reading: Set<Int> = []
    /// Connections whose writes do not complete until `drain`.
    var stalled: Set<Int> = []
    private var heldWrites: [Int: Int] = [:]
    /// The side effects started, by call, and the calls cancelled.
    private(set) var sideEffects: [Int: any DispatchedSideEffect<TallyApp.State, StandardDependencies>] = [:]
    private(set) var cancelledCalls: [Int] = []
    /// What the side effects' dispatches were answered, by reply id.
    private(set) var sideEffectAnswers: [UInt64: Result<UInt64, ProtocolError>] = [:]
    /// The versions shown to the side effects, in order.
    private(set) var published: [UInt64] = []
    /// The log lines.
    private(set) var logs: [(level: LogLevel, text: String)] = []
    /// Every output, named, in order (for the order of effects).
    private(set) var trace: [String] = []
    private(set) var catchUpsRequested = 0
    /// The wake-ups the schedules asked for, in milliseconds from then (`nil`: none).
    private(set) var wakeUps: [Int64?] = []
    private(set) var stoppedAtOnce: String?
    private(set) var shutdownFinished = false
    private var passEndWanted = false
    /// Whether work for the thread pool waits for `runPoolJobs` instead of running at once.
    var holdsPoolJobs = false
    private var heldPoolJobs: [(job: Int, work: @Sendable () -> Result<[UInt8], PoolJobFailure>)] = []

    /// An engine over an empty store (or `store`), with `configure`d limits.
    init(
        commitMode: CommitMode = .held, store: Store<TallyApp.State> = Store(state: TallyApp.initialState),
        shared: Bool = false, schedules: [any Schedule<TallyApp.State>] = [],
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) {
        var configuration = EngineConfiguration(
            serverName: "tallyd/1", daemonName: "tallyd", appName: "tally", hostName: "here",
            maximumFrameLength: 1 << 20)
        configuration.isShared = shared
        configure(&configuration)
        self.commitMode = commitMode
        engine = Engine(
            store: store, ledger: DispatchLedger(), configuration: configuration,
            dependencies: StandardDependencies(clock: clock, ids: SequentialIDs()), schedules: schedules)
        engine.start()
        performOutputs()
    }

    // MARK: Inputs

    /// Hands `input` to the engine, carries out its outputs, and ends loop passes while it wants them.
    func feed(_ input: EngineInput) {
        engine.handle(input)
        performOutputs()
    }

    /// Hands the engine `action` as a side effect's dispatch (answered to `reply`, by call
    /// `call` if given), and carries out its outputs as `feed` does.
    func dispatchFromSideEffect(_ action: any Action<TallyApp.State>, reply: UInt64, call: Int? = nil) {
        engine.handle(action, dispatchedBySideEffect: reply, call: call)
        performOutputs()
    }

    /// A client connects as `connection`.
    func open(_ connection: Int, allowed: Bool = true) {
        feed(.opened(connection: connection, peer: Peer(uid: 1000, gid: 1000, pid: 4242), allowed: allowed))
    }

    /// Sends `json` as one frame from `connection`.
    func send(_ connection: Int, _ json: String) {
        sendBytes(connection, FrameEncoder.frame(Array(json.utf8)))
    }

    /// Sends raw bytes from `connection`.
    func sendBytes(_ connection: Int, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed(.received(connection: connection, bytes: $0)) }
    }

    /// Connects `connection` and says hello (with `clientID`, and patches if asked).
    func greet(_ connection: Int, clientID: String? = nil, patches: Bool = false) {
        open(connection)
        let id = clientID.map { ",\"clientId\":\"\($0)\"" } ?? ""
        let features = patches ? ",\"features\":[\"patch\"]" : ""
        send(connection, "{\"type\":\"hello\",\"id\":0,\"protocol\":1,\"client\":\"test\"\(id)\(features)}")
    }

    /// Dispatches `add` by `by` from `connection` as request `id` (numbered if `sequence`).
    func add(_ connection: Int, id: Int, by: Int = 1, sequence: Int? = nil) {
        let numbered = sequence.map { ",\"sequence\":\($0)" } ?? ""
        send(
            connection,
            "{\"type\":\"dispatch\",\"id\":\(id),\"action\":{\"name\":\"add\",\"payload\":{\"by\":\(by)}}\(numbered)}")
    }

    /// Subscribes `connection` to `viewModel` as request `id`.
    func subscribe(_ connection: Int, id: Int, to viewModel: String = "tally") {
        send(connection, "{\"type\":\"subscribe\",\"id\":\(id),\"viewModel\":\"\(viewModel)\",\"params\":{}}")
    }

    /// Ends the held commit with `outcome` (by default: durable).
    func settle(_ outcome: CommitOutcome? = nil) {
        guard let held = heldCommit else { return }
        heldCommit = nil
        let outcome = outcome ?? .durable(version: held.entries.last!.version)
        if case .durable = outcome { journal += held.entries }
        trace.append("settled")
        feed(.journalJobFinished([outcome]))
    }

    /// Runs the work held for the thread pool (`holdsPoolJobs`), in order; how many ran.
    @discardableResult
    func runPoolJobs() -> Int {
        let jobs = heldPoolJobs
        heldPoolJobs = []
        for held in jobs { feed(.poolJobEnded(job: held.job, held.work())) }
        return jobs.count
    }

    /// Completes the writes held for a stalled `connection`, which is not stalled any more.
    func drain(_ connection: Int) {
        stalled.remove(connection)
        for _ in 0..<(heldWrites.removeValue(forKey: connection) ?? 0) { feed(.wrote(connection: connection)) }
    }

    // MARK: What the clients saw

    /// The frames `connection` was sent whose `type` is `type`.
    func sent(_ connection: Int, _ type: String) -> [[String: Any]] {
        (frames[connection] ?? []).filter { $0["type"] as? String == type }
    }

    /// The `type`s of the frames `connection` was sent, in order.
    func types(_ connection: Int) -> [String] {
        (frames[connection] ?? []).map { $0["type"] as? String ?? "?" }
    }

    /// The error codes `connection` was sent, in order.
    func errorCodes(_ connection: Int) -> [String] {
        sent(connection, "error").map { $0["code"] as? String ?? "?" }
    }

    // MARK: Outputs

    private func performOutputs() {
        engine.performOutputs { perform($0) }
        // The end of each loop pass, while the engine wants it (bounded against a loop).
        var passes = 0
        while passEndWanted, passes < 100 {
            passEndWanted = false
            passes += 1
            engine.handle(.passEnded)
            engine.performOutputs { perform($0) }
        }
    }

    private func perform(_ output: EngineOutput) {
        switch output {
        case .startReading(let id):
            reading.insert(id)
        case .stopReading(let id):
            reading.remove(id)
        case .write(let id, let buffer):
            record(Array(buffer), on: id)
            buffer.deallocate()
            trace.append("write \(id)")
            if stalled.contains(id) {
                heldWrites[id, default: 0] += 1
            } else {
                engine.handle(.wrote(connection: id))
            }
        case .close(let id):
            closed.insert(id)
            trace.append("close \(id)")
        case .wantPassEnd:
            passEndWanted = true
        case .passEndIdle:
            passEndWanted = false
        case .startJournalJob(let entries, _):
            startJob(entries)
        case .readEntries(let read, let after, let limit):
            let entries = Array(journal.filter { $0.version > after }.prefix(limit))
            engine.handle(.entriesRead(read: read, .success(entries)))
        case .readPastBase(let read, let version, _):
            engine.handle(
                .pastBaseRead(
                    read: read, .success(.replay(snapshot: nil, entries: journal.filter { $0.version <= version }))))
        case .runOnPool(let job, let work):
            trace.append("pool job")
            if holdsPoolJobs {
                heldPoolJobs.append((job, work))
            } else {
                engine.handle(.poolJobEnded(job: job, work()))
            }
        case .requestCatchUp:
            catchUpsRequested += 1
        case .takeBackDurableVersion:
            break
        case .publish(let version):
            published.append(version)
            trace.append("publish \(version)")
        case .startSideEffect(let call):
            sideEffects[call] = engine.takeSideEffect(forCall: call)
        case .cancelSideEffects(let calls):
            cancelledCalls += calls
        case .answerSideEffectDispatch(let reply, let result):
            sideEffectAnswers[reply] = result
        case .stopSideEffects:
            trace.append("stop side effects")
        case .log(let level, let text):
            logs.append((level, text))
        case .wakeIn(let milliseconds):
            wakeUps.append(milliseconds)
        case .startByeDeadline:
            trace.append("bye deadline")
        case .shutdownFinished:
            shutdownFinished = true
        case .stopAtOnce(let reason):
            stoppedAtOnce = reason
        }
    }

    private func startJob(_ entries: [JournalEntry]) {
        guard !entries.isEmpty else {
            engine.handle(.journalJobStarted(.none))
            return
        }
        trace.append("commit \(entries.first!.version)-\(entries.last!.version)")
        switch commitMode {
        case .inline:
            journal += entries
            engine.handle(.journalJobStarted(.ranInline([.durable(version: entries.last!.version)])))
        case .held:
            heldCommit = HeldCommit(entries: entries)
            engine.handle(.journalJobStarted(.queued))
        }
    }

    private var decoders: [Int: FrameDecoder] = [:]

    private func record(_ bytes: [UInt8], on connection: Int) {
        var decoder = decoders[connection] ?? FrameDecoder(maximumLength: 1 << 26)
        bytes.withUnsafeBytes { decoder.append($0) }
        while let payload = try? decoder.next() {
            let object = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] ?? [:]
            frames[connection, default: []].append(object)
        }
        decoders[connection] = decoder
    }
}
