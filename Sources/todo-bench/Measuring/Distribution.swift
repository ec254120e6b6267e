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

    /// The distribution of `samples` (nearest-rank percentiles); all zero when there are none.
    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        guard !sorted.isEmpty else {
            (mean, min, p50, p90, p99, p999, max) = (0, 0, 0, 0, 0, 0, 0)
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
    }
}
