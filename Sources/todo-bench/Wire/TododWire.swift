import SyncProtocol

/// The load generator's todod side: a greeted raw connection, framed `dispatch` requests
/// (by default the edit of item `client + 1` with a 128-character text) and `ack` replies.
struct TododWire: PipelinedWire {
    /// The daemon's socket.
    let socketPath: String
    /// The framed dispatch connection `client` sends with request id `id`.
    var frame: @Sendable (_ id: Int64, _ client: Int) -> [UInt8] = { id, client in
        DispatchLoad.frame(id: id, number: client + 1)
    }

    /// Connects and completes `hello`/`welcome`.
    func connect(client: Int) throws(BenchError) -> UnixStream {
        let socket = try FrameSocket(path: socketPath)
        try socket.greet()
        return socket.stream
    }

    /// The framed dispatch.
    func request(id: Int64, client: Int) -> [UInt8] { frame(id, client) }

    /// Frames decoded as they complete, each checked to be an `ack`.
    func replies() -> Acks { Acks(path: socketPath) }

    /// One connection's acks.
    struct Acks: PipelinedReplies {
        let path: String
        private var decoder = FrameDecoder(maximumLength: 1 << 24)

        init(path: String) { self.path = path }

        /// Appends the bytes and counts the `ack` frames they complete.
        mutating func count(_ bytes: UnsafeRawBufferPointer) throws(BenchError) -> Int {
            decoder.append(bytes)
            var acks = 0
            while true {
                let frame: [UInt8]?
                do {
                    frame = try decoder.next()
                } catch {
                    throw .unexpectedReply(from: path, reply: "broken framing: \(error)")
                }
                guard let frame else { return acks }
                try DispatchLoad.expectAck(frame, from: path)
                acks += 1
            }
        }
    }
}
