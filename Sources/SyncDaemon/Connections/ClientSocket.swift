import CUV
import SyncEngine

/// What a client socket reports to the shell that owns it. Calls arrive on the loop thread.
protocol ClientSocketDelegate: AnyObject {
    /// Bytes arrived; valid only during the call.
    func socket(_ socket: ClientSocket, didRead bytes: UnsafeRawBufferPointer)
    /// The client shut down its sending side (end of stream).
    func socketReachedEndOfInput(_ socket: ClientSocket)
    /// The write in flight completed: from within `write`, before it returns, when the socket
    /// took every byte at once.
    func socketDidWrite(_ socket: ClientSocket)
    /// Reading or writing failed (or the loop ended with the socket open): it is gone.
    func socket(_ socket: ClientSocket, failedWith reason: CloseReason)
}

/// One accepted client socket and nothing more: reads into the loop's one read buffer, one
/// write in flight at a time (written at once when the socket takes it), close. What the bytes
/// mean, when to read and what to write is the engine's (`ClientConnection` is its side of the
/// same connection).
///
/// Lifetime: its `uv_pipe_t` is a `LoopHandle` whose target is the socket, kept alive until
/// the close callback, so the socket outlives every libuv callback that can name it. The
/// write request's `data` points at the socket unretained: a write's callback always runs
/// before the pipe's close callback. Loop-confined: not `Sendable`.
final class ClientSocket: LoopHandleTarget {
    /// Bytes read per `read(2)`, into the loop's one `ReadBuffer`.
    static let readChunkSize = 64 * 1024

    /// The shell's id for the connection, the engine's too.
    let id: Int
    /// Who is on the other end (SO_PEERCRED at accept), if the kernel said.
    private(set) var peer: Peer?
    weak var delegate: (any ClientSocketDelegate)?
    private let pipe: LoopHandle<uv_pipe_t>
    /// The one write request, reused for every write.
    private let writeRequest: UnsafeMutablePointer<uv_write_t>
    /// Shared with the loop's other sockets; see `ReadBuffer`.
    private let readBuffer: ReadBuffer
    /// The bytes of the write in flight; they must live until its callback.
    private var inFlight: UnsafeMutableRawBufferPointer?
    private var isClosed = false

    /// Initialises the pipe handle on `loop` and accepts the pending client of `listener`.
    init(
        id: Int, loop: UnsafeMutablePointer<uv_loop_t>, acceptingFrom listener: UnsafeMutablePointer<uv_stream_t>,
        readBuffer: ReadBuffer
    ) throws(DaemonError) {
        self.id = id
        self.readBuffer = readBuffer
        pipe = try .pipe(loop: loop, "client connection")
        writeRequest = .allocate(capacity: 1)
        pipe.attach(self)
        writeRequest.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let accepted = uv_accept(listener, pipe.stream)
        if accepted < 0 {
            // Never served, so no one is told: the handle closes and the socket goes with it.
            isClosed = true
            pipe.close()
            throw .libuv(operation: "uv_accept", subject: "client connection", code: accepted)
        }
        var credentials = cuv_peer_credentials()
        if cuv_read_peer_credentials(pipe.handle, &credentials) == 0 {
            peer = Peer(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid)
        }
    }

    deinit {
        inFlight?.deallocate()
        writeRequest.deallocate()
    }

    /// Starts delivering bytes to the delegate.
    func startReading() {
        guard !isClosed else { return }
        let result = uv_read_start(pipe.stream, Self.onAllocate, Self.onRead)
        if result < 0 { delegate?.socket(self, failedWith: .failure(of: .read, status: result)) }
    }

    /// Stops delivering bytes.
    func stopReading() {
        guard !isClosed else { return }
        uv_read_stop(pipe.stream)
    }

    /// Writes `buffer`, which the socket frees once the write completed.
    ///
    /// The bytes are written at once if the socket takes them all, and the delegate hears of
    /// the completed write before this returns (the shell feeds it to the engine within the same
    /// run of outputs). Only what the socket does not take waits for a `uv_write`: a write that
    /// libuv completes at once still reports it in the loop's next iteration, which then polls
    /// once more without waiting and re-arms the socket's events (two system calls per write,
    /// and every update is a write per subscriber).
    func write(_ buffer: UnsafeMutableRawBufferPointer) {
        precondition(inFlight == nil, "a write while one is in flight")
        guard !isClosed else {
            buffer.deallocate()
            return
        }
        let start = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        var descriptor = uv_buf_init(start, UInt32(buffer.count))
        let written = uv_try_write(pipe.stream, &descriptor, 1)
        if Int(written) == buffer.count {
            buffer.deallocate()
            delegate?.socketDidWrite(self)
            return
        }
        if written < 0, written != UV_EAGAIN.rawValue {
            buffer.deallocate()
            delegate?.socket(self, failedWith: .failure(of: .write, status: written))
            return
        }
        inFlight = buffer
        let sent = Int(max(written, 0))
        descriptor = uv_buf_init(start + sent, UInt32(buffer.count - sent))
        let result = uv_write(writeRequest, pipe.stream, &descriptor, 1, Self.onWrite)
        if result < 0 {
            releaseInFlight()
            delegate?.socket(self, failedWith: .failure(of: .write, status: result))
        }
    }

    /// Closes the socket; queued bytes are dropped. A no-op once closed.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        pipe.close()
    }

    /// The loop ended with the socket open (a bug, logged on its own).
    func closeLeftoverHandle() {
        guard !isClosed else { return }
        delegate?.socket(self, failedWith: .loopEnded)
        close()
    }

    private func releaseInFlight() {
        inFlight?.deallocate()
        inFlight = nil
    }

    /// The write in flight ended.
    private func didWrite(status: Int32) {
        releaseInFlight()
        // ECANCELED comes only from the socket's own uv_close, after which nobody listens.
        guard !isClosed else { return }
        if status < 0 {
            delegate?.socket(self, failedWith: .failure(of: .write, status: status))
        } else {
            delegate?.socketDidWrite(self)
        }
    }

    /// The socket whose pipe's `data` is `data`.
    private static func owner(_ data: UnsafeMutableRawPointer?) -> ClientSocket {
        LoopHandle<uv_pipe_t>.target(of: data, as: ClientSocket.self)
    }

    /// Lends the loop's read buffer to a read of this socket.
    private static let onAllocate: uv_alloc_cb = { handle, _, buffer in
        let socket = owner(handle!.pointee.data)
        let bytes = socket.readBuffer.bytes
        buffer!.pointee = uv_buf_init(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
    }

    /// Bytes, the end of the stream, or a read error.
    private static let onRead: uv_read_cb = { stream, nread, _ in
        let socket = owner(stream!.pointee.data)
        if nread > 0 {
            socket.delegate?.socket(
                socket, didRead: UnsafeRawBufferPointer(rebasing: socket.readBuffer.bytes[..<nread]))
        } else if nread == Int(UV_EOF.rawValue) {
            socket.delegate?.socketReachedEndOfInput(socket)
        } else if nread < 0 {
            socket.delegate?.socket(socket, failedWith: .failure(of: .read, status: Int32(nread)))
        }
        // nread == 0 is EAGAIN, not EOF: nothing to do.
    }

    /// A write of this socket ended.
    private static let onWrite: uv_write_cb = { request, status in
        Unmanaged<ClientSocket>.fromOpaque(request!.pointee.data!).takeUnretainedValue().didWrite(status: status)
    }
}
