#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import SyncProtocol
import SyncStore

/// A connection to the daemon: dispatch typed actions, subscribe to typed view models.
///
/// Safe to share between tasks. Every method throws `SyncClientError`. The connection closes
/// with `close()` or when the client and every stream it returned are gone.
public final class SyncClient: Sendable {
    /// What the daemon said about itself in `welcome`.
    public struct ServerInfo: Sendable, Equatable {
        /// `name/version` of the daemon.
        public let name: String
        /// The protocol version in use.
        public let protocolVersion: Int
        /// The state version when the connection was made.
        public let version: UInt64
    }

    /// The socket this client is connected to.
    public let socketPath: String
    /// The daemon's `welcome`.
    public let server: ServerInfo

    private let socket: UnixSocket
    private let router: ReplyRouter

    /// Connects to the daemon and says hello.
    ///
    /// `socketPath` defaults to `$TODO_SOCKET`, else `$XDG_RUNTIME_DIR/todo/todod.sock`, else
    /// `/tmp/todo-UID/todod.sock`. `clientName` (`name/version`) appears in the daemon's logs.
    public static func connect(socketPath: String? = nil, clientName: String) async throws(SyncClientError) -> SyncClient {
        let path = SocketPath.resolve(explicit: socketPath, environment: ProcessInfo.processInfo.environment, userID: getuid())
        let socket = try UnixSocket(path: path)
        let router = ReplyRouter()
        FrameReader.start(socket: socket, router: router)
        let welcome: ServerEnvelope
        do {
            welcome = try await request(socket: socket, router: router) { id in
                try RequestEncoder.hello(id: id, client: clientName)
            }
        } catch let error {
            socket.shutDown()
            throw error
        }
        guard welcome.type == "welcome", let name = welcome.server, let version = welcome.version else {
            socket.shutDown()
            throw .protocolViolation("expected welcome, got \(welcome.type)")
        }
        let info = ServerInfo(name: name, protocolVersion: welcome.protocol ?? WireProtocol.version, version: version)
        return SyncClient(socketPath: path, server: info, socket: socket, router: router)
    }

    private init(socketPath: String, server: ServerInfo, socket: UnixSocket, router: ReplyRouter) {
        self.socketPath = socketPath
        self.server = server
        self.socket = socket
        self.router = router
    }

    deinit {
        socket.shutDown()
    }

    /// Dispatches `action` and returns the state version once the daemon applied it. Every
    /// update reflecting that version was delivered to this client's streams before it returns.
    public func dispatch<A: Action>(_ action: A) async throws(SyncClientError) -> UInt64 {
        let reply = try await request { id in
            try RequestEncoder.dispatch(id: id, actionName: A.wireName, payload: action)
        }
        guard reply.type == "ack", let version = reply.version else {
            throw .protocolViolation("expected ack, got \(reply.type)")
        }
        return version
    }

    /// Up to `limit` journaled actions after version `after`, oldest first; without `after`,
    /// the latest `limit` actions.
    public func history(after: UInt64? = nil, limit: Int = 20) async throws(SyncClientError) -> [HistoryEntry] {
        let reply = try await request { id in try RequestEncoder.history(id: id, after: after, limit: limit) }
        guard reply.type == "entries", let entries = reply.entries else {
            throw .protocolViolation("expected entries, got \(reply.type)")
        }
        return entries
    }

    /// Round-trips a `ping`.
    public func ping() async throws(SyncClientError) {
        let reply = try await request { id in try RequestEncoder.ping(id: id) }
        guard reply.type == "pong" else { throw .protocolViolation("expected pong, got \(reply.type)") }
    }

