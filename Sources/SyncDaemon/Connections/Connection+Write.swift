import CUV
import SyncProtocol

/// Writing, the last step of one dispatch's path: replies and updates queued in the
/// `OutboundQueue` during the pass, then one `uv_write` per connection at its end (a write in
/// flight takes the rest when it completes).
extension Connection {
    /// Queues `message` as a framed reply.
    func send(_ message: ServerMessage) {
        enqueue(FrameEncoder.frame(message.encoded()))
    }

    /// Queues a framed reply; it goes out with everything else queued in this loop pass.
    func enqueue(_ frame: [UInt8]) {
        guard machine.isOpen else { return }
        outbound.append(frame)
        didEnqueue()
    }

    /// Queues `change` as the update of `subscription` at `version`; past the soft limit it
    /// coalesces with a pending one, and a whole model is encoded only once the socket can take
    /// it (see `OutboundQueue`). Returns whether the subscription is stale: the delegate will
    /// be asked for its newest model when the socket drains.
    @discardableResult
    func enqueueUpdate(_ change: ViewChange, subscription: Int64, version: UInt64) -> Bool {
        guard machine.isOpen else { return false }
        let outcome = outbound.appendUpdate(
            change, subscription: subscription, version: version, writingByteCount: inFlight?.count ?? 0)
        if outcome != .absorbed { didEnqueue() }
        return outcome.isStale
    }

    /// Writes what is queued, unless a write is already in flight (its callback writes the rest).
    func flush() {
        guard machine.beginFlush(), inFlight == nil else { return }
        let drained = outbound.drain { subscription in delegate?.connection(self, newestModelOf: subscription) }
        guard let buffer = drained else {
            perform(machine.didFlush(wroteNothing: true, queuedByteCount: queuedByteCount))
            return
        }
        inFlight = buffer
        var descriptor = uv_buf_init(buffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(buffer.count))
        let result = uv_write(writeRequest, pipe.stream, &descriptor, 1, Self.onWrite)
        if result < 0 {
            releaseInFlight()
            perform(machine.close(.failure(of: .write, status: result)))
            return
        }
        perform(machine.didFlush(wroteNothing: false, queuedByteCount: queuedByteCount))
    }

    /// Bytes queued or being written.
    var queuedByteCount: Int { outbound.pendingByteCount + (inFlight?.count ?? 0) }

    /// Tells the machine how much is queued: it may ask for a flush, pause reading or close.
    fileprivate func didEnqueue() {
        perform(machine.didQueue(replyByteCount: outbound.pendingReplyByteCount, queuedByteCount: queuedByteCount))
    }

    private func releaseInFlight() {
        inFlight?.deallocate()
        inFlight = nil
    }

    /// The write in flight ended: write the rest, or close on an error.
    fileprivate func didWrite(status: Int32) {
        releaseInFlight()
        // ECANCELED comes only from the connection's own uv_close, after which closing is a no-op.
        if status < 0 {
            perform(machine.close(.failure(of: .write, status: status)))
            return
        }
        flush()
    }

    /// A write of this connection ended.
    static let onWrite: uv_write_cb = { request, status in
        Unmanaged<Connection>.fromOpaque(request!.pointee.data!).takeUnretainedValue().didWrite(status: status)
    }
}
