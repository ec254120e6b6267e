import CUV
import SyncEngine
import SyncJournal
import SyncProtocol
import SyncStore

/// The engine on libuv: carries out its outputs in order (sockets, the pass-end hook, the
/// journal writer, the thread pool, side-effect tasks, the bye deadline, log lines) and feeds
/// it what happens. Holds no protocol state of its own. Loop-confined: not `Sendable`.
///
/// ```
/// ClientSocket ─bytes─▶ engine.handle(.received) ─▶ outputs ─▶ perform: write, close, …
/// pass-end hook ─▶ .passEnded ─▶ .startJournalJob ─▶ JournalWriter ─▶ .journalJobStarted
/// JournalWriter (pool job ended) ─▶ .journalJobFinished, then its reads' results
/// ```
final class LoopServer<App: SyncApp>: ClientSocketDelegate, JournalWriterDelegate {
    /// The protocol's logic.
    let engine: Engine<App>
    /// The latest published state, for side effects on other threads.
    let mirror: StateMirror<App.State>
    let writer: JournalWriter
    private let loop: UnsafeMutablePointer<uv_loop_t>
    private let logger: Logger
    private let peerPolicy: PeerPolicy
    private let passEnd: LoopHandle<uv_prepare_t>
    /// What every socket reads into.
    private let readBuffer = ReadBuffer(byteCount: ClientSocket.readChunkSize)
    private var sockets: [Int: ClientSocket] = [:]
    private var nextConnectionID = 1
    /// The side effects clients dispatched, as tasks.
    private let calls: SideEffectCalls<App>
    /// The side effects waiting for the outcome of an action they dispatched, by reply id.
    private var sideEffectReplies: [UInt64: CheckedContinuation<UInt64, any Error>] = [:]
    private var nextReply: UInt64 = 1
    private var byeDeadline: LoopHandle<uv_timer_t>?
    /// The wake-up the engine's schedules asked for.
    private var scheduleWakeUp: LoopHandle<uv_timer_t>?
    private var isPerforming = false
    /// Whether the journal job being started reported its end before `startNextJob` returned.
    private var isStartingJob = false
    /// Why the daemon must stop at once (a commit that may or may not be on disk), if so.
    private(set) var fatalStop: DaemonError?
    /// Called once when the daemon must stop at once; the daemon closes its own handles.
    var onFatalError: () -> Void = {}

    /// A shell for `engine` on `loop`, committing through `writer`.
    init(
        engine: Engine<App>, loop: UnsafeMutablePointer<uv_loop_t>, writer: JournalWriter,
        peerPolicy: PeerPolicy, dependencies: App.Dependencies, logger: Logger
    ) throws(DaemonError) {
        self.engine = engine
        self.loop = loop
        self.writer = writer
        self.logger = logger
        self.peerPolicy = peerPolicy
        let mirror = StateMirror(state: engine.publishedState, version: engine.publishedVersion)
        self.mirror = mirror
        // The hook and the inboxes reach the server through this box: they exist before it does.
        let box = WeakBox<LoopServer>()
        passEnd = try .passEnd(loop: loop) { box.value?.feed(.passEnded) }
        calls = try SideEffectCalls(
            loop: loop, mirror: mirror, dependencies: dependencies,
            apply: { call, action, reply in box.value?.sideEffectDispatched(action, reply: reply, call: call) },
            finish: { call, outcome in box.value?.feed(.sideEffectFinished(call: call, outcome)) })
        box.value = self
        writer.delegate = self
    }

    /// Starts serving: the schedules dispatch what is due in the recovered state.
    func start() {
        engine.start()
        performOutputs()
    }

    /// Hands `input` to the engine and carries out what it asks for.
    func feed(_ input: EngineInput) {
        engine.handle(input)
        performOutputs()
    }

    /// Accepts the client waiting on `listener` and hands it to the engine.
    func accept(from listener: UnsafeMutablePointer<uv_stream_t>) {
        guard case .serving = engine.shutdown else { return }
        do {
            let socket = try ClientSocket(
                id: nextConnectionID, loop: loop, acceptingFrom: listener, readBuffer: readBuffer)
            nextConnectionID += 1
            socket.delegate = self
            sockets[socket.id] = socket
            let allowed = socket.peer.map { peerPolicy.allows(uid: $0.uid, gid: $0.gid) } ?? false
            feed(.opened(connection: socket.id, peer: socket.peer, allowed: allowed))
        } catch {
            logger.log(.warning, "cannot accept a client: \(error)")
        }
    }

    /// SIGINT or SIGTERM: the engine stops reading requests and finishes what was applied.
    func beginShutdown() {
        feed(.shutdownRequested)
    }

    /// An action a side effect dispatched; `reply` hears what became of it.
    func sideEffectDispatched(
        _ action: any Action<App.State>, reply: CheckedContinuation<UInt64, any Error>, call: Int? = nil
    ) {
        let id = nextReply
        nextReply += 1
        sideEffectReplies[id] = reply
        handle(action, dispatchedBySideEffect: id, call: call)
    }

    /// Hands the engine `action`, dispatched by a side effect (by call `call`, if a client's),
    /// whose outcome goes to reply `reply`, and carries out what it asks for.
    func handle(_ action: any Action<App.State>, dispatchedBySideEffect reply: UInt64, call: Int? = nil) {
        engine.handle(action, dispatchedBySideEffect: reply, call: call)
        performOutputs()
    }

    /// Carries out the engine's outputs, once: inputs fed while doing so add theirs to the same run.
    private func performOutputs() {
        guard !isPerforming else { return }
        isPerforming = true
        engine.performOutputs { perform($0) }
        isPerforming = false
    }

