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
    func connectionLost(_ connection: Connection, reason: DisconnectReason)
}

/// One accepted client socket: reads frames in, writes queued bytes out. Where it is in its life
/// (greeting, serving, draining, closed) is its `ConnectionStateMachine`; this class performs
/// the effects the machine's transitions return.
///
/// Lifetime: its `uv_pipe_t` is a `LoopHandle` whose target is the connection, kept alive until
/// the close callback, so the connection outlives every libuv callback that can name it. The
/// write request's `data` points at the connection unretained: a write's callback always runs
/// before the pipe's close callback. Loop-confined: not `Sendable`.
///
/// ```
///  accepted ──read──▶ frames to delegate
///     │  enqueue ──▶ OutboundQueue ──flush()──▶ one uv_write in flight at a time
///     ▼
///  close(reason) ──▶ delegate.connectionLost ──▶ uv_close ──▶ close callback frees memory
/// ```
final class Connection: LoopHandleTarget {
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

    private var machine: ConnectionStateMachine
    private let pipe: LoopHandle<uv_pipe_t>
    private let writeRequest: UnsafeMutablePointer<uv_write_t>
    /// Shared with the loop's other connections; see `ReadBuffer`.
    private let readBuffer: ReadBuffer
    /// The bytes of the write in flight; they must live until its callback.
    private var inFlight: UnsafeMutableRawBufferPointer?
    private var decoder: FrameDecoder
    private var outbound: OutboundQueue

    /// Initialises the pipe handle on `loop` and accepts the pending client of `server`.
    init(
        id: Int, loop: UnsafeMutablePointer<uv_loop_t>, acceptingFrom server: UnsafeMutablePointer<uv_stream_t>,
        limits: Limits, readBuffer: ReadBuffer
    ) throws(DaemonError) {
        self.id = id
        self.readBuffer = readBuffer
        machine = ConnectionStateMachine(softQueueLimit: limits.softQueueLimit, hardQueueLimit: limits.hardQueueLimit)
        decoder = FrameDecoder(maximumLength: limits.maximumFrameLength)
        outbound = OutboundQueue(coalescingThreshold: limits.softQueueLimit)
        pipe = try .pipe(loop: loop, "client connection")
        writeRequest = .allocate(capacity: 1)
        pipe.attach(self)
        writeRequest.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let accepted = uv_accept(server, pipe.stream)
        if accepted < 0 {
            // Never served, so no one is told: the handle closes and the connection goes with it.
            pipe.close()
            throw .libuv(operation: "uv_accept", subject: "client connection", code: accepted)
        }
        var credentials = cuv_peer_credentials()
        if cuv_read_peer_credentials(pipe.handle, &credentials) == 0 {
            peer = (credentials.uid, credentials.gid, credentials.pid)
        }
    }

    deinit {
        inFlight?.deallocate()
        writeRequest.deallocate()
    }

    /// Whether a valid `hello` was received and the connection is still serving.
    var isGreeted: Bool { machine.isGreeted }

    /// Whether the client finished sending (end of stream read) and the connection is still open.
    var clientEndedInput: Bool { machine.clientEndedInput }

    /// Starts delivering frames to the delegate.
    func startReading() {
        perform(machine.startReading())
    }

    /// Records that the client's `hello` was answered with a welcome: the connection serves.
    func greet() {
        machine.greet()
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

    /// Stops reading, writes what is queued (an error explaining why, typically), then closes.
    func closeAfterFlushing(reason: DisconnectReason) {
        perform(machine.drain(reason))
    }

    /// Stops delivering frames for good: backpressure will not resume reading.
    func endReading() {
        perform(machine.endInput(.byServer))
    }

    /// The one disconnect path: EOF, read or write errors, protocol violations, shutdown.
    /// Tells the delegate once, then closes the handle; queued bytes are dropped.
    func close(reason: DisconnectReason) {
        perform(machine.close(reason))
    }

    /// Closes for `.loopEnded` (the loop ended with the connection open).
    func closeLeftoverHandle() {
        close(reason: .loopEnded)
    }

    private var queuedByteCount: Int { outbound.pendingByteCount + (inFlight?.count ?? 0) }

    private func didEnqueue() {
        perform(machine.didQueue(replyByteCount: outbound.pendingReplyByteCount, queuedByteCount: queuedByteCount))
    }

    /// Carries out what a transition of the machine asked for, in the order `Effects` documents.
    private func perform(_ effects: ConnectionStateMachine.Effects) {
        if let reason = effects.close {
            delegate?.connectionLost(self, reason: reason)
            pipe.close()
            return
        }
        if effects.stopReading { uv_read_stop(pipe.stream) }
        if effects.scheduleFlush { delegate?.connectionNeedsFlush(self) }
        if effects.startReading {
            let result = uv_read_start(pipe.stream, Self.onAllocate, Self.onRead)
            if result < 0 { perform(machine.close(.failure(of: .read, status: result))) }
        }
    }

    private func releaseInFlight() {
        inFlight?.deallocate()
        inFlight = nil
    }

    private func didRead(_ count: Int) {
        decoder.append(UnsafeRawBufferPointer(rebasing: readBuffer.bytes[..<count]))
        while machine.isOpen {
            do {
                guard let payload = try decoder.next() else { return }
                delegate?.connection(self, didReceive: payload)
            } catch {
                perform(machine.endInput(.byServer))
                delegate?.connection(self, didBreakFraming: error)
                return
            }
        }
    }

    private func didWrite(status: Int32) {
        releaseInFlight()
        // ECANCELED comes only from the connection's own uv_close, after which closing is a no-op.
        if status < 0 {
            perform(machine.close(.failure(of: .write, status: status)))
            return
        }
        flush()
    }

    private static func owner(_ data: UnsafeMutableRawPointer?) -> Connection {
        LoopHandle<uv_pipe_t>.target(of: data, as: Connection.self)
    }

    private static let onAllocate: uv_alloc_cb = { handle, _, buffer in
        let connection = owner(handle!.pointee.data)
        let bytes = connection.readBuffer.bytes
        buffer!.pointee = uv_buf_init(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
    }

    private static let onRead: uv_read_cb = { stream, nread, _ in
        let connection = owner(stream!.pointee.data)
        if nread > 0 {
            connection.didRead(nread)
        } else if nread == Int(UV_EOF.rawValue) {
            // The client may have only shut down its sending side: the delegate closes once
            // everything it asked for is answered.
            connection.perform(connection.machine.endInput(.byClient))
            connection.delegate?.connectionReachedEndOfInput(connection)
        } else if nread < 0 {
            connection.close(reason: .failure(of: .read, status: Int32(nread)))
        }
        // nread == 0 is EAGAIN, not EOF: nothing to do.
    }

    private static let onWrite: uv_write_cb = { request, status in
        Unmanaged<Connection>.fromOpaque(request!.pointee.data!).takeUnretainedValue().didWrite(status: status)
    }
}
