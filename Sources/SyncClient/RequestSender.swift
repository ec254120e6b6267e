import SyncLock
import SyncProtocol

/// Writes requests in the order they are numbered. Registering a request, numbering it and
/// writing it happen under one lock, and so does sending the backlog on a new connection, so
/// the daemon receives a client's dispatch sequence numbers in increasing order. The lock is
/// never held while waiting for the daemon: `UnixSocket.write` does not block, so a daemon
/// that stops reading holds up no thread, and the callers wait for their replies suspended.
final class RequestSender: @unchecked Sendable {
    // @unchecked: `nextSequence` is only touched while `mutex` is held.
    private let mutex = PthreadMutex()
    private var nextSequence: UInt64 = 1
    private let router: ReplyRouter

    init(router: ReplyRouter) {
        self.router = router
    }

    /// Registers `waiter` and writes its request, built by `encode(requestID, sequence)`;
    /// `sequence` is the next dispatch number when `numbered`, else `nil`. While disconnected
    /// the request waits in the router; what the socket cannot take at once, the connection
    /// thread sends; a failed write is left to that thread too, which notices the end of the
    /// connection and sends the request again (or fails it).
    /// A request meant for connection `generation` only is dropped on any other.
    func send(
        _ waiter: ReplyRouter.Waiter, numbered: Bool = false, onlyOn generation: Int? = nil,
        encode: (Int64, UInt64?) throws -> [UInt8]
    ) throws(SyncClientError) {
        try mutex.run { () throws(SyncClientError) in
            let sequence = numbered ? nextSequence : nil
            guard
                let (_, frame, socket) = try router.register(
                    waiter, onlyOn: generation, encode: { id in try encode(id, sequence) })
            else { return }
            if numbered { nextSequence += 1 }
            socket?.write(frame)
        }
    }

    /// The daemon welcomed the connection `socket` at `version`: sends the backlog on it
    /// (subscriptions to make again, then unanswered requests) before any new request. A
    /// connection that the client's `close()` overtook is shut down instead, which ends its
    /// reading.
    func resend(on socket: UnixSocket, version: UInt64) {
        mutex.run {
            guard let started = router.connectionDidStart(version: version) else {
                socket.shutDown()
                return
            }
            for frame in started.frames { started.socket.write(frame) }
        }
    }
}
