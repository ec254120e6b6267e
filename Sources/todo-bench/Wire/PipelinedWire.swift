/// One server's side of the pipelined load generator (`PipelinedWriter`): how a connection is
/// opened, the bytes of one request, and how the replies in the bytes read are counted. The
/// generator's loop is the same for every server; only this differs.
protocol PipelinedWire: Sendable {
    /// Counts one connection's replies as its bytes arrive.
    associatedtype Replies: PipelinedReplies

    /// The server's socket.
    var socketPath: String { get }

    /// Opens connection `client`, greeted where the protocol wants it, ready for requests.
    func connect(client: Int) throws(BenchError) -> UnixStream

    /// The bytes of request `id` (from 1) on connection `client`.
    func request(id: Int64, client: Int) -> [UInt8]

    /// A counter for one connection's replies.
    func replies() -> Replies
}

/// Counts the successful replies in a connection's bytes, which arrive in pieces of any size.
protocol PipelinedReplies {
    /// Takes the bytes of one read; returns how many replies they completed. A reply that is
    /// not a success is thrown with its text.
    mutating func count(_ bytes: UnsafeRawBufferPointer) throws(BenchError) -> Int
}
