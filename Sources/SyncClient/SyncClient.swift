import Glibc
import SyncProtocol
import SyncStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A connection to the daemon: dispatch typed actions, subscribe to typed view models.
///
/// Safe to share between tasks. Every method throws `SyncClientError`. The connection closes
/// with `close()` or when the client and every stream it returned are gone.
///
/// When the daemon goes away (restart, upgrade), the client reconnects as its
/// `ReconnectPolicy` says: requests wait and are sent again, subscriptions resume by
/// themselves, and `connectionStates()` tells fronts what is happening. Each client has an id
/// and numbers its dispatches, so a dispatch sent again after a reconnect is applied once.
public final class SyncClient: Sendable {
    /// What the daemon said about itself in its first `welcome`.
    public struct ServerInfo: Sendable, Equatable {
        /// `name/version` of the daemon.
        public let name: String
        /// The app the daemon serves (`nil` from older daemons, which do not say).
        public let app: String?
        /// The protocol version in use.
        public let protocolVersion: Int
        /// The state version when the connection was made.
        public let version: UInt64
        /// Which log the daemon uses and how it was doing then (`nil` from older daemons).
        public let log: LogStatus?
    }

    /// The socket this client connects to.
    public let socketPath: String
    /// The daemon's first `welcome`.
    public let server: ServerInfo
    /// This client's id for exactly-once dispatch: random, kept across reconnects.
    public let clientID: String

    /// Runs tasks on this client's connection thread, so that a reply resumes its caller where
    /// it was read: `withTaskExecutorPreference(client.executor) { … }` around a loop of
    /// requests saves a thread wake-up per reply. See `ConnectionExecutor`.
    public let executor: ConnectionExecutor

    private let router: ReplyRouter
    private let sender: RequestSender

    /// Connects to `identity`'s daemon and says hello, starting the daemon first when nothing
    /// answers and `autostart` is given (and the environment does not forbid it).
    ///
    /// `socketPath` defaults to the identity's (`$TODO_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/todo/todod.sock`, else `/tmp/todo-UID/todod.sock` for `todo`). The
    /// client introduces itself as `identity.clientName` unless `clientName` is given.
    public static func connect(
        to identity: AppIdentity, socketPath: String? = nil, clientName: String? = nil,
        autostart: DaemonAutostart? = nil, reconnect: ReconnectPolicy = .automatic
    ) async throws(SyncClientError) -> SyncClient {
        let environment = ProcessInfo.processInfo.environment
        let path = identity.socketPath(explicit: socketPath, environment: environment, userID: getuid())
        let name = clientName ?? identity.clientName
        do {
            return try await connect(socketPath: path, clientName: name, app: identity.name, reconnect: reconnect)
        } catch .daemonUnreachable(let path, let reason) {
            guard let autostart, !DaemonAutostart.isForbidden(for: identity, environment: environment) else {
                throw .daemonUnreachable(path: path, reason: reason)
            }
            _ = try autostart.ensureDaemon(of: identity, at: path)
        }
        return try await connect(socketPath: path, clientName: name, app: identity.name, reconnect: reconnect)
    }

    /// Connects to `App`'s daemon (where `App.identity` says) and says hello, as
    /// `connect(to: App.identity, …)` does.
    public static func connect<App: SyncApp>(
        to app: App.Type, socketPath: String? = nil, clientName: String? = nil, autostart: DaemonAutostart? = nil,
        reconnect: ReconnectPolicy = .automatic
    ) async throws(SyncClientError) -> SyncClient {
        try await connect(
            to: App.identity, socketPath: socketPath, clientName: clientName, autostart: autostart, reconnect: reconnect
        )
    }

