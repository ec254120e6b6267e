import SyncLock

/// The receiving end of one subscription: decodes updates into its stream, knows its
/// subscription id on the current connection, and can subscribe again on a new one.
final class SubscriptionSink: Sendable {
    private struct Progress {
        /// The daemon's id for this subscription on the current connection.
        var subscription: Int64?
        var cancelled = false
        /// The newest version delivered: a resubscription's first model is skipped when the
        /// state did not change while the client was away.
        var deliveredVersion: UInt64?
    }

    private let progress = Locked(Progress())
    private let decodeAndYield: @Sendable (UInt64, [UInt8]) -> Void
    private let finishStream: @Sendable (SyncClientError?) -> Void
    private let unsubscribe: @Sendable (Int64) -> Void
    /// The `subscribe` request for a given request id.
    let encodeSubscribe: @Sendable (Int64) throws -> [UInt8]

    /// A sink feeding a stream through `decodeAndYield` and `finish`, subscribing with
    /// `encodeSubscribe`, and sending `unsubscribe` when the stream's consumer goes away.
    init(
        encodeSubscribe: @escaping @Sendable (Int64) throws -> [UInt8],
        decodeAndYield: @escaping @Sendable (UInt64, [UInt8]) -> Void,
        finish: @escaping @Sendable (SyncClientError?) -> Void,
        unsubscribe: @escaping @Sendable (Int64) -> Void
    ) {
        self.encodeSubscribe = encodeSubscribe
        self.decodeAndYield = decodeAndYield
        finishStream = finish
        self.unsubscribe = unsubscribe
    }

    /// Whether the consumer left, so the subscription need not be made again.
    var isCancelled: Bool { progress.withLock { $0.cancelled } }

    func deliver(version: UInt64, payload: [UInt8]) {
        let isNew = progress.withLock { progress in
            guard progress.deliveredVersion != version else { return false }
            progress.deliveredVersion = version
            return true
        }
        if isNew { decodeAndYield(version, payload) }
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

    /// The connection ended: the daemon's id for this subscription means nothing any more.
    func connectionDidEnd() {
        progress.withLock { $0.subscription = nil }
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
