import Glibc

/// A load generator shaped like redis-benchmark with `-c C -P P`: C connections read with one
/// epoll instance on one thread, each sending P pre-encoded requests in one write, waiting for
/// all P replies, then sending the next P, until the total is answered. The loop is the same
/// for every server; `wire` supplies the bytes (todod frames or RESP, see `PipelinedWire`). It
/// costs the server's host as little CPU as a load generator can, so the figure shows the
/// server rather than the client.
struct PipelinedWriter<Wire: PipelinedWire>: Sendable {
    /// The server's protocol.
    let wire: Wire
    /// Connections.
    let clients: Int
    /// Requests written at once per connection, and awaited before the next batch.
    let depth: Int
    /// Requests in all.
    let total: Int

    /// What one run measured.
    struct Measurement {
        /// Requests answered.
        var requests: Int
        /// Seconds from the first write to the last reply.
        var seconds: Double
        /// CPU seconds the server process (all its threads) spent over those seconds, from
        /// the threads' `schedstat`; `nil` when no server process was given.
        var serverCPUSeconds: Double?
        /// The same from `/proc/PID/stat` (`utime` + `stime`, 10 ms ticks).
        var serverTickCPUSeconds: Double?
        /// The longest any batch waited from its write to its last reply: the worst ack wait.
        var longestBatchSeconds: Double
        /// CPU seconds the generator's thread spent over those seconds.
        var generatorCPUSeconds: Double

        /// Requests answered per second.
        var rate: Double { seconds > 0 ? Double(requests) / seconds : 0 }
    }

    /// A generator of `total` requests over `clients` connections of `depth` in flight.
    init(wire: Wire, clients: Int, depth: Int, total: Int) {
        (self.wire, self.clients, self.depth, self.total) = (wire, clients, depth, total)
    }

    /// Runs the load and returns answered requests per second.
    func run() throws(BenchError) -> Double {
        try measure(server: nil).rate
    }

    /// Runs the load; with `server`, also reads that process's CPU time just before the first
    /// write and just after the last reply.
    func measure(server: pid_t?) throws(BenchError) -> Measurement {
        var streams: [UnixStream] = []
        var batches: [[UInt8]] = []
        // batchEnds[c][k]: the length of connection c's first k requests (ids differ in length).
        var batchEnds: [[Int]] = []
        let poll = try EventPoll(capacity: clients)
        for client in 0..<clients {
            let stream = try wire.connect(client: client)
            try poll.watch(stream.descriptor, tag: client)
            streams.append(stream)
            let requests = (0..<depth).map { wire.request(id: Int64($0 + 1), client: client) }
            batches.append(Array(requests.joined()))
            batchEnds.append(requests.reduce(into: [0]) { $0.append($0.last! + $1.count) })
        }
        var replies = (0..<clients).map { _ in wire.replies() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var unsent = total
        var awaited = [Int](repeating: 0, count: clients)
        var batchSent = [UInt64](repeating: 0, count: clients)
        var longestBatch = 0.0
        var answered = 0
        func sendBatch(_ client: Int) throws(BenchError) {
            let size = min(depth, unsent)
            guard size > 0 else { return }
            try streams[client].write(
                size == depth ? batches[client] : Array(batches[client][..<batchEnds[client][size]]))
            awaited[client] = size
            batchSent[client] = MonotonicClock.now()
            unsent -= size
        }
        let serverBefore = try server.map { pid throws(BenchError) in try ProcessCPU.threadSeconds(of: pid) }
        let serverTicksBefore = try server.map { pid throws(BenchError) in try ProcessCPU.seconds(of: pid) }
        let generatorBefore = ProcessCPU.currentThreadSeconds()
        let started = MonotonicClock.now()
        for client in 0..<clients { try sendBatch(client) }
        while answered < total {
            let ready = try poll.wait(timeoutMilliseconds: 120_000)
            guard !ready.isEmpty else {
                throw .timedOut("replies from \(wire.socketPath) (\(answered) of \(total) received)")
            }
            for client in ready {
                let count = try streams[client].read(into: buffer)
                guard count > 0 else {
                    throw .unexpectedReply(from: wire.socketPath, reply: "end of stream after \(answered) replies")
                }
                let completed = try replies[client].count(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                awaited[client] -= completed
                answered += completed
                if awaited[client] == 0 {
                    longestBatch = max(
                        longestBatch, MonotonicClock.seconds(from: batchSent[client], to: MonotonicClock.now()))
                    try sendBatch(client)
                }
            }
        }
        let seconds = MonotonicClock.seconds(from: started, to: MonotonicClock.now())
        let generatorCPU = ProcessCPU.currentThreadSeconds() - generatorBefore
        let serverTicks = try server.map { pid throws(BenchError) in try ProcessCPU.seconds(of: pid) }
        let serverCPU = try server.map { pid throws(BenchError) in try ProcessCPU.threadSeconds(of: pid) }
        return Measurement(
            requests: total, seconds: seconds, serverCPUSeconds: zip(serverBefore, serverCPU).map { $1 - $0 },
            serverTickCPUSeconds: zip(serverTicksBefore, serverTicks).map { $1 - $0 },
            longestBatchSeconds: longestBatch,
            generatorCPUSeconds: generatorCPU
        )
    }
}

extension PipelinedWriter where Wire == TododWire {
    /// A generator of todod dispatches on the daemon at `socketPath`; `request` is the framed
    /// dispatch connection `client` sends with request id `id` (default: the edit of item
    /// `client + 1`, which must exist).
    init(
        socketPath: String, clients: Int, depth: Int, total: Int,
        request: @escaping @Sendable (_ id: Int64, _ client: Int) -> [UInt8] = { id, client in
            DispatchLoad.frame(id: id, number: client + 1)
        }
    ) {
        self.init(wire: TododWire(socketPath: socketPath, frame: request), clients: clients, depth: depth, total: total)
    }
}

/// Both values when both are there.
private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
