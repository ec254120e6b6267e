import SyncLock
import SyncProtocol

/// Routes what the reader thread receives to whoever waits for it: request replies to their
/// continuations, updates to their subscription's sink. Thread-safe; the lock is never held
/// while user code or I/O runs.
final class ReplyRouter: Sendable {
    /// Who waits for the reply to a request id.
    enum Waiter: Sendable {
        /// A request waiting for its reply envelope.
        case reply(CheckedContinuation<Result<ServerEnvelope, SyncClientError>, Never>)
        /// A subscribe waiting for `subscribed`; its sink then receives the updates.
        case subscription(SubscriptionSink)
        /// A request whose reply nobody needs (unsubscribe from a finished stream).
        case discard
    }

    private struct Routes {
        var nextRequestID: Int64 = 1
        var waiters: [Int64: Waiter] = [:]
        var sinks: [Int64: SubscriptionSink] = [:]
        var closedReason: SyncClientError?
        /// The last error not tied to a request: why the daemon is about to close, usually.
        var connectionError: SyncClientError?
    }

    private let routes = Locked(Routes())

    /// Reserves a request id for `waiter`, or returns why the connection is closed.
    func register(_ waiter: Waiter) -> Result<Int64, SyncClientError> {
        routes.withLock { routes in
            if let reason = routes.closedReason { return .failure(reason) }
            let id = routes.nextRequestID
            routes.nextRequestID += 1
            routes.waiters[id] = waiter
            return .success(id)
        }
    }

    /// Forgets the waiter of request `id` (its request could not be written).
    func cancel(_ id: Int64) -> Waiter? {
        routes.withLock { $0.waiters.removeValue(forKey: id) }
    }

    /// Stops delivering updates of `subscription`.
    func removeSink(_ subscription: Int64) {
        _ = routes.withLock { $0.sinks.removeValue(forKey: subscription) }
    }

    /// Delivers one decoded server message; `payload` is the whole frame for typed decoding.
    func route(_ envelope: ServerEnvelope, payload: [UInt8]) throws(SyncClientError) {
        if envelope.type == "update" {
            guard let subscription = envelope.subscription, let version = envelope.version else {
                throw .protocolViolation("an update without subscription or version")
            }
            routes.withLock { $0.sinks[subscription] }?.deliver(version: version, payload: payload)
            return
        }
        guard let id = envelope.id else {
            if envelope.type == "bye" {
                let reason = SyncClientError.connectionClosed(reason: "the daemon said bye: \(envelope.reason ?? "no reason given")")
                routes.withLock { $0.connectionError = reason }
                return
            }
            guard envelope.type == "error" else { throw .protocolViolation("a \"\(envelope.type)\" message without an id") }
            // Not tied to a request. Some such errors are followed by a close; if so, that is
            // the reason the requests still waiting will hear.
            let error = SyncClientError.server(code: envelope.code ?? "", message: envelope.message ?? "the daemon reported an error")
            routes.withLock { $0.connectionError = error }
            return
        }
        let waiter = routes.withLock { routes -> Waiter? in
            let waiter = routes.waiters.removeValue(forKey: id)
            if case .subscription(let sink) = waiter, envelope.type == "subscribed", let subscription = envelope.subscription {
                routes.sinks[subscription] = sink
            }
            return waiter
        }
        switch waiter {
        case .reply(let continuation):
            continuation.resume(returning: .success(envelope))
        case .subscription(let sink):
            if envelope.type == "subscribed", let subscription = envelope.subscription {
                sink.didSubscribe(subscription)
            } else {
                sink.finish(throwing: SyncClient.error(from: envelope))
            }
        case .discard, nil:
            break
        }
    }

    /// Fails everything still waiting and refuses new requests, with `reason`, or with the
    /// daemon's last error not tied to a request when the connection simply ended.
    func close(_ reason: SyncClientError) {
        let (waiters, sinks, reason) = routes.withLock { routes in
            if routes.closedReason == nil {
                if case .connectionClosed = reason, let error = routes.connectionError {
                    routes.closedReason = error
                } else {
                    routes.closedReason = reason
                }
            }
            let reason = routes.closedReason!
            defer {
                routes.waiters.removeAll()
                routes.sinks.removeAll()
            }
            return (Array(routes.waiters.values), Array(routes.sinks.values), reason)
        }
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

/// The receiving end of one subscription: decodes updates into its stream and knows its
/// subscription id once the daemon assigned it.
final class SubscriptionSink: Sendable {
    private struct Progress {
        var subscription: Int64?
        var cancelled = false
    }

    private let progress = Locked(Progress())
    private let decodeAndYield: @Sendable (UInt64, [UInt8]) -> Void
    private let finishStream: @Sendable (SyncClientError?) -> Void
    private let unsubscribe: @Sendable (Int64) -> Void

    /// A sink feeding a stream through `decodeAndYield` and `finish`, and sending `unsubscribe`
    /// when the stream's consumer goes away.
    init(
        decodeAndYield: @escaping @Sendable (UInt64, [UInt8]) -> Void,
        finish: @escaping @Sendable (SyncClientError?) -> Void,
        unsubscribe: @escaping @Sendable (Int64) -> Void
    ) {
        self.decodeAndYield = decodeAndYield
        finishStream = finish
        self.unsubscribe = unsubscribe
    }

    func deliver(version: UInt64, payload: [UInt8]) {
        decodeAndYield(version, payload)
    }

    func finish(throwing error: SyncClientError?) {
        finishStream(error)
    }

    /// The daemon confirmed the subscription. If the consumer already left, unsubscribe now.
    func didSubscribe(_ subscription: Int64) {
        let cancelled = progress.withLock { progress in
            progress.subscription = subscription
            return progress.cancelled
        }
        if cancelled { unsubscribe(subscription) }
    }

    /// The consumer stopped iterating: unsubscribe, now or as soon as the id is known.
    func consumerDidLeave() {
        let subscription = progress.withLock { progress in
            progress.cancelled = true
            return progress.subscription
        }
        if let subscription { unsubscribe(subscription) }
    }
}
