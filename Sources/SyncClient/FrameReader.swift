import Glibc
import SyncProtocol

/// The reader thread of one connection: reads frames until the stream ends, hands each to the
/// router, then fails whatever still waits. (The descriptor closes when the socket object goes.)
enum FrameReader {
    /// Largest frame accepted from the daemon: models can be large, and the daemon is trusted.
    static let maximumFrameLength = 256 << 20

    /// What the thread needs, passed through `pthread_create`'s context pointer (retained there,
    /// released by the thread).
    private final class Context {
        let socket: UnixSocket
        let router: ReplyRouter
        init(socket: UnixSocket, router: ReplyRouter) {
            self.socket = socket
            self.router = router
        }
    }

    /// Starts the reader thread for `socket` (detached: it ends with the connection).
    static func start(socket: UnixSocket, router: ReplyRouter) {
        let context = Unmanaged.passRetained(Context(socket: socket, router: router)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
            FrameReader.run(socket: context.socket, router: context.router)
            return nil
        }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Context>.fromOpaque(context).release()
            router.close(.connectionClosed(reason: "cannot start the reader thread"))
            socket.shutDown()
        }
    }

    private static func run(socket: UnixSocket, router: ReplyRouter) {
        var decoder = FrameDecoder(maximumLength: maximumFrameLength)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        do {
            while true {
                let count = try socket.read(into: buffer)
                guard count > 0 else { throw SyncClientError.connectionClosed(reason: "the daemon closed the connection") }
                decoder.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                while let payload = try decoder.next() {
                    let envelope: ServerEnvelope
                    do {
                        envelope = try WireJSON.decode(ServerEnvelope.self, from: payload)
                    } catch {
                        throw SyncClientError.protocolViolation("a message that does not decode: \(error)")
                    }
                    try router.route(envelope, payload: payload)
                }
            }
        } catch let error as SyncClientError {
            router.close(error)
        } catch {
            router.close(.protocolViolation("broken framing: \(error)"))
        }
        socket.shutDown()
    }
}
