/// One subscriber's receipt of one message: which message (a state version for todod, a
/// sequence number for Redis) and when it was in hand.
struct Arrival: Sendable {
    /// The version or sequence number the subscriber saw.
    var key: UInt64
    /// `MonotonicClock.now()` when the subscriber had it decoded.
    var at: UInt64
}

/// What one fan-out run measured.
///
/// The latency of message `i` at one subscriber runs from its send to the first receipt whose
/// key is at least message `i`'s: a todod subscriber that was sent only a later model (the
/// daemon sends a slow subscriber the newest model, not a backlog) has the change in hand when
/// that later model arrives, and not before. Every message counts for every subscriber, so a
/// subscriber that falls behind is not left out of the percentiles.
struct FanOutSample {
    /// Latencies from send to each subscriber's receipt, in milliseconds, one per measured
    /// message per subscriber.
    var latency: Distribution
    /// Messages each subscriber received over messages measured: below 1 when todod sent
    /// slow subscribers only the newest model.
    var receivedFraction: Double
    /// Measured message-subscriber pairs never received (0 unless something was lost).
    var unseen: Int
    /// Messages actually sent per second.
    var achievedRate: Double

    /// Joins send times and receipts: message `i` was sent at `sentAt[i]` and carries key
    /// `keys[i]` (increasing with `i`); each subscriber's receipts are in the order received,
    /// the last one the end-of-run message. The first `warmUp` messages are not measured.
    init(sentAt: [UInt64], keys: [UInt64], arrivals: [[Arrival]], warmUp: Int) {
        precondition(sentAt.count == keys.count)
        let measured = max(0, sentAt.count - warmUp)
        var latencies: [Double] = []
        latencies.reserveCapacity(arrivals.count * measured)
        var received = 0
        var unseen = 0
        for subscriber in arrivals {
            var next = 0
            for message in warmUp..<sentAt.count {
                while next < subscriber.count && subscriber[next].key < keys[message] { next += 1 }
                guard next < subscriber.count else {
                    unseen += 1
                    continue
                }
                latencies.append(Double(Int64(bitPattern: subscriber[next].at &- sentAt[message])) / 1e6)
            }
            if let first = keys.dropFirst(warmUp).first, let last = keys.last {
                received += subscriber.count { (first...last).contains($0.key) }
            }
        }
        latency = Distribution(latencies)
        receivedFraction = arrivals.isEmpty || measured == 0 ? 0 : Double(received) / Double(arrivals.count * measured)
        self.unseen = unseen
        let span = sentAt.count > 1 ? MonotonicClock.seconds(from: sentAt[0], to: sentAt[sentAt.count - 1]) : 0
        achievedRate = span > 0 ? Double(sentAt.count - 1) / span : 0
    }
}
