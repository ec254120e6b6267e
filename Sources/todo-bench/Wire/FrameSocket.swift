import SyncProtocol

/// A raw todod protocol connection: frames written by hand and read back with the protocol's
/// own `FrameDecoder`. The bench uses it where SyncClient would hide what is measured: the
/// pipelined writer (pre-encoded frames, like redis-benchmark), the paced publisher, idle
/// connections, and a subscriber that counts the bytes of each update.
///
/// Reading is for one thread at a time; writing may happen on another.
final class FrameSocket: @unchecked Sendable {
    // @unchecked: `decoder` and `buffer` are only used by the one reading thread.
    /// The transport.
    let stream: UnixStream
    private var decoder = FrameDecoder(maximumLength: 1 << 30)
    private let buffer: UnsafeMutableRawBufferPointer

    /// Connects to todod at `path`.
    init(path: String, receiveTimeout: Double = 120) throws(BenchError) {
        stream = try UnixStream(path: path, receiveTimeout: receiveTimeout)
        // Allocated once connected: when an initializer throws, deinit does not run.
        buffer = .allocate(byteCount: 256 * 1024, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Sends `payload` as one frame.
    func send(payload: [UInt8]) throws(BenchError) {
        try stream.write(FrameEncoder.frame(payload))
    }

    /// Sends bytes that are already framed (several frames in one write, for pipelining).
    func send(framed bytes: [UInt8]) throws(BenchError) {
        try stream.write(bytes)
    }

    /// The next frame's payload, blocking until it is complete; `nil` at the end of the stream.
    func nextFrame() throws(BenchError) -> [UInt8]? {
        while true {
            if let frame = try decoded() { return frame }
            let count = try stream.read(into: buffer)
            if count == 0 { return nil }
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The frames completed by one read (blocking until some bytes arrive); `nil` at the end
    /// of the stream. For a caller that polls several sockets and must not block on one.
    func framesFromOneRead() throws(BenchError) -> [[UInt8]]? {
        let count = try stream.read(into: buffer)
        if count == 0 { return nil }
        decoder.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        var frames: [[UInt8]] = []
        while let frame = try decoded() { frames.append(frame) }
        return frames
    }

    /// Sends `hello` (asking for `features`) and waits for `welcome`; returns the state
    /// version it names.
    @discardableResult
    func greet(client: String = "todo-bench/1", features: [String] = []) throws(BenchError) -> UInt64 {
        try send(payload: HelloRequest(id: 1, client: client, features: features).encoded())
        let reply = try nextReply()
        guard case .welcome(let welcome) = reply else {
            throw .unexpectedReply(from: stream.path, reply: Self.describe(reply))
        }
        return welcome.version
    }

    /// Subscribes to `viewModel` with `params`; returns the first update's frame size in bytes
    /// (header included).
    func subscribe(viewModel: String, params: some Encodable, id: Int64 = 2) throws(BenchError) -> Int {
        try send(payload: Self.encode { try SubscribeRequest(id: id, viewModel: viewModel).encoded(params: params) })
        let reply = try nextReply()
        guard case .subscribed = reply else { throw .unexpectedReply(from: stream.path, reply: Self.describe(reply)) }
        guard let first = try nextFrame() else {
            throw .unexpectedReply(from: stream.path, reply: "end of stream instead of the first update")
        }
        return WireProtocol.headerLength + first.count
    }

    /// The next frame decoded as a `ServerReply`.
    func nextReply() throws(BenchError) -> ServerReply {
        guard let frame = try nextFrame() else { throw .unexpectedReply(from: stream.path, reply: "end of stream") }
        return try Self.reply(frame, from: stream.path)
    }

    /// Decodes a frame's payload as a `ServerReply`.
    static func reply(_ payload: [UInt8], from path: String) throws(BenchError) -> ServerReply {
        do {
            return try ServerReply.decode(payload)
        } catch {
            throw .unexpectedReply(from: path, reply: String(decoding: payload.prefix(300), as: UTF8.self))
        }
    }

    /// Runs a request's encoding with an attachment, whose only failure would be a value JSON cannot hold.
    static func encode(_ body: () throws -> [UInt8]) -> [UInt8] {
        do {
            return try body()
        } catch {
            preconditionFailure("bench requests hold only strings and integers: \(error)")
        }
    }

    private func decoded() throws(BenchError) -> [UInt8]? {
        do {
            return try decoder.next()
        } catch {
            throw .unexpectedReply(from: stream.path, reply: "broken framing: \(error)")
        }
    }

    /// A reply the bench did not expect, for its error: the type, and an error's code and message.
    static func describe(_ reply: ServerReply) -> String {
        guard case .error(let error) = reply else { return reply.typeName }
        return "error \(error.code): \(error.message)"
    }
}
