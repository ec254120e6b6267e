import SyncLock
import SyncProtocol

/// Routes what the connection thread receives to whoever waits for it: request replies to
/// their continuations, updates to their subscription's sink. It also remembers every request
/// not yet answered, with its frame, so that a new connection can send them again.
/// It holds the connection's `ConnectionState.Machine` too, under the same lock, applies its
/// transitions for the connection thread and `close()`, and publishes each new state.
/// Thread-safe; the lock is never held during I/O or while a stream or continuation is
/// resumed, and nothing that could be the last owner of a client is released under it.
final class ReplyRouter: Sendable {
    /// Who waits for the reply to a request id.
    enum Waiter: Sendable {
        /// A request waiting for its reply: the message, and the whole payload for typed
        /// decoding (a `get`'s model).
        case reply(CheckedContinuation<Result<(reply: ServerReply, payload: [UInt8]), SyncClientError>, Never>)
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
        /// The connection's state: new requests are written to its serving connection.
        var machine: ConnectionState.Machine<UnixSocket>
    }

    private let routes: Locked<Routes>
    /// Where every new state of the machine is published.
    let states = ConnectionStateBroadcaster()

    /// A router whose connection is made again when lost if `reconnects`.
    init(reconnects: Bool) {
        routes = Locked(Routes(machine: ConnectionState.Machine(reconnects: reconnects)))
    }

    /// Reserves a request id for `waiter` and encodes its frame with it. Returns the frame and
    /// the socket to write it to: `nil` while disconnected, when `connectionDidStart` sends it.
    /// A request meant for connection `generation` only (an unsubscribe naming that
    /// connection's subscription id) is not registered at all on any other, nor while there is
    /// none: it returns `nil` then.
    func register(
        _ waiter: Waiter, onlyOn generation: Int? = nil, encode: (Int64) throws -> [UInt8]
    ) throws(SyncClientError) -> (id: Int64, frame: [UInt8], socket: UnixSocket?)? {
        try routes.withLock { routes throws(SyncClientError) in
            if let reason = routes.machine.closedReason { throw reason }
            let socket = routes.machine.servingConnection
            if let generation, generation != routes.machine.generation || socket == nil { return nil }
            let id = routes.nextRequestID
            let frame: [UInt8]
            do {
                frame = FrameEncoder.frame(try encode(id))
            } catch {
                throw .protocolViolation("cannot encode the request: \(error)")
            }
            routes.nextRequestID += 1
            routes.pending[id] = Pending(waiter: waiter, frame: frame)
            return (id, frame, socket)
        }
    }

    /// The generation of the current connection: how many connections ended before it.
    var generation: Int { routes.withLock { $0.machine.generation } }

    /// The socket of the attempt under way is open (`close()` shuts it down from now on).
    /// Returns `false` when the client closed meanwhile: the caller then shuts it down.
    func connectionOpened(_ socket: UnixSocket) -> Bool {
        routes.withLock { $0.machine.opened(socket) }
    }

    /// The attempt under way failed with `error`. Returns the next attempt to wait for, or
    /// `nil` when the client is closed now (everything waiting failed with `error`).
    func attemptFailed(_ error: SyncClientError) -> Int? {
        let next = transition { $0.attemptFailed(error) }
        if next == nil { failEverything() }
        return next
    }

    /// The backoff passed: the due attempt starts. `false` when the client closed meanwhile.
    func retry() -> Bool {
        transition { $0.retry() }
    }

