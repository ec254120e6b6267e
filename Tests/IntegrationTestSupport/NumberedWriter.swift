import Foundation
import Glibc
import TestSupport

/// An exactly-once writer for failure tests: on a thread of its own it adds the items
/// "CLIENTID N" (N = 1, 2, 3, ...) to one daemon, one numbered dispatch at a time (client id
/// `clientID`, sequence N), and sends the same sequence again after `storage_unavailable` or a
/// lost connection (reconnecting with the same client id for up to 60 s), so each of its
/// actions is applied at most once whatever breaks, and it moves on only once N is acked.
///
/// `stop()` lets the dispatch in flight finish (so every sequence sent is acked), joins the
/// thread and returns what happened; anything else the daemon answers (a `rejected`, a
/// `stale_sequence`) ends the writer and is thrown by `stop()`.
final class NumberedWriter: @unchecked Sendable {
    /// What one writer saw, once stopped.
    struct Summary {
        let clientID: String
        /// The version each sequence was acked with; sequences 1 to `acks.count`.
        let acks: [Int]
        /// `storage_unavailable` answers, each followed by a resend of the same sequence.
        let storageErrors: Int
        /// Connections lost and made again.
        let reconnects: Int
        /// Every answer, in order: when its dispatch was sent and when the answer came.
        let answers: [Answer]

        /// The text of the item sequence `sequence` added.
        func text(_ sequence: Int) -> String { "\(clientID) \(sequence)" }

        /// The longest time without an ack between `start` and `end` (from `start` to the first
        /// ack, between acks, from the last ack to `end`), in seconds.
        func longestAckGap(from start: Double, to end: Double) -> Double {
            longestAckGapSpan(from: start, to: end).length
        }

        /// Where `longestAckGap(from:to:)` lies: when it began (an ack, or `start`) and how
        /// long it lasted, in seconds.
        func longestAckGapSpan(from start: Double, to end: Double) -> (begin: Double, length: Double) {
            let times = answers.filter { $0.acked && $0.answered > start && $0.answered < end }.map(\.answered)
            return zip([start] + times, times + [end]).map { (begin: $0, length: $1 - $0) }
                .max { $0.length < $1.length } ?? (begin: start, length: end - start)
        }

        /// The longest any dispatch waiting between `start` and `end` waited for its answer (the
        /// one in flight at `start` included).
        func longestWait(from start: Double, to end: Double) -> Double {
            answers.filter { $0.sent < end && $0.answered > start }.map { $0.answered - $0.sent }.max() ?? 0
        }

        /// When the first ack after `time` came.
        func firstAck(after time: Double) -> Double? {
            answers.first { $0.acked && $0.answered > time }?.answered
        }
    }

    /// One answer to a dispatch, with the monotonic times (`Self.now()`, seconds) it was sent and
    /// answered.
    struct Answer {
        let sent: Double
        let answered: Double
        let acked: Bool
    }

    let clientID: String
    private let socketPath: String
    private let pause: UInt32
    private let lock = NSLock()
    private var acks: [Int] = []
    private var storageErrors = 0
    private var reconnects = 0
    private var answers: [Answer] = []
    private var failure: String?
    private var stopRequested = false
    private var cancelled = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts writing to the daemon on `socketPath` as `clientID`.
    /// `pause` (microseconds) is slept after each ack: a steady writer rather than one flat out.
    init(socketPath: String, clientID: String, pause: UInt32 = 0) {
        self.socketPath = socketPath
        self.clientID = clientID
        self.pause = pause
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.start()
    }

    /// Acks received so far.
    var ackCount: Int { lock.withLock { acks.count } }

    /// `storage_unavailable` answers received so far.
    var storageErrorCount: Int { lock.withLock { storageErrors } }

    /// Waits until at least `count` sequences are acked; throws if the writer failed first.
    func waitForAcks(atLeast count: Int, timeout: Double = 240) throws {
        try eventually(timeout: timeout, "writer \(clientID) got \(ackCount) acks, not \(count)") {
            let (acked, failure) = lock.withLock { (acks.count, self.failure) }
            if let failure { throw TestFailure("writer \(clientID) failed: \(failure)") }
            return acked >= count ? true : nil
        }
    }

    /// Finishes the dispatch in flight, stops, and returns what happened; throws if the writer
    /// failed or does not finish within `timeout` seconds.
    func stop(timeout: Double = 60) throws -> Summary {
        lock.withLock { stopRequested = true }
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw TestFailure("writer \(clientID) did not finish within \(timeout) s")
        }
        return try lock.withLock {
            if let failure { throw TestFailure("writer \(clientID) failed: \(failure)") }
            return Summary(
                clientID: clientID, acks: acks, storageErrors: storageErrors, reconnects: reconnects, answers: answers)
        }
    }

    /// Stops at once, without waiting for anything: for a test that failed halfway (call it in
    /// a `defer`; after `stop()` it does nothing).
    func cancel() {
        lock.withLock { cancelled = true }
    }

    private func run() {
        var client: WireClient?
        var sequence = 1
        while !lock.withLock({ stopRequested }) {
            do {
                let version = try dispatchUntilAcked(sequence, on: &client)
                lock.withLock { acks.append(version) }
                sequence += 1
                if pause > 0 { usleep(pause) }
            } catch {
                lock.withLock { failure = "sequence \(sequence): \(error)" }
                return
            }
        }
    }

    /// Sends sequence `sequence` until it is acked and returns its version; reconnects as
    /// needed. Throws on any other answer, or when no connection can be made for 60 s.
    private func dispatchUntilAcked(_ sequence: Int, on client: inout WireClient?) throws -> Int {
        while true {
            if lock.withLock({ cancelled }) { throw TestFailure("cancelled") }
            let connection = try client ?? connect()
            client = connection
            let reply: WireClient.Message
            let sent = Self.now()
            do {
                reply = try connection.reply(
                    to: connection.dispatch("add", ["text": "\(clientID) \(sequence)"], sequence: sequence))
                let answer = Answer(sent: sent, answered: Self.now(), acked: reply.type == "ack")
                lock.withLock { answers.append(answer) }
            } catch {
                // The daemon went away (killed, restarting): send the same sequence again.
                client = nil
                lock.withLock { reconnects += 1 }
                continue
            }
            if reply.type == "ack", let version = reply.version { return version }
            guard reply.code == "storage_unavailable" else { throw TestFailure("the daemon answered \(reply)") }
            lock.withLock { storageErrors += 1 }
            usleep(20_000)
        }
    }

    /// The monotonic clock, in seconds: what `Answer`'s times are read from.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func connect() throws -> WireClient {
        try eventually(timeout: 60, "writer \(clientID) could not reconnect to \(socketPath)") {
            if lock.withLock({ cancelled }) { throw TestFailure("cancelled") }
            guard let client = try? WireClient(path: socketPath, timeout: 30) else {
                usleep(20_000)
                return nil
            }
            return (try? client.hello(name: "failure-tests/1", clientID: clientID)) != nil ? client : nil
        }
    }
}
