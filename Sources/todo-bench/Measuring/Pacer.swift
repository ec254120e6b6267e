/// An open-loop sender: one message per period whatever the replies do, the pace of the
/// fan-out figure for todod and Redis alike. Runs on the calling thread (a `BenchThread`),
/// sleeping to absolute deadlines so that a late wake-up does not push every later send.
enum Pacer {
    /// Calls `send(i)` for `i` in `0..<count`, the `i`-th at `period * i` nanoseconds after the
    /// start; returns the clock reading taken just before each send (the latency's origin).
    static func run(count: Int, periodNanoseconds: UInt64, send: (Int) throws -> Void) rethrows -> [UInt64] {
        var sentAt = [UInt64](repeating: 0, count: count)
        let start = MonotonicClock.now() + periodNanoseconds
        for index in 0..<count {
            MonotonicClock.sleep(until: start + UInt64(index) * periodNanoseconds)
            sentAt[index] = MonotonicClock.now()
            try send(index)
        }
        return sentAt
    }
}
