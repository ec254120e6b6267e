/// The bytes waiting to be written to one client, with the rule that keeps them bounded.
///
/// Below `coalescingThreshold` pending bytes every frame is kept, in order. Above it, a new
/// `update` for a subscription that already has one pending replaces that one in place: a view
/// model is a snapshot, so only the newest matters, and keeping the older slot preserves the
/// promise that an update reflecting version V is written before the ack carrying V. A patch
/// only applies after the update it replaces, so the replacement is then the whole model.
struct OutboundQueue {
    /// Pending bytes past which updates for the same subscription are coalesced.
    let coalescingThreshold: Int

    private var frames: [[UInt8]] = []
    private var pendingUpdateSlots: [Int64: Int] = [:]
    /// Bytes queued and not yet handed to a write.
    private(set) var pendingByteCount = 0
    /// The part of `pendingByteCount` that is replies (everything but updates): the part that
    /// coalescing cannot bound, so the part the hard limit watches.
    private(set) var pendingReplyByteCount = 0

    /// An empty queue that coalesces past `coalescingThreshold` pending bytes.
    init(coalescingThreshold: Int) {
        self.coalescingThreshold = coalescingThreshold
    }

    /// Whether nothing is waiting.
    var isEmpty: Bool { frames.isEmpty }

    /// Queues a framed reply or error.
    mutating func append(_ frame: [UInt8]) {
        frames.append(frame)
        pendingByteCount += frame.count
        pendingReplyByteCount += frame.count
    }

    /// Queues a framed update for `subscription`, replacing a pending one when over the
    /// threshold; `wholeModel` gives the frame carrying the whole model for that case, when
    /// `frame` holds a patch.
    mutating func appendUpdate(_ frame: [UInt8], subscription: Int64, wholeModel: () -> [UInt8]) {
        if pendingByteCount > coalescingThreshold, let slot = pendingUpdateSlots[subscription] {
            let replacement = wholeModel()
            pendingByteCount += replacement.count - frames[slot].count
            frames[slot] = replacement
            return
        }
        pendingUpdateSlots[subscription] = frames.count
        frames.append(frame)
        pendingByteCount += frame.count
    }

    /// Moves every pending frame, concatenated in order, into a new buffer the caller must
    /// deallocate (after its write completes), leaving the queue empty.
    mutating func drain() -> UnsafeMutableRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pendingByteCount, alignment: 1)
        var offset = 0
        for frame in frames {
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyBytes(from: frame)
            offset += frame.count
        }
        frames.removeAll(keepingCapacity: true)
        pendingUpdateSlots.removeAll(keepingCapacity: true)
        pendingByteCount = 0
        pendingReplyByteCount = 0
        return buffer
    }
}
