import SyncProtocol

/// The frames arriving on one connection, read as needed.
final class FrameStream {
    /// The connection.
    let socket: UnixSocket
    /// How long a read may wait for data before it fails (`nil`: for ever).
    var receiveTimeoutSeconds: Int?
    /// The jobs run while a read waits.
    private let jobs: ConnectionExecutor
    private var decoder: FrameDecoder
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(socket: UnixSocket, maximumFrameLength: Int, jobs: ConnectionExecutor) {
        self.socket = socket
        self.jobs = jobs
        decoder = FrameDecoder(maximumLength: maximumFrameLength)
    }

    deinit {
        buffer.deallocate()
    }

    /// The next whole frame's payload.
    func next() throws(SyncClientError) -> [UInt8] {
        while true {
            do {
                if let payload = try decoder.next() { return payload }
            } catch {
                throw .protocolViolation("broken framing: \(error)")
            }
            let count = try socket.read(into: buffer, timeoutSeconds: receiveTimeoutSeconds, jobs: jobs)
            guard count > 0 else { throw .connectionClosed(.daemonClosed) }
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The next frame's message, with the payload for typed decoding of what it carries.
    func nextReply() throws(SyncClientError) -> (reply: ServerReply, payload: [UInt8]) {
        let payload = try next()
        do {
            return (try ServerReply.decode(payload), payload)
        } catch {
            throw .protocolViolation("a message that does not decode: \(error)")
        }
    }
}