    private func perform(_ output: EngineOutput) {
        switch output {
        case .startReading(let id): sockets[id]?.startReading()
        case .stopReading(let id): sockets[id]?.stopReading()
        case .write(let id, let buffer):
            if let socket = sockets[id] { socket.write(buffer) } else { buffer.deallocate() }
        case .close(let id): sockets.removeValue(forKey: id)?.close()
        case .wantPassEnd: passEnd.start()
        case .passEndIdle: passEnd.stop()
        case .startJournalJob(let entries, let ledger): startJournalJob(entries, ledger)
        case .readEntries(let read, let after, let limit):
            writer.read(after: after, limit: limit) { [unowned self] in feed(.entriesRead(read: read, $0)) }
        case .readPastBase(let read, let version, let replayLimit):
            writer.readBase(of: version, replayLimit: replayLimit) { [unowned self] in
                feed(.pastBaseRead(read: read, $0))
            }
        case .runOnPool(let job, let work):
            PoolTask.run(on: loop, work: work) { [unowned self] in feed(.poolJobEnded(job: job, $0)) }
        case .requestCatchUp: writer.requestCatchUp()
        case .takeBackDurableVersion(let version): writer.takeBackDurableVersion(to: version)
        case .publish: mirror.publish(state: engine.publishedState, version: engine.publishedVersion)
        case .startSideEffect(let call):
            guard let effect = engine.takeSideEffect(forCall: call) else {
                preconditionFailure("the engine asked to start side effect call \(call) and holds none")
            }
            calls.start(effect, call: call)
        case .cancelSideEffects(let ids): calls.cancel(ids)
        case .answerSideEffectDispatch(let reply, let result):
            guard let continuation = sideEffectReplies.removeValue(forKey: reply) else { return }
            continuation.resume(with: result.mapError { $0 as any Error })
        case .stopSideEffects:
            calls.stop()
            // What side effects still wait for will never come: the daemon is stopping.
            for reply in sideEffectReplies.values {
                reply.resume(throwing: ProtocolError(.cancelled, "The daemon is shutting down."))
            }
            sideEffectReplies = [:]
        case .log(let level, let text): logger.log(Logger.Level(level), text)
        case .wakeIn(let milliseconds): wake(in: milliseconds)
        case .startByeDeadline(let milliseconds): startByeDeadline(after: milliseconds)
        case .shutdownFinished:
            closeTimers()
            passEnd.close()
        case .stopAtOnce(let reason):
            fatalStop = .uncertainCommit(reason: reason)
            closeTimers()
            passEnd.close()
            onFatalError()
        }
    }

    /// Starts the writer's next job and tells the engine how it went.
    private func startJournalJob(_ entries: [JournalEntry], _ ledger: DispatchLedger) {
        isStartingJob = true
        let start = writer.startNextJob(
            entries: entries, appliedState: StateEncoding(engine.committingState), appliedLedger: ledger)
        isStartingJob = false
        switch start {
        case .none:
            feed(.journalJobStarted(.none))
        case .ranInline:
            let finished = writer.takeFinished()
            feed(.journalJobStarted(.ranInline(finished.outcomes)))
            for deliver in finished.reads { deliver() }
        case .queued where !writer.isBusy:
            // The pool refused the job, which ended at once.
            let finished = writer.takeFinished()
            feed(.journalJobStarted(.ranInline(finished.outcomes)))
            for deliver in finished.reads { deliver() }
        case .queued:
            feed(.journalJobStarted(.queued))
        }
    }

    private func wake(in milliseconds: Int64?) {
        scheduleWakeUp?.close()
        scheduleWakeUp = nil
        guard let milliseconds else { return }
        do {
            scheduleWakeUp = try .timer(loop: loop, after: UInt64(max(0, milliseconds))) { [unowned self] in
                scheduleWakeUp?.close()
                scheduleWakeUp = nil
                feed(.wakeUp)
            }
        } catch {
            logger.log(.warning, "no timer for the schedules (\(error)); trying again at the next version")
        }
    }

    private func closeTimers() {
        byeDeadline?.close()
        scheduleWakeUp?.close()
    }

    private func startByeDeadline(after milliseconds: UInt64) {
        do {
            byeDeadline = try .timer(loop: loop, after: milliseconds) { [unowned self] in feed(.byeDeadlinePassed) }
        } catch {
            logger.log(.warning, "no shutdown deadline (\(error)); closing every client now")
            feed(.byeDeadlinePassed)
        }
    }

    func journalWriterFinishedJob() {
        guard !isStartingJob else { return }
        let finished = writer.takeFinished()
        feed(.journalJobFinished(finished.outcomes))
        for deliver in finished.reads { deliver() }
    }

    func journalWriterEncodedSnapshot() {
        feed(.journalHasWork)
    }

    func socket(_ socket: ClientSocket, didRead bytes: UnsafeRawBufferPointer) {
        feed(.received(connection: socket.id, bytes: bytes))
    }

    func socketReachedEndOfInput(_ socket: ClientSocket) {
        feed(.inputEnded(connection: socket.id))
    }

    func socketDidWrite(_ socket: ClientSocket) {
        feed(.wrote(connection: socket.id))
    }

    func socket(_ socket: ClientSocket, failedWith reason: CloseReason) {
        feed(.failed(connection: socket.id, reason))
    }
}

/// A weak reference, for closures made before the object they call exists.
final class WeakBox<Object: AnyObject> {
    weak var value: Object?
}

extension Logger.Level {
    /// The logger's level for the engine's `level`.
    init(_ level: LogLevel) {
        switch level {
        case .error: self = .error
        case .warning: self = .warning
        case .info: self = .info
        case .debug: self = .debug
        }
    }
}
