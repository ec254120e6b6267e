import SyncLock
import SyncProtocol

/// Writes requests in the order they are numbered. Registering a request, numbering it and
/// writing it happen under one lock, and so does sending the backlog on a new connection, so
/// the daemon receives a client's dispatch sequence numbers in increasing order.
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
    /// the request waits in the router; a failed write is left to the connection thread,
    /// which notices the end of the connection and sends the request again (or fails it).
    @discardableResult
    func send(
        _ waiter: ReplyRouter.Waiter, numbered: Bool = false, encode: (Int64, UInt64?) throws -> [UInt8]
    ) throws(SyncClientError) -> Int64 {
        try mutex.run { () throws(SyncClientError) -> Int64 in
            let sequence = numbered ? nextSequence : nil
            let (id, frame, socket) = try router.register(waiter) { id in try encode(id, sequence) }
            if numbered { nextSequence += 1 }
            try? socket?.write(frame)
            return id
        }
    }

    /// Sends the backlog on a new connection (unanswered requests, then subscriptions to
    /// make again) before any new request, unless a later connection already replaced it.
    func resend(on socket: UnixSocket, generation: Int) {
        mutex.run {
            guard let frames = router.connectionDidStart(socket, generation: generation) else { return }
            for frame in frames {
                do {
                    try socket.write(frame)
                } catch {
                    return
                }
            }
        }
    }
}
