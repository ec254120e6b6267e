import SyncProtocol

/// The bytes waiting to be written to one client, with the rules that keep them bounded and
/// make a client that stops reading cost the daemon no work per version.
///
/// Below `coalescingThreshold` unwritten bytes every frame is kept, in order. Past it, updates
/// of a subscription coalesce, since a view model is a snapshot and only the newest matters:
///
/// - A whole model is not encoded while the client has more than the threshold unwritten
///   (queued, or in the write in flight). Its place in the queue holds a *newest model* slot,
///   filled with the subscription's newest model when the queue is drained, which is when the
///   socket has taken everything written before it (as tmux redraws a client once it becomes
///   writable). Until then the subscription is stale: each later update of it is absorbed by
///   that slot, for the cost of a dictionary lookup.
/// - A patch is queued as it is, unless its subscription already has an update queued and
///   the queue itself holds more than the threshold: that update then becomes the newest model
///   slot. A patch only applies after the update it would replace, so the replacement is
///   always the whole model.
///
/// A slot keeps the place of the update it replaced and later updates never go behind it, so
/// an update reflecting version V is still written before the ack carrying V: the model a slot
/// is filled with is at least as new as every ack queued after it.
///
/// ```
///  queued:  [ack 7][update s1 v8: 300 KB][pong][ack 8]   past the threshold, s1's v9 arrives:
///  queued:  [ack 7][newest model of s1  ][pong][ack 8]   (v10, v11, ... absorbed, nothing encoded)
///  drained: [ack 7][update s1 v11, encoded now][pong][ack 8]
/// ```
struct OutboundQueue {
    /// Unwritten bytes past which updates for the same subscription are coalesced.
    let coalescingThreshold: Int

    /// What `appendUpdate` did with an update.
    enum UpdateOutcome: Equatable {
        /// Queued as a frame of its own.
        case queued
        /// Queued as a new newest-model slot: the subscription is stale, and the queue has a
        /// new place to fill when it drains.
        case deferred
        /// Absorbed by the subscription's newest-model slot, or turned its pending update
        /// into one: the subscription is stale, and there is nothing new to write.
        case absorbed

        /// Whether the subscription now waits for its newest model.
        var isStale: Bool { self != .queued }
    }

    private enum Frame {
        /// A frame ready to be written.
        case bytes([UInt8])
        /// The newest model of a subscription, encoded and framed when the queue is drained.
        case newestModel(subscription: Int64)
    }

    private var frames: [Frame] = []
    /// Acks queued after the last of `frames`, their frames concatenated in one buffer: a pass's
    /// acks make no array each. A drain keeps its capacity (up to `keptAckCapacity`) for the
    /// next pass's acks; a frame queued after acks takes the buffer with it, and the next acks
    /// start a new one.
    private var trailingAcks: [UInt8] = []
    /// For each subscription with an update in `frames`, the index of its last one.
    private var pendingUpdateSlots: [Int64: Int] = [:]
    /// How many of `frames` are newest-model slots.
    private var newestModelSlotCount = 0
    /// Bytes queued and not yet handed to a write (newest-model slots count for nothing until
    /// they are filled).
    private(set) var pendingByteCount = 0
    /// The part of `pendingByteCount` that is replies (everything but updates): the part that
    /// coalescing cannot bound, so the part the hard limit watches.
    private(set) var pendingReplyByteCount = 0

    /// An empty queue that coalesces past `coalescingThreshold` unwritten bytes.
    init(coalescingThreshold: Int) {
        self.coalescingThreshold = coalescingThreshold
    }

    /// The most capacity the acks' buffer keeps after a drain: a pass of acks on a pipelining
    /// connection takes a few KiB, and an idle connection keeps no more than it needed.
    static let keptAckCapacity = 16 << 10

    /// Queues a reply or error.
    mutating func append(_ reply: ServerMessage) {
        guard case .ack = reply else { return append(reply.framed()) }
        let before = trailingAcks.count
        reply.appendFramed(to: &trailingAcks)
        pendingByteCount += trailingAcks.count - before
        pendingReplyByteCount += trailingAcks.count - before
    }

