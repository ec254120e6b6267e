/// Requests per second accumulated over several timed rounds: total requests over total time,
/// so a slow round weighs as much as it lasted.
struct Throughput {
    /// Requests over every round so far.
    private(set) var requests = 0
    /// Seconds over every round so far.
    private(set) var seconds = 0.0

    /// Adds a round of `requests` that took `seconds`.
    mutating func add(_ requests: Int, seconds: Double) {
        self.requests += requests
        self.seconds += seconds
    }

    /// Adds a round of `requests` measured elsewhere at `rate` per second (redis-benchmark).
    mutating func add(_ requests: Int, rate: Double) {
        add(requests, seconds: rate > 0 ? Double(requests) / rate : 0)
    }

    /// Requests per second over every round.
    var rate: Double { seconds > 0 ? Double(requests) / seconds : 0 }

    /// Round `round`'s share of `total` split into `rounds` (the first rounds take the remainder).
    static func share(of total: Int, rounds: Int, round: Int) -> Int {
        total / rounds + (round < total % rounds ? 1 : 0)
    }

    /// The seconds `body` takes.
    static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let started = MonotonicClock.now()
        try await body()
        return MonotonicClock.seconds(from: started, to: MonotonicClock.now())
    }
}
