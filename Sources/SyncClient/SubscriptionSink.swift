import SyncLock
import SyncProtocol

/// The receiving end of one subscription: decodes updates into its stream (applying patches to
/// the last model), knows its subscription id on the current connection, and can subscribe
/// again on a new one.
final class SubscriptionSink: Sendable {
    private struct Progress {
        /// The daemon's id for this subscription, and the generation of the connection it
        /// belongs to (ids are per connection).
        var subscription: (id: Int64, generation: Int)?
        var cancelled = false
        /// The newest version delivered: a resubscription's first model is skipped when the
        /// state did not change while the client was away.
        var deliveredVersion: UInt64?
        /// The last model received and its version: what the next patch applies to. Kept as
        /// the update's bytes until a patch needs it as a JSON value, so that whole models cost
        /// one decoding, as without patches.
        var document: (version: UInt64, model: HeldModel)?
        /// Patches in a row that did not apply; past a few the stream fails rather than
        /// subscribing again for ever.
        var patchFailures = 0
    }

    /// Patches in a row that may fail (each followed by a new subscription) before the stream
    /// fails with a protocol violation.
    static let patchFailureLimit = 3

    private let progress = Locked(Progress())
    private let yield: @Sendable (UInt64, HeldModel) -> Void
    private let finishStream: @Sendable (SyncClientError?) -> Void
    private let unsubscribe: @Sendable (Int64, Int) -> Void
    private let resubscribe: @Sendable (SubscriptionSink, Int64, Int) -> Void
    /// The `subscribe` request for a given request id.
    let encodeSubscribe: @Sendable (Int64) throws -> [UInt8]

    /// A sink feeding a stream through `yield` (the version and the whole model as held: the
    /// stream decodes it as it needs) and `finish`, subscribing with `encodeSubscribe`, sending
    /// `unsubscribe` (subscription id, connection generation) when the stream's consumer goes
    /// away, and calling `resubscribe` with the old subscription id and generation when a
    /// patch does not fit the model it holds.
    init(
        encodeSubscribe: @escaping @Sendable (Int64) throws -> [UInt8],
        yield: @escaping @Sendable (UInt64, HeldModel) -> Void,
        finish: @escaping @Sendable (SyncClientError?) -> Void,
        unsubscribe: @escaping @Sendable (Int64, Int) -> Void,
        resubscribe: @escaping @Sendable (SubscriptionSink, Int64, Int) -> Void
    ) {
        self.encodeSubscribe = encodeSubscribe
        self.yield = yield
        finishStream = finish
        self.unsubscribe = unsubscribe
        self.resubscribe = resubscribe
    }

    /// Whether the consumer left, so the subscription need not be made again.
    var isCancelled: Bool { progress.withLock { $0.cancelled } }

    /// Delivers an `update` of `version`: the whole model, or with `base` a patch to the
    /// model of that version. A patch on another base than the model held, or one that does not
    /// apply, makes the sink subscribe again (the daemon then sends the whole model).
    func deliver(version: UInt64, base: UInt64?, payload: [UInt8]) {
        let outcome = progress.withLock {
            progress -> (deliver: HeldModel?, resubscribeFrom: (id: Int64, generation: Int)?, failed: Bool) in
            do {
                if let base {
                    guard let document = progress.document, document.version == base else {
                        throw SyncClientError.protocolViolation("a patch on version \(base), not on the model held")
                    }
                    let value = try WireJSON.decode(PatchEnvelope.self, from: payload).patch.apply(
                        to: try document.model.value())
                    progress.document = (version, .value(value))
                } else {
                    progress.document = (version, .update(payload))
                }
            } catch {
                progress.document = nil
                progress.patchFailures += 1
                defer { progress.subscription = nil }
                if progress.cancelled { return (nil, nil, false) }
                return (nil, progress.subscription, progress.patchFailures > Self.patchFailureLimit)
            }
            if base != nil { progress.patchFailures = 0 }
            guard progress.deliveredVersion != version else { return (nil, nil, false) }
            progress.deliveredVersion = version
            return (progress.document?.model, nil, false)
        }
        if outcome.failed {
            if let subscription = outcome.resubscribeFrom { unsubscribe(subscription.id, subscription.generation) }
            finish(
                throwing: .protocolViolation(
                    "\(Self.patchFailureLimit + 1) patches in a row did not apply to the model held"))
        } else if let subscription = outcome.resubscribeFrom {
            resubscribe(self, subscription.id, subscription.generation)
        }
        if let model = outcome.deliver { yield(version, model) }
    }

    /// An update's whole model as JSON.
    private struct WholeModel: Codable {
        let model: JSONValue
    }

    /// The model a subscription holds: the payload of the whole update it came in, or the
    /// JSON value a patch left.
    enum HeldModel: Sendable {
        case update([UInt8])
        case value(JSONValue)

        /// The model as an `update` payload (`{"model":…}`), for decoding as the model's type.
        func payload() throws -> [UInt8] {
            switch self {
            case .update(let payload): return payload
            case .value(let value): return try WireJSON.encode(WholeModel(model: value))
            }
        }

        /// The model as a JSON value.
        func value() throws -> JSONValue {
            switch self {
            case .update(let payload): return try WireJSON.decode(WholeModel.self, from: payload).model
            case .value(let value): return value
            }
        }
    }

    /// Ends the stream, with `error` if given.
    func finish(throwing error: SyncClientError?) {
        finishStream(error)
    }

    /// The daemon confirmed the subscription on connection `generation`. If the consumer
    /// already left, unsubscribe now.
    func didSubscribe(_ subscription: Int64, generation: Int) {
        let cancelled = progress.withLock { progress in
            progress.subscription = (subscription, generation)
            return progress.cancelled
        }
        if cancelled { unsubscribe(subscription, generation) }
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
        if let subscription { unsubscribe(subscription.id, subscription.generation) }
    }
}
