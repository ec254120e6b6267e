/// The load generator's Redis side: `SET key:C <value>` on connection C (one key per
/// connection, as each todod connection edits its own item), the value 128 bytes, and the
/// `+OK` replies.
struct RESPSetWire: PipelinedWire {
    /// The server's socket.
    let socketPath: String
    /// The bytes of the value.
    static let value = [UInt8](repeating: UInt8(ascii: "x"), count: 128)

    /// Connects (RESP needs no greeting).
    func connect(client: Int) throws(BenchError) -> UnixStream {
        try UnixStream(path: socketPath)
    }

    /// `SET key:C <128 bytes>`.
    func request(id: Int64, client: Int) -> [UInt8] {
        RESPSocket.command([Array("SET".utf8), Array("key:\(client)".utf8), Self.value])
    }

    /// A matcher of `+OK\r\n` replies.
    func replies() -> OKReplies { OKReplies(path: socketPath) }

    /// One connection's `+OK` replies, matched byte by byte across reads.
    struct OKReplies: PipelinedReplies {
        private static let expected = Array("+OK\r\n".utf8)
        let path: String
        private var matched = 0

        init(path: String) { self.path = path }

        /// Counts the `+OK\r\n` the bytes complete; anything else (an error reply) is thrown
        /// with the bytes from where it starts.
        mutating func count(_ bytes: UnsafeRawBufferPointer) throws(BenchError) -> Int {
            var replies = 0
            for (index, byte) in bytes.enumerated() {
                guard byte == Self.expected[matched] else {
                    throw .unexpectedReply(
                        from: path,
                        reply: String(decoding: Self.expected[..<matched] + bytes[index...].prefix(200), as: UTF8.self))
                }
                matched += 1
                if matched == Self.expected.count {
                    matched = 0
                    replies += 1
                }
            }
            return replies
        }
    }
}
