import Foundation

/// Everything a run measured, as the JSON report holds it (and the table shows it).
struct Report: Codable {
    /// When the run started (ISO 8601, UTC).
    var startedAt: String
    /// The machine and its load when the run started.
    var host: Host
    /// Which Redis was measured, or why none was.
    var redis: String
    /// Which PostgreSQL the shared-log figures ran on and how the daemons reached it, or why
    /// they were skipped.
    var postgres: String
    /// The options of the run.
    var options: BenchOptions
    /// One entry per figure run, in order.
    var figures: [FigureReport] = []

    /// What the numbers depend on.
    struct Host: Codable {
        /// Online CPUs.
        var cpus: Int
        /// `uname -r`.
        var kernel: String
        /// 1, 5 and 15 minute load averages at the start: other work on the machine.
        var loadAverage: [Double]
        /// Where todod and todo were taken from.
        var binDirectory: String
    }
}

/// One figure's results: rows for the table, and the details behind them.
struct FigureReport: Codable {
    /// The figure's number, 1 to 12.
    var figure: Int
    /// What it measures.
    var title: String
    /// The measured values, one per table row.
    var rows: [ResultRow] = []
    /// How it was measured, and anything a reader must know to trust the numbers.
    var notes: [String] = []
    /// Further numbers (distributions, sizes, counts) by name.
    var details: [String: Double] = [:]
    /// The latency distributions behind the rows, by series name ("todod, round 2"), as
    /// `Distribution.tail` curves: what `--plots` draws.
    var tails: [LatencyTail] = []
}

/// One series of a figure's latency plot.
struct LatencyTail: Codable {
    /// The series' name in the plot's key.
    var name: String
    /// `[latency in ms, fraction of samples slower]`, from p58 to the maximum (`Distribution.tail`).
    var points: [[Double]]

    init(_ name: String, _ distribution: Distribution) {
        self.name = name
        points = distribution.tail
    }
}

/// One measured value, with Redis's where there is one, and the target it is held to.
struct ResultRow: Codable {
    /// What was measured.
    var measure: String
    /// The unit of `ours` and `redis`.
    var unit: String
    /// todo-sync's value.
    var ours: Double
    /// Redis's value in the same run, when it has one.
    var redis: Double?
    /// `ours / redis`, or `ours / baseline` for a growth figure; what `target` compares.
    var ratio: Double?
    /// The target, in words.
    var target: String?
    /// The target as a ratio, where it is one (what `--plots` marks beside the bar).
    var targetRatio: Double?
    /// Whether the target is met; `nil` when there is none or it cannot be judged (no Redis).
    var met: Bool?

    /// A value compared with Redis's: the ratio is `ours / redis`; the target asks for at
    /// least (`higherIsBetter`) or at most `targetRatio`.
    static func versusRedis(
        _ measure: String, unit: String, ours: Double, redis: Double?, higherIsBetter: Bool, targetRatio: Double?
    ) -> ResultRow {
        let ratio = redis.flatMap { $0 > 0 ? ours / $0 : nil }
        let target = targetRatio.map { (higherIsBetter ? ">= " : "<= ") + "\(trimmed($0))x Redis" }
        let met = zip(ratio, targetRatio).map { higherIsBetter ? $0 >= $1 : $0 <= $1 }
        return ResultRow(
            measure: measure, unit: unit, ours: ours, redis: redis, ratio: ratio, target: target,
            targetRatio: targetRatio, met: met)
    }

    /// A value held to an absolute limit (`nil`: reported only).
    static func absolute(_ measure: String, unit: String, ours: Double, atMost limit: Double?) -> ResultRow {
        ResultRow(
            measure: measure, unit: unit, ours: ours, redis: nil, ratio: nil,
            target: limit.map { "<= \(trimmed($0)) \(unit)" }, met: limit.map { ours <= $0 })
    }

    /// A value compared with the same measure at a baseline (a smaller size, or without the
    /// load under test): the ratio is `ours / baseline`, held to at most `targetRatio`, or at
    /// least when `higherIsBetter`.
    static func relative(
        _ measure: String, unit: String, ours: Double, baseline: Double, baselineName: String, targetRatio: Double?,
        higherIsBetter: Bool = false
    ) -> ResultRow {
        let ratio = baseline > 0 ? ours / baseline : nil
        return ResultRow(
            measure: measure, unit: unit, ours: ours, redis: nil, ratio: ratio,
            target: targetRatio.map { (higherIsBetter ? ">= " : "<= ") + "\(trimmed($0))x \(baselineName)" },
            targetRatio: targetRatio, met: zip(ratio, targetRatio).map { higherIsBetter ? $0 >= $1 : $0 <= $1 })
    }

    private static func trimmed(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// Both values when both are there.
private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}

extension Report {
    /// The report as one line of JSON, keys sorted.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
