/// One subscriber's receipt of one message: which message (a state version for todod, a
/// sequence number for Redis) and when it was in hand.
struct Arrival: Sendable {
    /// The version or sequence number the subscriber saw.
    var key: UInt64
    /// `MonotonicClock.now()` when the subscriber had it decoded.
    var at: UInt64
}

/// What one fan-out run measured.
struct FanOutSample {
    /// Latencies from send to each subscriber's receipt, in milliseconds.
    var latency: Distribution
    /// Receipts measured over receipts possible (subscribers x measured messages): below 1 when
    /// slow subscribers skipped models (todod sends the newest) or messages were lost.
    var deliveredFraction: Double
    /// Messages actually sent per second.
    var achievedRate: Double

    /// Joins send times and receipts: message `i` was sent at `sentAt[i]`; `index(key)` says
    /// which message a receipt's key stands for. The first `warmUp` messages are not measured.
    init(sentAt: [UInt64], arrivals: [[Arrival]], warmUp: Int, index: (UInt64) -> Int?) {
        var latencies: [Double] = []
        latencies.reserveCapacity(arrivals.count * max(0, sentAt.count - warmUp))
        for subscriber in arrivals {
            for arrival in subscriber {
                guard let message = index(arrival.key), message >= warmUp, message < sentAt.count else { continue }
                latencies.append(Double(arrival.at &- sentAt[message]) / 1e6)
            }
        }
        latency = Distribution(latencies)
        let possible = arrivals.count * max(0, sentAt.count - warmUp)
        deliveredFraction = possible > 0 ? Double(latencies.count) / Double(possible) : 0
        let span = sentAt.count > 1 ? MonotonicClock.seconds(from: sentAt[0], to: sentAt[sentAt.count - 1]) : 0
        achievedRate = span > 0 ? Double(sentAt.count - 1) / span : 0
    }
}
