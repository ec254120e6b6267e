import SyncLock
import SyncProtocol

/// Routes what the connection thread receives to whoever waits for it: request replies to
/// their continuations, updates to their subscription's sink. It also remembers every request
/// not yet answered, with its frame, so that a new connection can send them again.
/// Thread-safe; the lock is never held during I/O or while a stream or continuation is
/// resumed, and nothing that could be the last owner of a client is released under it.
final class ReplyRouter: Sendable {
    /// Who waits for the reply to a request id.
    enum Waiter: Sendable {
        /// A request waiting for its reply: the envelope, and the whole payload for typed
        /// decoding (a `get`'s model).
        case reply(CheckedContinuation<Result<(envelope: ServerEnvelope, payload: [UInt8]), SyncClientError>, Never>)
        /// A subscribe waiting for `subscribed`; its sink then receives the updates.
        case subscription(SubscriptionSink)
        /// A request whose reply nobody needs (unsubscribe from a finished stream).
        case discard
    }

    private struct Pending {
        let waiter: Waiter
        let frame: [UInt8]
    }

    private struct Routes {
        var nextRequestID: Int64 = 1
        var pending: [Int64: Pending] = [:]
        /// Subscriptions on the current connection, by the daemon's subscription id.
        var sinks: [Int64: SubscriptionSink] = [:]
        /// Subscriptions of a lost connection, to make again on the next one.
        var resubscribing: [SubscriptionSink] = []
        /// Where new requests are written; `nil` while there is no connection.
        var socket: UnixSocket?
        /// A connection still in its handshake, shut down by `close()` so that the handshake
        /// ends at once.
        var connecting: UnixSocket?
        var closedReason: SyncClientError?
        /// The last error not tied to a request: why the daemon is about to close, usually.
        var connectionError: SyncClientError?
        /// How many connections have ended.
        var generation = 0
    }

    private let routes = Locked(Routes())

    /// Reserves a request id for `waiter` and encodes its frame with it. Returns the frame and
    /// the socket to write it to: `nil` while disconnected, when `connectionDidStart` sends it.
    /// A request meant for connection `generation` only (an unsubscribe naming that
    /// connection's subscription id) is not registered at all on any other, nor while there is
    /// none: it returns `nil` then.
    func register(
        _ waiter: Waiter, onlyOn generation: Int? = nil, encode: (Int64) throws -> [UInt8]
    ) throws(SyncClientError) -> (id: Int64, frame: [UInt8], socket: UnixSocket?)? {
        try routes.withLock { routes throws(SyncClientError) in
            if let reason = routes.closedReason { throw reason }
            if let generation, generation != routes.generation || routes.socket == nil { return nil }
            let id = routes.nextRequestID
            let frame: [UInt8]
            do {
                frame = FrameEncoder.frame(try encode(id))
            } catch {
                throw .protocolViolation("cannot encode the request: \(error)")
            }
            routes.nextRequestID += 1
            routes.pending[id] = Pending(waiter: waiter, frame: frame)
            return (id, frame, routes.socket)
        }
    }

    /// The generation of the current connection: how many connections ended before it.
    var generation: Int { routes.withLock { $0.generation } }

    /// Records the connection in its handshake, or clears it (`nil`). Returns `false` when the
    /// client closed meanwhile: the caller then shuts it down.
    func setConnecting(_ socket: UnixSocket?) -> Bool {
        routes.withLock { routes in
            routes.connecting = socket
            return routes.closedReason == nil
        }
    }

    /// Forgets a subscription whose consumer left while it waited to be made again.
    func dropResubscription(_ sink: SubscriptionSink) {
        let dropped = routes.withLock { routes in
            let dropped = routes.resubscribing.filter { $0 === sink }
            routes.resubscribing.removeAll { $0 === sink }
            return dropped
        }
        // Released here, outside the lock: it may hold the last reference to the client.
        _ = dropped
    }

    /// Stops delivering updates of `subscription`.
    func removeSink(_ subscription: Int64) {
        _ = routes.withLock { $0.sinks.removeValue(forKey: subscription) }
    }

