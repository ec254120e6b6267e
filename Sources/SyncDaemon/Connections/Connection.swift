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
/// Reading is in `Connection+Read.swift`, writing in `Connection+Write.swift`.
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

    /// Where the connection is in its life; changed only through its transitions.
    var machine: ConnectionStateMachine
    /// The client's socket.
    let pipe: LoopHandle<uv_pipe_t>
    /// The one write request, reused for every write.
    let writeRequest: UnsafeMutablePointer<uv_write_t>
    /// Shared with the loop's other connections; see `ReadBuffer`.
    let readBuffer: ReadBuffer
    /// The bytes of the write in flight; they must live until its callback.
    var inFlight: UnsafeMutableRawBufferPointer?
    /// Cuts the bytes read into frames.
    var decoder: FrameDecoder
    /// What waits to be written.
    var outbound: OutboundQueue

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

    /// Records that the client's `hello` was answered with a welcome: the connection serves.
    func greet() {
        machine.greet()
    }

    /// Stops reading, writes what is queued (an error explaining why, typically), then closes.
    func closeAfterFlushing(reason: DisconnectReason) {
        perform(machine.drain(reason))
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

    /// Carries out what a transition of the machine asked for, in the order `Effects` documents.
    func perform(_ effects: ConnectionStateMachine.Effects) {
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

    /// The connection whose pipe's `data` is `data`.
    static func owner(_ data: UnsafeMutableRawPointer?) -> Connection {
        LoopHandle<uv_pipe_t>.target(of: data, as: Connection.self)
    }
}
