import Glibc

/// A load generator shaped like redis-benchmark with `-c C -P P`: C raw connections on one
/// thread, each sending P pre-encoded dispatches in one write, waiting for all P acks, then
/// sending the next P, until the total is acknowledged. It costs the daemon's host as little
/// CPU as a load generator can, so the figure shows the daemon rather than the client.
struct PipelinedWriter: Sendable {
    /// The daemon's socket.
    let socketPath: String
    /// Connections.
    let clients: Int
    /// Dispatches written at once per connection, and awaited before the next batch.
    let depth: Int
    /// Dispatches in all.
    let total: Int
    /// The framed dispatch connection `client` sends with request id `id` (default: the
    /// edit of item `client + 1`).
    var request: @Sendable (_ id: Int64, _ client: Int) -> [UInt8] = { id, client in
        DispatchLoad.frame(id: id, number: client + 1)
    }

    /// Runs the load and returns acknowledged dispatches per second. With the default
    /// `request`, connection `c` edits item `c + 1`, which must exist.
    func run() throws(BenchError) -> Double {
        var sockets: [FrameSocket] = []
        var frames: [[[UInt8]]] = []
        for client in 0..<clients {
            let socket = try FrameSocket(path: socketPath)
            try socket.greet()
            sockets.append(socket)
            frames.append((0..<depth).map { request(Int64($0 + 1), client) })
        }
        var unsent = total
        var awaited = [Int](repeating: 0, count: clients)
        var acknowledged = 0
        func sendBatch(_ client: Int) throws(BenchError) {
            let size = min(depth, unsent)
            guard size > 0 else { return }
            try sockets[client].send(framed: Array(frames[client][..<size].joined()))
            awaited[client] = size
            unsent -= size
        }
        var descriptors = sockets.map { pollfd(fd: $0.stream.descriptor, events: Int16(POLLIN), revents: 0) }
        let started = MonotonicClock.now()
        for client in 0..<clients { try sendBatch(client) }
        while acknowledged < total {
            let ready = poll(&descriptors, nfds_t(descriptors.count), 120_000)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                throw .timedOut("acks from todod at \(socketPath) (\(acknowledged) of \(total) received)")
            }
            for client in descriptors.indices where descriptors[client].revents != 0 {
                guard let received = try sockets[client].framesFromOneRead() else {
                    throw .unexpectedReply(from: socketPath, reply: "end of stream after \(acknowledged) acks")
                }
                for frame in received {
                    try DispatchLoad.expectAck(frame, from: socketPath)
                    awaited[client] -= 1
                    acknowledged += 1
                }
                if awaited[client] == 0 { try sendBatch(client) }
            }
        }
        return Double(total) / MonotonicClock.seconds(from: started, to: MonotonicClock.now())
    }
}