    /// Subscribes to `Model` with `params`. The stream yields the current model at once, then
    /// each new model; a consumer slower than the updates sees the newest model, never a
    /// backlog. Ending the iteration unsubscribes. The stream fails with `SyncClientError`.
    public func subscribe<Model: ViewModel>(_ type: Model.Type, params: Model.Params) -> AsyncThrowingStream<ViewModelUpdate<Model>, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let sink = SubscriptionSink(
                decodeAndYield: { version, payload in
                    do {
                        let model = try WireJSON.decode(UpdateEnvelope<Model>.self, from: payload).model
                        continuation.yield(ViewModelUpdate(version: version, model: model))
                    } catch {
                        continuation.finish(throwing: SyncClientError.protocolViolation("a \(Model.wireName) model that does not decode: \(error)"))
                    }
                },
                finish: { error in continuation.finish(throwing: error) },
                unsubscribe: { [self] subscription in
                    // Possibly on the reader thread, which must never block on a write (the
                    // daemon may be waiting for it to read): stop the updates now, write later.
                    router.removeSink(subscription)
                    Task { sendUnsubscribe(subscription) }
                })
            continuation.onTermination = { _ in sink.consumerDidLeave() }
            switch router.register(.subscription(sink)) {
            case .failure(let reason):
                continuation.finish(throwing: reason)
            case .success(let id):
                do {
                    try write(try RequestEncoder.subscribe(id: id, viewModel: Model.wireName, params: params))
                } catch SyncClientError.connectionClosed {
                    // As in `request`: the reader ends the stream with the daemon's reason.
                } catch {
                    _ = router.cancel(id)
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    /// The current model of `Model` with `params`, once.
    public func get<Model: ViewModel>(_ type: Model.Type, params: Model.Params) async throws(SyncClientError) -> ViewModelUpdate<Model> {
        do {
            for try await update in subscribe(type, params: params) { return update }
        } catch let error as SyncClientError {
            throw error
        } catch {
            throw .protocolViolation(String(describing: error))
        }
        throw .connectionClosed(reason: "the subscription ended before its first model")
    }

    /// Closes the connection; pending requests and streams fail with `.connectionClosed`.
    public func close() {
        router.close(.connectionClosed(reason: "closed by the client"))
        socket.shutDown()
    }

    /// The `SyncClientError` an `error` reply stands for.
    static func error(from reply: ServerEnvelope) -> SyncClientError {
        guard reply.type == "error" else { return .protocolViolation("unexpected \(reply.type)") }
        if reply.code == ErrorCode.unsupportedProtocol.rawValue {
            return .unsupportedProtocol(serverSupports: reply.supported ?? [])
        }
        return .server(code: reply.code ?? "", message: reply.message ?? "the daemon reported an error")
    }

    private func sendUnsubscribe(_ subscription: Int64) {
        guard case .success(let id) = router.register(.discard) else { return }
        do {
            try write(try RequestEncoder.unsubscribe(id: id, subscription: subscription))
        } catch {
            _ = router.cancel(id)
        }
    }

    private func request(_ encode: (Int64) throws -> [UInt8]) async throws(SyncClientError) -> ServerEnvelope {
        try await Self.request(socket: socket, router: router, encode)
    }

    private func write(_ payload: [UInt8]) throws(SyncClientError) {
        try socket.write(FrameEncoder.frame(payload))
    }

    /// Sends one request and waits for its reply; an `error` reply is thrown.
    private static func request(
        socket: UnixSocket, router: ReplyRouter, _ encode: (Int64) throws -> [UInt8]
    ) async throws(SyncClientError) -> ServerEnvelope {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ServerEnvelope, SyncClientError>, Never>) in
            switch router.register(.reply(continuation)) {
            case .failure(let reason):
                continuation.resume(returning: .failure(reason))
            case .success(let id):
                do {
                    try socket.write(FrameEncoder.frame(try encode(id)))
                } catch SyncClientError.connectionClosed {
                    // The daemon closed the connection, maybe after saying why (permission_denied,
                    // bye): the reader reads that, then the end, and fails this request with it.
                } catch {
                    let failure = (error as? SyncClientError) ?? .protocolViolation("cannot encode the request: \(error)")
                    if case .reply(let waiting) = router.cancel(id) { waiting.resume(returning: .failure(failure)) }
                }
            }
        }
        let reply = try result.get()
        if reply.type == "error" { throw error(from: reply) }
        return reply
    }
}
