import CUV
import SyncProtocol

/// What a connection reports to whoever serves it. Calls arrive on the loop thread.
protocol ConnectionDelegate: AnyObject {
    /// A complete frame payload arrived.
    func connection(_ connection: Connection, didReceive payload: [UInt8])
    /// The byte stream broke the framing rules; no more frames will be delivered.
    func connection(_ connection: Connection, didBreakFraming error: FrameError)
    /// The client finished sending (it may still read): no more frames will be delivered.
    func connectionReachedEndOfInput(_ connection: Connection)
    /// The connection has queued output and wants a write at the end of this loop pass.
    func connectionNeedsFlush(_ connection: Connection)
    /// The newest model of `subscription` and its version, for an update that was left to be
    /// encoded when the socket could take it; `nil` when the subscription is gone.
    func connection(_ connection: Connection, newestModelOf subscription: Int64) -> (version: UInt64, model: [UInt8])?
    /// The connection is gone, for `reason`. Called exactly once; release everything it held.
    func connectionLost(_ connection: Connection, reason: String)
}

/// One accepted client socket: reads frames in, writes queued bytes out.
///
/// Lifetime: the connection owns its `uv_pipe_t`, whose `data` points back at it. It retains
/// itself when the handle is initialised and releases that reference in the close callback, so
/// it outlives every libuv callback that can name it. Loop-confined: not `Sendable`.
///
/// ```
///  accepted ──read──▶ frames to delegate
///     │  enqueue ──▶ OutboundQueue ──flush()──▶ one uv_write in flight at a time
///     ▼
///  close(reason) ──▶ delegate.connectionLost ──▶ uv_close ──▶ close callback frees memory
/// ```
final class Connection {
    /// Bytes read per `read(2)`, into the loop's one `ReadBuffer`.
    static let readChunkSize = 64 * 1024

    /// Limits on a client's output.
    struct Limits {
        /// Largest frame accepted from the client.
        var maximumFrameLength: Int
        /// Queued bytes past which reading pauses and updates coalesce.
        var softQueueLimit: Int
        /// Unwritten replies (not updates, which coalesce) past which the client is disconnected.
        var hardQueueLimit: Int
    }

    /// A number unique among this daemon's connections, for logs.
    let id: Int
    /// Who is on the other end (SO_PEERCRED at accept), if the kernel said.
    private(set) var peer: (uid: UInt32, gid: UInt32, pid: Int32)?
    weak var delegate: (any ConnectionDelegate)?

    private let limits: Limits
    private let pipe: UnsafeMutablePointer<uv_pipe_t>
    private let writeRequest: UnsafeMutablePointer<uv_write_t>
    /// Shared with the loop's other connections; see `ReadBuffer`.
    private let readBuffer: ReadBuffer
    /// The bytes of the write in flight; they must live until its callback.
    private var inFlight: UnsafeMutableRawBufferPointer?
    private var decoder: FrameDecoder
    private var outbound: OutboundQueue
    private var isReading = false
    /// Set when no more requests will ever be read (end of input, shutdown), whatever the queue.
    private var readingEnded = false
    /// Whether the delegate was already asked for a flush this loop pass.
    private var isFlushScheduled = false
    /// Set once the connection is to close as soon as its queue is written, and why.
    private var closeWhenFlushed: String?
    private(set) var isClosed = false