    /// Connects to the daemon listening at `socketPath` and says hello.
    ///
    /// `clientName` (`name/version`) appears in the daemon's logs. `app` (an `AppIdentity`'s
    /// name) makes a daemon serving another app refuse the client (`.wrongApp`). The first
    /// connection must succeed (else `.daemonUnreachable` and the like); `reconnect` says what
    /// happens when a connection is lost later.
    public static func connect(
        socketPath path: String, clientName: String, app: String? = nil, reconnect: ReconnectPolicy = .automatic
    ) async throws(SyncClientError) -> SyncClient {
        let clientID = ClientID.random().value
        let router = ReplyRouter(reconnects: reconnect.reconnects)
        let sender = RequestSender(router: router)
        let thread = ConnectionThread(
            configuration: .init(
                socketPath: path, clientName: clientName, app: app, clientID: clientID, policy: reconnect),
            router: router, sender: sender, jobs: try ConnectionExecutor())
        let first = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<ServerReply.Welcome, SyncClientError>, Never>) in
            thread.start { continuation.resume(returning: $0) }
        }
        let welcome = try first.get()
        let info = ServerInfo(
            name: welcome.server, app: welcome.app, protocolVersion: welcome.protocolVersion, version: welcome.version,
            log: welcome.log)
        return SyncClient(
            socketPath: path, server: info, clientID: clientID, router: router, sender: sender, executor: thread.jobs)
    }

    private init(
        socketPath: String, server: ServerInfo, clientID: String, router: ReplyRouter, sender: RequestSender,
        executor: ConnectionExecutor
    ) {
        self.socketPath = socketPath
        self.server = server
        self.clientID = clientID
        self.router = router
        self.sender = sender
        self.executor = executor
    }

    deinit {
        close()
    }

    /// The connection state now, then each change; the stream ends once the client is closed.
    /// A consumer slower than the changes sees the newest ones.
    public func connectionStates() -> AsyncStream<ConnectionState> {
        router.states.stream()
    }

    /// The connection state now. `connect` returns once the first connection is made, so the
    /// machine always has one to publish by then; the fallback is that first connection.
    public var connectionState: ConnectionState { router.states.current ?? .connected(version: server.version) }

    /// Dispatches `action` and returns the state version once the daemon applied it. Every
    /// update reflecting that version was delivered to this client's streams before it returns.
    public func dispatch<A: Action>(_ action: A) async throws(SyncClientError) -> UInt64 {
        let reply = try await request(numbered: true) { id, sequence in
            try DispatchRequest(id: id, actionName: A.wireName, sequence: sequence.map(Int64.init)).encoded(
                payload: action)
        }
        guard case .ack(_, let version) = reply else { throw .protocolViolation("expected ack, got \(reply.typeName)") }
        return version
    }

    /// Applies `actions` all or nothing, at consecutive versions, in one journal transaction,
    /// and returns the last one's version once they are durable (every update reflecting them
    /// delivered to this client's streams first). When one is refused the batch is refused,
    /// with its reason and its place in the batch, and none is applied. Numbered like a
    /// dispatch, so resent after a reconnect it applies at most once.
    public func dispatch(batch actions: [any Action]) async throws(SyncClientError) -> UInt64 {
        try await dispatch(encodedBatch: { try actions.map { try Self.batchItem($0) } })
    }

    private static func batchItem<A: Action>(_ action: A) throws -> (name: String, payload: [UInt8]) {
        (A.wireName, try WireJSON.encode(action))
    }

    /// Runs the side effect `effect` in the daemon and returns its result once it finished:
    /// every action it dispatched is durable then, and every update reflecting them was
    /// delivered to this client's streams before it returns. What it threw comes back as
    /// `.server(code:message:)` (`rejected` with its message, `cancelled` when the daemon
    /// stopped first, `too_many_side_effects` beyond the daemon's bound per connection).
    ///
    /// Unlike a dispatch it is not numbered: sent again after a reconnect, it runs again (its
    /// first run was cancelled when the connection was lost, its actions until then kept).
    public func run<E: DispatchedSideEffect>(_ effect: E) async throws(SyncClientError) -> E.Result {
        let (reply, payload) = try await requestWithPayload { id, _ in
            try DispatchRequest(id: id, actionName: E.wireName).encoded(payload: effect)
        }
        guard case .result = reply else { throw .protocolViolation("expected result, got \(reply.typeName)") }
        do {
            return try WireJSON.decode(ResultEnvelope<E.Result>.self, from: payload).result
        } catch {
            throw .protocolViolation("a \(E.wireName) result that does not decode: \(error)")
        }
    }

    /// Up to `limit` journaled actions after version `after`, oldest first; without `after`,
    /// the latest `limit` actions.
    public func history(after: UInt64? = nil, limit: Int = 20) async throws(SyncClientError) -> [HistoryEntry] {
        let reply = try await request { id, _ in
            HistoryRequest(id: id, after: after.map(Int64.init), limit: Int64(limit)).encoded()
        }
        guard case .entries(_, let entries) = reply else {
            throw .protocolViolation("expected entries, got \(reply.typeName)")
        }
        return entries
    }

    /// Round-trips a `ping`.
    public func ping() async throws(SyncClientError) {
        let reply = try await request { id, _ in PingRequest(id: id).encoded() }
        guard case .pong = reply else { throw .protocolViolation("expected pong, got \(reply.typeName)") }
    }

    /// Subscribes to `Model` with `params`. The stream yields the current model at once, then
    /// each new model; a consumer slower than the updates sees the newest model, never a
    /// backlog. After a reconnect it goes on with the current model. Ending the iteration
    /// unsubscribes. The stream fails with `SyncClientError`.
    public func subscribe<Model: ViewModel>(_ type: Model.Type, params: Model.Params) -> AsyncThrowingStream<
        ViewModelUpdate<Model>, any Error
    > {
        subscription(
            encodeSubscribe: { id in try SubscribeRequest(id: id, viewModel: Model.wireName).encoded(params: params) },
            convert: { version, held in
                do {
                    let model = try WireJSON.decode(UpdateEnvelope<Model>.self, from: held.payload()).model
                    return ViewModelUpdate(version: version, model: model)
                } catch {
                    throw SyncClientError.protocolViolation("a \(Model.wireName) model that does not decode: \(error)")
                }
            })
    }

    /// A subscription's stream: subscribes with `encodeSubscribe`, and yields what `convert`
    /// makes of each new model held (the stream keeps the newest one for a slow consumer). A
    /// `convert` that throws ends the stream with its error.
    func subscription<Element: Sendable>(
        encodeSubscribe: @escaping @Sendable (Int64) throws -> [UInt8],
        convert: @escaping @Sendable (UInt64, SubscriptionSink.HeldModel) throws -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let sink = SubscriptionSink(
                encodeSubscribe: encodeSubscribe,
                yield: { version, held in
                    do {
                        continuation.yield(try convert(version, held))
                    } catch {
                        continuation.finish(throwing: error)
                    }
                },
                finish: { error in continuation.finish(throwing: error) },
                unsubscribe: { [self] subscription, generation in
                    // Possibly on the connection thread: writing never waits for the daemon.
                    router.removeSink(subscription)
                    sendUnsubscribe(subscription, generation: generation)
                },
                resubscribe: { [self] sink, subscription, generation in
                    router.removeSink(subscription)
                    sendUnsubscribe(subscription, generation: generation)
                    do throws(SyncClientError) {
                        try sender.send(.subscription(sink)) { id, _ in try sink.encodeSubscribe(id) }
                    } catch {
                        sink.finish(throwing: error)
                    }
                })
            continuation.onTermination = { [router] _ in
                sink.consumerDidLeave()
                router.dropResubscription(sink)
            }
            do {
                try sender.send(.subscription(sink)) { id, _ in try sink.encodeSubscribe(id) }
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    /// The model of `Model` with `params` as it was at `version` (a `get` with `at`), rebuilt
    /// by the daemon from its journal: exactly the model subscribers were sent at that version.
    /// Fails with the daemon's `future_version`, `replay_limit`, `version_unavailable` or
    /// `too_many_rebuilds` error (see docs/PROTOCOL.md).
    public func get<Model: ViewModel>(_ type: Model.Type, params: Model.Params, at version: UInt64)
        async throws(SyncClientError) -> ViewModelUpdate<Model>
    {
        let (reply, payload) = try await requestWithPayload { id, _ in
            try GetRequest(id: id, viewModel: Model.wireName, at: Int64(version)).encoded(params: params)
        }
        guard case .model(_, let replyVersion) = reply else {
            throw .protocolViolation("expected model, got \(reply.typeName)")
        }
        do {
            return ViewModelUpdate(
                version: replyVersion, model: try WireJSON.decode(UpdateEnvelope<Model>.self, from: payload).model)
        } catch {
            throw .protocolViolation("a \(Model.wireName) model that does not decode: \(error)")
        }
    }

    /// The current model of `Model` with `params`, once.
    public func get<Model: ViewModel>(_ type: Model.Type, params: Model.Params) async throws(SyncClientError)
        -> ViewModelUpdate<Model>
    {
        do {
            for try await update in subscribe(type, params: params) { return update }
        } catch let error as SyncClientError {
            throw error
        } catch {
            throw .protocolViolation(String(describing: error))
        }
        throw .connectionClosed(.subscriptionEnded)
    }

    /// Closes the connection for good; pending requests and streams fail with
    /// `.connectionClosed` (or with the daemon's last error, if it had just reported one).
    public func close() {
        router.close(.connectionClosed(.closedByClient))
    }

    /// The `SyncClientError` an `error` reply stands for.
    static func error(from reply: ServerReply.ErrorReply) -> SyncClientError {
        switch ErrorCode(rawValue: reply.code) {
        case .unsupportedProtocol: return .unsupportedProtocol(serverSupports: reply.supported ?? [])
        case .wrongApp: return .wrongApp(message: reply.message)
        default: return .server(code: reply.code, message: reply.message)
        }
    }

    /// Unsubscribes `subscription` of connection `generation`; on a later connection the id
    /// means nothing (or another subscription), and the daemon already forgot it.
    private func sendUnsubscribe(_ subscription: Int64, generation: Int) {
        try? sender.send(.discard, onlyOn: generation) { id, _ in
            UnsubscribeRequest(id: id, subscription: subscription).encoded()
        }
    }

    /// Sends one request and waits for its reply; an `error` reply is thrown. A `numbered`
    /// request gets the client's next dispatch sequence number.
    func request(numbered: Bool = false, _ encode: (Int64, UInt64?) throws -> [UInt8])
        async throws(SyncClientError) -> ServerReply
    {
        try await requestWithPayload(numbered: numbered, encode).reply
    }

    /// Sends one request and waits for its reply, as `request` does, with the reply's whole payload.
    func requestWithPayload(
        numbered: Bool = false, _ encode: (Int64, UInt64?) throws -> [UInt8]
    ) async throws(SyncClientError) -> (reply: ServerReply, payload: [UInt8]) {
        let result = await withCheckedContinuation {
            (
                continuation: CheckedContinuation<
                    Result<(reply: ServerReply, payload: [UInt8]), SyncClientError>, Never
                >
            ) in
            do throws(SyncClientError) {
                try sender.send(.reply(continuation), numbered: numbered, encode: encode)
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        let reply = try result.get()
        if case .error(let error) = reply.reply { throw Self.error(from: error) }
        return reply
    }
}

/// The `result` field of a `result` reply, decoded as the side effect's own type straight
/// from the frame (no detour through a generic JSON value, which would round large integers).
struct ResultEnvelope<Result: Decodable>: Decodable {
    let result: Result
}