    /// Queues a framed reply or error.
    mutating func append(_ frame: [UInt8]) {
        closeTrailingAcks()
        frames.append(.bytes(frame))
        pendingByteCount += frame.count
        pendingReplyByteCount += frame.count
    }

    /// Queues `change` as the update of `subscription` at `version`, by the rules above;
    /// `writingByteCount` is the size of the write in flight, unwritten too.
    mutating func appendUpdate(_ change: ViewChange, subscription: Int64, version: UInt64, writingByteCount: Int)
        -> UpdateOutcome
    {
        let slot = pendingUpdateSlots[subscription]
        if let slot, case .newestModel = frames[slot] { return .absorbed }
        if let patch = change.patch {
            if let slot, pendingByteCount > coalescingThreshold {
                makeNewestModel(slot, subscription: subscription)
                return .absorbed
            }
            appendUpdate(
                ServerMessage.patch(subscription: subscription, version: version, base: change.base, patch: patch)
                    .framed(), subscription: subscription)
            return .queued
        }
        if pendingByteCount + writingByteCount > coalescingThreshold {
            if let slot {
                makeNewestModel(slot, subscription: subscription)
                return .absorbed
            }
            closeTrailingAcks()
            pendingUpdateSlots[subscription] = frames.count
            frames.append(.newestModel(subscription: subscription))
            newestModelSlotCount += 1
            return .deferred
        }
        appendUpdate(
            ServerMessage.update(subscription: subscription, version: version, model: change.model.bytes).framed(),
            subscription: subscription)
        return .queued
    }

    /// Moves every pending frame, concatenated in order, into a new buffer the caller must
    /// deallocate (after its write completes), leaving the queue empty; `nil` when there is
    /// nothing to write. Each newest-model slot is filled with what `newestModel` gives for its
    /// subscription (the version and the encoded model), or dropped when it gives `nil` (the
    /// subscription is gone).
    mutating func drain(newestModel: (Int64) -> (version: UInt64, model: [UInt8])?) -> UnsafeMutableRawBufferPointer? {
        if newestModelSlotCount > 0 { fillNewestModelSlots(newestModel) }
        defer {
            frames.removeAll(keepingCapacity: true)
            trailingAcks.removeAll(keepingCapacity: trailingAcks.capacity <= Self.keptAckCapacity)
            pendingUpdateSlots.removeAll(keepingCapacity: true)
            pendingByteCount = 0
            pendingReplyByteCount = 0
        }
        guard pendingByteCount > 0 else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pendingByteCount, alignment: 1)
        var offset = 0
        for case .bytes(let frame) in frames {
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyBytes(from: frame)
            offset += frame.count
        }
        UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyBytes(from: trailingAcks)
        return buffer
    }

    /// Moves the acks queued since the last frame into a frame of their own, so that what is
    /// queued next goes after them.
    private mutating func closeTrailingAcks() {
        guard !trailingAcks.isEmpty else { return }
        frames.append(.bytes(trailingAcks))
        trailingAcks = []
    }

    private mutating func appendUpdate(_ frame: [UInt8], subscription: Int64) {
        closeTrailingAcks()
        pendingUpdateSlots[subscription] = frames.count
        frames.append(.bytes(frame))
        pendingByteCount += frame.count
    }

    /// Turns the update at `slot` into the newest model of `subscription`, dropping its bytes.
    private mutating func makeNewestModel(_ slot: Int, subscription: Int64) {
        if case .bytes(let frame) = frames[slot] { pendingByteCount -= frame.count }
        frames[slot] = .newestModel(subscription: subscription)
        newestModelSlotCount += 1
    }

    private mutating func fillNewestModelSlots(_ newestModel: (Int64) -> (version: UInt64, model: [UInt8])?) {
        for index in frames.indices {
            guard case .newestModel(let subscription) = frames[index] else { continue }
            let frame =
                newestModel(subscription).map {
                    ServerMessage.update(subscription: subscription, version: $0.version, model: $0.model).framed()
                } ?? []
            frames[index] = .bytes(frame)
            pendingByteCount += frame.count
        }
        newestModelSlotCount = 0
    }
}