    /// Initialises the pipe handle on `loop` and accepts the pending client of `server`.
    init(
        id: Int, loop: UnsafeMutablePointer<uv_loop_t>, acceptingFrom server: UnsafeMutablePointer<uv_stream_t>,
        limits: Limits, readBuffer: ReadBuffer
    ) throws(DaemonError) {
        self.id = id
        self.limits = limits
        self.readBuffer = readBuffer
        decoder = FrameDecoder(maximumLength: limits.maximumFrameLength)
        outbound = OutboundQueue(coalescingThreshold: limits.softQueueLimit)
        pipe = .allocate(capacity: 1)
        writeRequest = .allocate(capacity: 1)
        let initialised = uv_pipe_init(loop, pipe, 0)
        guard initialised == 0 else {
            Self.free(pipe: pipe, writeRequest: writeRequest)
            throw .libuv(operation: "uv_pipe_init", subject: "client connection", code: initialised)
        }
        // From here on the handle exists and must go through uv_close; the retained reference
        // is released in the close callback.
        pipe.pointee.data = Unmanaged.passRetained(self).toOpaque()
        writeRequest.pointee.data = pipe.pointee.data
        let accepted = uv_accept(server, cuv_pipe_as_stream(pipe))
        if accepted < 0 {
            isClosed = true
            uv_close(cuv_pipe_as_handle(pipe), Self.onClose)
            throw .libuv(operation: "uv_accept", subject: "client connection", code: accepted)
        }
        var credentials = cuv_peer_credentials()
        if cuv_read_peer_credentials(pipe, &credentials) == 0 {
            peer = (credentials.uid, credentials.gid, credentials.pid)
        }
    }

    /// Starts delivering frames to the delegate.
    func startReading() {
        guard !isClosed, !isReading else { return }
        let result = uv_read_start(cuv_pipe_as_stream(pipe), Self.onAllocate, Self.onRead)
        if result < 0 {
            close(reason: "cannot read: \(String(cString: uv_err_name(result)))")
        } else {
            isReading = true
        }
    }

    /// Queues a framed reply; it goes out with everything else queued in this loop pass.
    func enqueue(_ frame: [UInt8]) {
        guard !isClosed, closeWhenFlushed == nil else { return }
        outbound.append(frame)
        didEnqueue()
    }

    /// Queues `change` as the update of `subscription` at `version`; past the soft limit it
    /// coalesces with a pending one, and a whole model is encoded only once the socket can take
    /// it (see `OutboundQueue`). Returns whether the subscription is stale: the delegate will
    /// be asked for its newest model when the socket drains.
    @discardableResult
    func enqueueUpdate(_ change: ViewChange, subscription: Int64, version: UInt64) -> Bool {
        guard !isClosed, closeWhenFlushed == nil else { return false }
        let outcome = outbound.appendUpdate(
            change, subscription: subscription, version: version, writingByteCount: inFlight?.count ?? 0)
        if outcome != .absorbed { didEnqueue() }
        return outcome.isStale
    }

    /// Writes what is queued, unless a write is already in flight (its callback writes the rest).
    func flush() {
        isFlushScheduled = false
        guard !isClosed, inFlight == nil else { return }
        let drained = outbound.drain { subscription in delegate?.connection(self, newestModelOf: subscription) }
        guard let buffer = drained else {
            if let reason = closeWhenFlushed {
                close(reason: reason)
            } else {
                resumeReadingIfDrained()
            }
            return
        }
        inFlight = buffer
        var descriptor = uv_buf_init(buffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(buffer.count))
        let result = uv_write(writeRequest, cuv_pipe_as_stream(pipe), &descriptor, 1, Self.onWrite)
        if result < 0 {
            releaseInFlight()
            close(reason: Self.reason("write", result))
        }
        resumeReadingIfDrained()
    }

    /// Stops reading, writes what is queued (an error explaining why, typically), then closes.
    func closeAfterFlushing(reason: String = "closed by the server") {
        guard !isClosed, closeWhenFlushed == nil else { return }
        stopReading()
        closeWhenFlushed = reason
        scheduleFlush()
    }

    /// The one disconnect path: EOF, read or write errors, protocol violations, shutdown.
    /// Tells the delegate once, then closes the handle; queued bytes are dropped.
    func close(reason: String) {
        guard !isClosed else { return }
        isClosed = true
        delegate?.connectionLost(self, reason: reason)
        uv_close(cuv_pipe_as_handle(pipe), Self.onClose)
    }

    private var queuedByteCount: Int { outbound.pendingByteCount + (inFlight?.count ?? 0) }

