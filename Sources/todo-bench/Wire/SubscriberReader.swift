import SyncLock

/// Many subscriber sockets read by ONE thread with epoll, as a server's event loop reads its
/// clients: the raw fan-out subscribers of both servers, so that what is measured is the
/// server and the wire, not a client library or a thread per connection.
///
/// Each readable socket is read once per wake-up; `read` returns the keys (versions or
/// sequence numbers) of the messages that read completed, all noted with one clock reading
/// taken after the read. A subscriber is finished once `isFinished` holds for its newest key;
/// the thread ends when every subscriber is, after a failure, or at the deadline.
final class SubscriberReader {
    private let arrivals: Locked<[[Arrival]]>
    private let failure = Locked<String?>(nil)
    private let thread: BenchThread

    /// Starts the thread over `descriptors`; `read(i)` reads subscriber `i`'s socket once
    /// (it is readable), `nil` meaning the end of its stream.
    init(
        descriptors: [Int32], expectedPerSubscriber: Int, deadlineSeconds: Double,
        read: @escaping @Sendable (_ subscriber: Int) throws -> [UInt64]?,
        isFinished: @escaping @Sendable (_ newestKey: UInt64) -> Bool
    ) throws(BenchError) {
        let poll = try EventPoll(capacity: descriptors.count)
        for (index, descriptor) in descriptors.enumerated() { try poll.watch(descriptor, tag: index) }
        let arrivals = Locked([[Arrival]](repeating: [], count: descriptors.count))
        let failure = failure
        self.arrivals = arrivals
        thread = try BenchThread {
            var received = [[Arrival]](repeating: [], count: descriptors.count)
            for index in received.indices { received[index].reserveCapacity(expectedPerSubscriber + 1) }
            var finished = [Bool](repeating: false, count: descriptors.count)
            var unfinished = descriptors.count
            let deadline = MonotonicClock.now() + UInt64(deadlineSeconds * 1e9)
            do {
                while unfinished > 0 && failure.withLock({ $0 }) == nil {
                    guard MonotonicClock.now() < deadline else {
                        throw BenchError.timedOut("\(unfinished) of \(descriptors.count) subscribers to finish")
                    }
                    for index in try poll.wait(timeoutMilliseconds: 50) {
                        guard let keys = try read(index) else {
                            throw BenchError.unexpectedReply(from: "subscriber \(index)", reply: "end of stream")
                        }
                        let at = MonotonicClock.now()
                        for key in keys { received[index].append(Arrival(key: key, at: at)) }
                    }
                    // Checked after every wake-up: the key that ends a subscriber may be known
                    // only after its message arrived (todod's last version comes with an ack).
                    for index in finished.indices where !finished[index] {
                        if let newest = received[index].last?.key, isFinished(newest) {
                            finished[index] = true
                            unfinished -= 1
                        }
                    }
                }
            } catch {
                failure.withLock { $0 = $0 ?? "\(error)" }
            }
            arrivals.withLock { $0 = received }
        }
    }

    /// Stops the thread early (a failure elsewhere in the figure).
    func abandon(because reason: String) {
        failure.withLock { $0 = $0 ?? reason }
    }

    /// Waits for the thread and returns each subscriber's arrivals, or throws what stopped it.
    func finish() async throws(BenchError) -> [[Arrival]] {
        await thread.joinFromTask()
        if let failure = failure.withLock({ $0 }) { throw .process(name: "one-thread subscribers", reason: failure) }
        return arrivals.withLock { $0 }
    }
}