    /// The reconnect policy's time ran out after `limit`: everything waiting fails.
    func giveUp(after limit: Duration) {
        transition { $0.giveUp(after: limit) }
        failEverything()
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
    func route(_ reply: ServerReply, payload: [UInt8]) throws(SyncClientError) {
        // A daemon error not tied to a request explains the end of the connection only if
        // nothing else follows it: every other message clears it, in the lock it takes anyway.
        switch reply {
        case .update(let subscription, let version, let base):
            let sink = routes.withLock { routes in
                routes.machine.daemonSpoke()
                return routes.sinks[subscription]
            }
            sink?.deliver(version: version, base: base, payload: payload)
            return
        case .bye(let reason):
            routes.withLock { $0.machine.daemonReported(.connectionClosed(.daemonSaidBye(reason: reason))) }
            return
        case .error(let error) where error.id == nil:
            // Not tied to a request. Some such errors are followed by a close; if so, that is
            // the reason the requests still waiting will hear.
            routes.withLock { $0.machine.daemonReported(SyncClient.error(from: error)) }
            return
        default:
            break
        }
        guard let id = reply.requestID else { return }
        let (waiter, generation) = routes.withLock { routes -> (Waiter?, Int) in
            routes.machine.daemonSpoke()
            let waiter = routes.pending.removeValue(forKey: id)?.waiter
            if case .subscription(let sink) = waiter, case .subscribed(_, let subscription) = reply {
                routes.sinks[subscription] = sink
            }
            return (waiter, routes.machine.generation)
        }
        switch waiter {
        case .reply(let continuation):
            continuation.resume(returning: .success((reply, payload)))
        case .subscription(let sink):
            switch reply {
            case .subscribed(_, let subscription): sink.didSubscribe(subscription, generation: generation)
            case .error(let error): sink.finish(throwing: SyncClient.error(from: error))
            default: sink.finish(throwing: .protocolViolation("expected subscribed, got \(reply.typeName)"))
            }
        case .discard, nil:
            break
        }
    }

    /// The handshaken connection ended with `error`. If another will be made, new requests
    /// wait, unsubscribes are moot and subscriptions will be made again; returns the attempt to
    /// wait for. Returns `nil` when the client is closed now (everything waiting failed).
    func connectionDidEnd(_ error: SyncClientError) -> Int? {
        let (next, sinks) = routes.withLock { routes -> (Int?, [SubscriptionSink]) in
            let next = routes.machine.lost(error)
            routes.pending = routes.pending.filter { if case .discard = $0.value.waiter { false } else { true } }
            let sinks = Array(routes.sinks.values)
            routes.resubscribing.append(contentsOf: sinks)
            routes.sinks.removeAll()
            return (next, sinks)
        }
        publish()
        for sink in sinks { sink.connectionDidEnd() }
        if next == nil { failEverything() }
        return next
    }

    /// The daemon welcomed the attempt under way at `version`. Returns its socket and the
    /// frames to send on it first: a subscribe for each subscription of the lost connection,
    /// then every request still unanswered, oldest first (so that the ack of a resent dispatch
    /// comes after the models it promises). New requests go to the socket from now on, so the
    /// caller must hold the client's send lock until these frames are written. Returns `nil`
    /// when the client closed meanwhile.
    func connectionDidStart(version: UInt64) -> (socket: UnixSocket, frames: [[UInt8]])? {
        let (started, released, failed) = routes.withLock {
            routes -> ((UnixSocket, [[UInt8]])?, [SubscriptionSink], [SubscriptionSink]) in
            guard let socket = routes.machine.welcomed(version: version) else { return (nil, [], []) }
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
            return ((socket, frames + pending), released, failed)
        }
        publish()
        for sink in failed { sink.finish(throwing: .protocolViolation("cannot encode the subscribe request again")) }
        // Released here, outside the lock: a cancelled subscription may hold the last
        // reference to the client.
        _ = released
        return started
    }

    /// Closes the client for good with `reason` (or with the daemon's last error not tied to
    /// a request, when the connection simply ended): watchers hear `.closed`, the connection is
    /// shut down, everything still waiting fails and new requests are refused.
    func close(_ reason: SyncClientError) {
        let (_, socket) = transition { $0.close(reason) }
        socket?.shutDown()
        failEverything()
    }

    /// Why the client is closed, or `nil` while it is open.
    var closedReason: SyncClientError? { routes.withLock { $0.machine.closedReason } }

    /// Applies `change` to the machine and publishes the state it leads to.
    @discardableResult
    private func transition<Result>(_ change: (inout ConnectionState.Machine<UnixSocket>) -> Result) -> Result {
        let result = routes.withLock { change(&$0.machine) }
        publish()
        return result
    }

    /// Publishes the machine's state (the broadcaster drops repeats and anything after `.closed`).
    private func publish() {
        if let state = routes.withLock({ $0.machine.published }) { states.publish(state) }
    }

    /// Once closed: fails everything still waiting with the closed reason.
    private func failEverything() {
        let (waiters, sinks, reason) = routes.withLock {
            routes -> ([Waiter], [SubscriptionSink], SyncClientError?) in
            guard let reason = routes.machine.closedReason else { return ([], [], nil) }
            defer {
                routes.pending.removeAll()
                routes.sinks.removeAll()
                routes.resubscribing.removeAll()
            }
            return (routes.pending.values.map(\.waiter), Array(routes.sinks.values) + routes.resubscribing, reason)
        }
        guard let reason else { return }
        for waiter in waiters {
            switch waiter {
            case .reply(let continuation): continuation.resume(returning: .failure(reason))
            case .subscription(let sink): sink.finish(throwing: reason)
            case .discard: break
            }
        }
        for sink in sinks { sink.finish(throwing: reason) }
    }
}