    /// Delivers one decoded server message; `payload` is the whole frame for typed decoding.
    func route(_ envelope: ServerEnvelope, payload: [UInt8]) throws(SyncClientError) {
        // A daemon error not tied to a request explains the end of the connection only if
        // nothing else follows it: every other message clears it, in the lock it takes anyway.
        if envelope.type == "update" {
            guard let subscription = envelope.subscription, let version = envelope.version else {
                throw .protocolViolation("an update without subscription or version")
            }
            let sink = routes.withLock { routes in
                routes.connectionError = nil
                return routes.sinks[subscription]
            }
            sink?.deliver(version: version, base: envelope.base, payload: payload)
            return
        }
        guard let id = envelope.id else {
            if envelope.type == "bye" {
                let reason = SyncClientError.connectionClosed(
                    reason: "the daemon said bye: \(envelope.reason ?? "no reason given")")
                routes.withLock { $0.connectionError = reason }
                return
            }
            guard envelope.type == "error" else {
                throw .protocolViolation("a \"\(envelope.type)\" message without an id")
            }
            // Not tied to a request. Some such errors are followed by a close; if so, that is
            // the reason the requests still waiting will hear.
            let error = SyncClientError.server(
                code: envelope.code ?? "", message: envelope.message ?? "the daemon reported an error")
            routes.withLock { $0.connectionError = error }
            return
        }
        let (waiter, generation) = routes.withLock { routes -> (Waiter?, Int) in
            routes.connectionError = nil
            let waiter = routes.pending.removeValue(forKey: id)?.waiter
            if case .subscription(let sink) = waiter, envelope.type == "subscribed",
                let subscription = envelope.subscription
            {
                routes.sinks[subscription] = sink
            }
            return (waiter, routes.generation)
        }
        switch waiter {
        case .reply(let continuation):
            continuation.resume(returning: .success((envelope, payload)))
        case .subscription(let sink):
            if envelope.type == "subscribed", let subscription = envelope.subscription {
                sink.didSubscribe(subscription, generation: generation)
            } else {
                sink.finish(throwing: SyncClient.error(from: envelope))
            }
        case .discard, nil:
            break
        }
    }

    /// The connection ended and another will be made: new requests wait, unsubscribes are
    /// moot, and subscriptions will be made again. Returns why it ended, as far as known, and
    /// the generation of the next connection.
    func connectionDidEnd(_ reason: SyncClientError) -> (reason: SyncClientError, generation: Int) {
        let (sinks, reason) = routes.withLock { routes in
            routes.socket = nil
            routes.pending = routes.pending.filter { if case .discard = $0.value.waiter { false } else { true } }
            let sinks = Array(routes.sinks.values)
            routes.resubscribing.append(contentsOf: sinks)
            routes.sinks.removeAll()
            let reason = routes.connectionError ?? reason
            routes.connectionError = nil
            routes.generation += 1
            return (sinks, (reason, routes.generation))
        }
        for sink in sinks { sink.connectionDidEnd() }
        return reason
    }

    /// A new connection on `socket`, the `generation`th, completed its handshake. Returns the
    /// frames to send on it first: a subscribe for each subscription of the lost connection,
    /// then every request still unanswered, oldest first (so that the ack of a resent dispatch
    /// comes after the models it promises). New requests go to `socket` from now on, so the
    /// caller must hold the client's send lock until these frames are written. Returns `nil`
    /// when the client closed or that connection already ended.
    func connectionDidStart(_ socket: UnixSocket, generation: Int) -> [[UInt8]]? {
        let (frames, released, failed) = routes.withLock {
            routes -> ([[UInt8]]?, [SubscriptionSink], [SubscriptionSink]) in
            guard routes.closedReason == nil, routes.generation == generation else { return (nil, [], []) }
            let pending = routes.pending.sorted { $0.key < $1.key }.map(\.value.frame)
            let released = routes.resubscribing
            routes.resubscribing.removeAll()
            var frames: [[UInt8]] = []
            var failed: [SubscriptionSink] = []
            for sink in released where !sink.isCancelled {
                let id = routes.nextRequestID
                guard let frame = try? FrameEncoder.frame(sink.encodeSubscribe(id)) else {
                    failed.append(sink)
                    continue
                }
                routes.nextRequestID += 1
                routes.pending[id] = Pending(waiter: .subscription(sink), frame: frame)
                frames.append(frame)
            }
            routes.socket = socket
            routes.connecting = nil
            return (frames + pending, released, failed)
        }
        for sink in failed { sink.finish(throwing: .protocolViolation("cannot encode the subscribe request again")) }
        // Released here, outside the lock: a cancelled subscription may hold the last
        // reference to the client.
        _ = released
        return frames
    }

    /// Fails everything still waiting and refuses new requests, with `reason`, or with the
    /// daemon's last error not tied to a request when the connection simply ended.
    func close(_ reason: SyncClientError) {
        let (waiters, sinks, reason, socket) = routes.withLock { routes in
            if routes.closedReason == nil {
                if case .connectionClosed = reason, let error = routes.connectionError {
                    routes.closedReason = error
                } else {
                    routes.closedReason = reason
                }
            }
            let reason = routes.closedReason!
            defer {
                routes.connecting = nil
                routes.pending.removeAll()
                routes.sinks.removeAll()
                routes.resubscribing.removeAll()
                routes.socket = nil
            }
            return (
                routes.pending.values.map(\.waiter), Array(routes.sinks.values) + routes.resubscribing, reason,
                routes.socket ?? routes.connecting
            )
        }
        socket?.shutDown()
        for waiter in waiters {
            switch waiter {
            case .reply(let continuation): continuation.resume(returning: .failure(reason))
            case .subscription(let sink): sink.finish(throwing: reason)
            case .discard: break
            }
        }
        for sink in sinks { sink.finish(throwing: reason) }
    }

    /// Why the client is closed, or `nil` while it is open.
    var closedReason: SyncClientError? { routes.withLock { $0.closedReason } }
}