    private func didEnqueue() {
        if outbound.pendingReplyByteCount > limits.hardQueueLimit {
            close(reason: "slow consumer: more than \(limits.hardQueueLimit) bytes of replies unwritten")
            return
        }
        // Backpressure: a client that does not read its replies gets no new requests read.
        if queuedByteCount > limits.softQueueLimit { stopReading() }
        scheduleFlush()
    }

    private func scheduleFlush() {
        guard !isFlushScheduled else { return }
        isFlushScheduled = true
        delegate?.connectionNeedsFlush(self)
    }

    /// Stops delivering frames for good: backpressure will not resume reading.
    func endReading() {
        readingEnded = true
        stopReading()
    }

    /// Stops delivering frames until the queue drains (libuv stops reading the socket).
    private func stopReading() {
        guard isReading else { return }
        uv_read_stop(cuv_pipe_as_stream(pipe))
        isReading = false
    }

    private func resumeReadingIfDrained() {
        if !isReading, !readingEnded, closeWhenFlushed == nil, queuedByteCount <= limits.softQueueLimit / 2 {
            startReading()
        }
    }

    private func releaseInFlight() {
        inFlight?.deallocate()
        inFlight = nil
    }

    private func didRead(_ count: Int) {
        decoder.append(UnsafeRawBufferPointer(rebasing: readBuffer.bytes[..<count]))
        while !isClosed, closeWhenFlushed == nil {
            do {
                guard let payload = try decoder.next() else { return }
                delegate?.connection(self, didReceive: payload)
            } catch {
                stopReading()
                delegate?.connection(self, didBreakFraming: error)
                return
            }
        }
    }

    private func didWrite(status: Int32) {
        releaseInFlight()
        if status < 0 {
            close(reason: status == UV_ECANCELED.rawValue ? "closed" : Self.reason("write", status))
            return
        }
        flush()
    }

    private static func free(pipe: UnsafeMutablePointer<uv_pipe_t>, writeRequest: UnsafeMutablePointer<uv_write_t>) {
        pipe.deallocate()
        writeRequest.deallocate()
    }

    private static func owner(_ data: UnsafeMutableRawPointer?) -> Connection {
        Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let onAllocate: uv_alloc_cb = { handle, _, buffer in
        let connection = owner(handle!.pointee.data)
        let bytes = connection.readBuffer.bytes
        buffer!.pointee = uv_buf_init(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
    }

    /// Why a `read` or `write` that ended with `status` closes the connection. A client that
    /// closed its socket while replies were on their way (a one-shot `todo list` does, once it
    /// has its model) makes writes fail with EPIPE or reads with ECONNRESET: that is the client
    /// going away, not a failure.
    private static func reason(_ operation: String, _ status: Int32) -> String {
        let name = String(cString: uv_err_name(status))
        return status == UV_EPIPE.rawValue || status == UV_ECONNRESET.rawValue
            ? "client went away (\(name))" : "\(operation) failed: \(name)"
    }

    private static let onRead: uv_read_cb = { stream, nread, _ in
        let connection = owner(stream!.pointee.data)
        if nread > 0 {
            connection.didRead(nread)
        } else if nread == Int(UV_EOF.rawValue) {
            // The client may have only shut down its sending side: the delegate closes once
            // everything it asked for is answered.
            connection.endReading()
            connection.delegate?.connectionReachedEndOfInput(connection)
        } else if nread < 0 {
            connection.close(reason: reason("read", Int32(nread)))
        }
        // nread == 0 is EAGAIN, not EOF: nothing to do.
    }

    private static let onWrite: uv_write_cb = { request, status in
        owner(request!.pointee.data).didWrite(status: status)
    }

    private static let onClose: uv_close_cb = { handle in
        let unmanaged = Unmanaged<Connection>.fromOpaque(handle!.pointee.data!)
        let connection = unmanaged.takeUnretainedValue()
        connection.releaseInFlight()
        free(pipe: connection.pipe, writeRequest: connection.writeRequest)
        unmanaged.release()
    }
}
