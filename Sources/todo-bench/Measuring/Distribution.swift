import Foundation

/// Summary statistics of a set of samples, in whatever unit they were taken.
struct Distribution: Codable, Sendable {
    /// How many samples.
    let count: Int
    /// The arithmetic mean.
    let mean: Double
    /// The smallest sample.
    let min: Double
    /// The median.
    let p50: Double
    /// The 90th percentile.
    let p90: Double
    /// The 99th percentile.
    let p99: Double
    /// The 99.9th percentile.
    let p999: Double
    /// The largest sample.
    let max: Double
    /// The tail as points of a curve, for `--plots`: `[latency, fraction of samples slower]`
    /// at each of `tailFractions` that has a sample beyond it, then `[maximum, 1 / count]`.
    let tail: [[Double]]

    /// Where the tail is sampled: from p58 to p99.99, eight points per power of ten.
    static let tailFractions = (3...32).map { 1 - pow(10, -Double($0) / 8) }

    /// The distribution of `samples` (nearest-rank percentiles); all zero when there are none.
    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        guard !sorted.isEmpty else {
            (mean, min, p50, p90, p99, p999, max) = (0, 0, 0, 0, 0, 0, 0)
            tail = []
            return
        }
        mean = sorted.reduce(0, +) / Double(sorted.count)
        min = sorted[0]
        max = sorted[sorted.count - 1]
        func rank(_ fraction: Double) -> Double {
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        p50 = rank(0.50)
        p90 = rank(0.90)
        p99 = rank(0.99)
        p999 = rank(0.999)
        let count = Double(sorted.count)
        tail =
            Self.tailFractions.filter { (1 - $0) * count >= 1 }.map { [rank($0), 1 - $0] }
            + [[sorted[sorted.count - 1], 1 / count]]
    }
}
