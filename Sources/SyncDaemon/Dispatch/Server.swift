import CUV
import SyncJournal
import SyncProtocol
import SyncStore

/// The protocol engine: turns frames from connections into store changes, replies and view
/// model updates. Generic over the app; knows nothing of its domain. Loop-confined.
///
/// Durable before visible: an applied action is recorded in the journal writer and nothing of it
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
    private let readBuffer = ReadBuffer(byteCount: Connection.readChunkSize)
    var sessions: [Int: Session] = [:]
    private var nextConnectionID = 1
    let loop: UnsafeMutablePointer<uv_loop_t>
    var passEnd: LoopHandle<uv_prepare_t>!
    var connectionsToFlush: [Connection] = []
    /// The actions applied since the last commit started, in order: the next commit's batch.
    var uncommitted: [JournalEntry] = []
    /// The dispatches whose answer waits for the journal (see `Server+Acks.swift`).
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
        passEnd = try .passEnd(loop: loop) { [unowned self] in self.passDidEnd() }
        writer.delegate = self
        sideEffectCalls = try SideEffectCalls(
            loop: loop, mirror: mirror, dependencies: dependencies,
            apply: { [unowned self] action, reply in self.apply(action, requester: .sideEffect(reply)) },
            finish: { [unowned self] call, outcome in self.sideEffectDidFinish(call, outcome) })
    }

    /// Number of connected clients.
    var connectionCount: Int { sessions.count }

    /// Accepts the client waiting on `listener` and starts serving it.
    func accept(from listener: UnsafeMutablePointer<uv_stream_t>) {
        guard case .serving = shutdown else { return }
        let limits = Connection.Limits(
            maximumFrameLength: configuration.maximumFrameLength,
            softQueueLimit: configuration.softQueueLimit,
            hardQueueLimit: configuration.hardQueueLimit)
        do {
            let connection = try Connection(
                id: nextConnectionID, loop: loop, acceptingFrom: listener, limits: limits, readBuffer: readBuffer)
            nextConnectionID += 1
            connection.delegate = self
            let session = Session(connection: connection)
            sessions[connection.id] = session
            guard let peer = connection.peer, configuration.peerPolicy.allows(uid: peer.uid, gid: peer.gid) else {
                let who = connection.peer.map { "uid \($0.uid) pid \($0.pid)" } ?? "an unknown peer"
                logger.log(.warning, "refused \(who): not allowed (see --allow-uid, --allow-group)")
                closeWithError(
                    ProtocolError(
                        .permissionDenied,
                        "This daemon does not serve user \(connection.peer.map { String($0.uid) } ?? "unknown")."),
                    session, because: .peerRefused)
                return
            }
            logger.log(.debug, "\(session.logName) connected (uid \(peer.uid) pid \(peer.pid))")
            connection.startReading()
        } catch {
            logger.log(.warning, "cannot accept a client: \(error)")
        }
    }

    // MARK: ConnectionDelegate

    func connection(_ connection: Connection, didReceive payload: [UInt8]) {
        guard let session = sessions[connection.id] else { return }
        let request: ClientRequest
        let payloadLocation: DispatchPayloadLocation
        do {
            (request, payloadLocation) = try ClientRequest.decodeLocatingPayload(payload)
        } catch {
            if session.isGreeted {
                send(.error(error), to: session)
            } else {
                refuseBeforeHello(session, because: error.message)
            }
            return
        }
        handle(request, payload: payload, payloadLocation: payloadLocation, from: session)
    }

    func connection(_ connection: Connection, didBreakFraming error: FrameError) {
        guard let session = sessions[connection.id] else { return }
        let reply: ProtocolError
        switch error {
        case .emptyFrame:
            reply = ProtocolError(.invalidFrame, "A frame announced a payload of 0 bytes.")
        case .frameTooLarge(let length, let maximum):
            reply = ProtocolError(.frameTooLarge, "A frame announced \(length) bytes; the limit is \(maximum).")
        }
        logger.log(.warning, "\(session.logName): \(reply.message) Closing.")
        closeWithError(reply, session, because: .framingBroken)
    }

    func connectionReachedEndOfInput(_ connection: Connection) {
        guard let session = sessions[connection.id] else { return }
        closeIfFinished(session)
    }

    /// Closes the connection of a client that finished sending once nothing it asked for is
    /// still waiting for an answer.
    private func closeIfFinished(_ session: Session) {
        if session.connection.clientEndedInput && session.awaitedReplies == 0 {
            session.connection.closeAfterFlushing(reason: .endOfInput)
        }
    }

    /// Notes that a request of `connectionID` that waited for the journal has its answer queued.
    func didAnswerAwaitedRequest(of connectionID: Int) {
        guard let session = sessions[connectionID] else { return }
        session.awaitedReplies -= 1
        closeIfFinished(session)
    }

    func connectionNeedsFlush(_ connection: Connection) {
        connectionsToFlush.append(connection)
        passEnd.start()
    }

    func connectionLost(_ connection: Connection, reason: DisconnectReason) {
        guard let session = sessions.removeValue(forKey: connection.id) else { return }
        sideEffectCalls.cancelCalls(of: connection.id)
        for (subscription, key) in session.subscriptions {
            hub.unsubscribe(.init(connectionID: connection.id, subscription: subscription), from: key)
        }
        logger.log(reason.logLevel, "\(session.logName) disconnected: \(reason.logText)")
        finishShutdownIfDone()
    }

    // MARK: Requests

    private func handle(
        _ request: ClientRequest, payload: [UInt8], payloadLocation: DispatchPayloadLocation, from session: Session
    ) {
        if case .hello(let id, let protocolVersion, let client, let clientID, let features) = request {
            greet(
                session, id: id, protocolVersion: protocolVersion, client: client, clientID: clientID,
                features: features)
            return
        }
        guard session.isGreeted else {
            refuseBeforeHello(session, because: "the first message was not hello")
            return
        }
        switch request {
        case .hello:
            break
        case .dispatch(let id, let name, let sequence) where actionTypes[name] == nil && sideEffectTypes[name] != nil:
            runSideEffect(
                named: name, payload: payload, at: payloadLocation, numbered: sequence != nil, from: session,
                requestID: id)
        case .dispatch(let id, let name, let sequence):
            var numbered: DispatchLedger.Key?
            if let sequence {
                // A duplicate or a stale sequence is answered here, whatever the action.
                guard let key = admitNumberedDispatch(sequence: sequence, from: session, requestID: id) else { return }
                numbered = key
            }
            guard let type = actionTypes[name] else {
                send(
                    .error(
                        ProtocolError(.unknownAction, "No action or side effect is named \"\(name)\".", requestID: id)),
                    to: session)
                return
            }
            dispatch(
                type, payload: payload, at: payloadLocation,
                requester: .client(connectionID: session.connection.id, requestID: id), numbered: numbered)
        case .subscribe(let id, let viewModel):
            subscribe(session, requestID: id, viewModel: viewModel, payload: payload)
        case .unsubscribe(let id, let subscription):
            unsubscribe(session, requestID: id, subscription: subscription)
        case .ping(let id):
            send(.pong(id: id), to: session)
        case .history(let id, let after, let limit):
            history(session, requestID: id, after: after, limit: limit)
        case .get(let id, let viewModel, let at):
            get(session, requestID: id, viewModel: viewModel, at: at, payload: payload)
        }
    }

    private func greet(
        _ session: Session, id: Int64, protocolVersion: Int, client: String, clientID: String?, features: [String]
    ) {
        guard !session.isGreeted else {
            send(
                .error(ProtocolError(.invalidMessage, "This connection already said hello.", requestID: id)),
                to: session)
            return
        }
        guard WireProtocol.supportedVersions.contains(protocolVersion) else {
            let error = ProtocolError(
                .unsupportedProtocol,
                "Protocol \(protocolVersion) is not supported; this server speaks protocol \(WireProtocol.version).",
                requestID: id)
            session.connection.enqueue(
                FrameEncoder.frame(ServerMessage.error(error, supported: WireProtocol.supportedVersions).encoded()))
            session.connection.closeAfterFlushing(reason: .handshakeRefused)
            return
        }
        if let clientID, let problem = ClientID.problem(with: clientID) {
            // Like a refused protocol: the client asked for something this connection cannot
            // give, so it gets the reason and the connection closes rather than going on without.
            logger.log(.warning, "\(session.logName): hello refused: the client id is invalid (\(problem))")
            send(
                .error(
                    ProtocolError(
                        .invalidMessage,
                        "The \"clientId\" is not a valid client id: \(problem) (1 to \(ClientID.maximumLength) of A-Z a-z 0-9 . _ -).",
                        requestID: id)), to: session)
            session.connection.closeAfterFlushing(reason: .handshakeRefused)
            return
        }
        session.greet(client: client, clientID: clientID)
        // Features not known here are left out of the answer, not refused: the client learns
        // what it got and does without the rest.
        let granted = features.isEmpty ? nil : Array(Set(features).intersection(WireProtocol.features)).sorted()
        session.takesPatches = granted?.contains("patch") ?? false
        let lastSequence = clientID.map { ledger.lastSequence(of: $0, durableThrough: publishedVersion) }
        send(
            .welcome(
                id: id, protocolVersion: WireProtocol.version, server: configuration.serverName,
                version: publishedVersion,
                clientID: clientID, lastSequence: lastSequence, features: granted, log: logStatus), to: session)
    }

    private func refuseBeforeHello(_ session: Session, because reason: String) {
        logger.log(.warning, "\(session.logName): handshake refused: \(reason)")
        closeWithError(
            ProtocolError(.handshakeRequired, "The first message must be hello (\(reason))."), session,
            because: .handshakeRefused)
    }

    func send(_ message: ServerMessage, to session: Session) {
        session.connection.enqueue(FrameEncoder.frame(message.encoded()))
    }

    private func closeWithError(_ error: ProtocolError, _ session: Session, because reason: DisconnectReason) {
        send(.error(error), to: session)
        session.connection.closeAfterFlushing(reason: reason)
    }
}

extension Error {
    /// Where decoding failed, in a few words, for error messages.
    var shortDescription: String {
        switch self as? DecodingError {
        case .keyNotFound(let key, _): return "missing field \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).filter {
                $0 != "action" && $0 != "payload" && $0 != "params"
            }
            return path.isEmpty ? "wrong type" : "field \"\(path.joined(separator: "."))\" has the wrong type or value"
        default: return String(describing: self)
        }
    }
}
