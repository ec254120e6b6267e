import Foundation
import Glibc
import Testing
import TestSupport

/// The benchmark, run with tiny sizes so that it never rots: it must finish, print a report
/// with every figure, and leave no process behind. Its numbers are not checked (no timing
/// assertions); docs/PERFORMANCE.md holds real runs.
@Suite struct BenchSmokeTests {
    @Test func aSmokeRunReportsEveryFigureAndLeavesNothingRunning() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reportPath = directory + "/report.json"
        // Its own TMPDIR, so that the leftover check below sees this run's processes only.
        let bench = try ChildProcess(
            Binaries.path("todo-bench"), ["--smoke", "--json", reportPath], environment: ["TMPDIR": directory], outputDirectory: directory)
        let status = try bench.waitForExit(timeout: 900)
        try #require(status == 0, "todo-bench exited with \(status); stderr:\n\(bench.standardError)")

        let data = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let figures = try #require(report["figures"] as? [[String: Any]])
        #expect(figures.compactMap { $0["figure"] as? Int } == Array(1...8))
        let redisMeasured = ["redis-server", "redis-benchmark", "redis-cli"].allSatisfy(Self.isOnPath)
        for figure in figures {
            let number = figure["figure"] as? Int ?? 0
            let rows = figure["rows"] as? [[String: Any]] ?? []
            #expect(!rows.isEmpty, "figure \(number) has no rows")
            for row in rows {
                #expect(row["measure"] is String && row["unit"] is String, "figure \(number): \(row)")
                #expect((row["ours"] as? Double).map { $0.isFinite && $0 >= 0 } == true, "figure \(number): \(row)")
            }
            #expect(!(figure["notes"] as? [String] ?? []).isEmpty, "figure \(number) does not say how it was measured")
            if [1, 2, 3, 4, 7].contains(number) {
                #expect(rows.contains { $0["redis"] is Double } == redisMeasured, "figure \(number): Redis measured iff installed: \(rows)")
            }
        }
        if !redisMeasured { #expect((report["redis"] as? String)?.hasPrefix("not installed") == true) }

        let table = bench.standardOutput
        for number in 1...8 { #expect(table.contains("\n\(number)  "), "the table has no row of figure \(number):\n\(table)") }
        #expect(Self.processesMentioning(directory + "/todo-bench.").isEmpty, "todo-bench left processes running")
    }

    @Test(arguments: [
        (["--only", "9"], "--only: there is no figure 9 (1-8)"),
        (["--serial-count", "0"], "--serial-count needs a positive integer, not 0"),
        (["--growth-sizes", "100,x"], "--growth-sizes needs positive integers separated by commas, not 100,x"),
        (["--fanout-seconds"], "--fanout-seconds needs a value"),
        (["--cold-actions", "10", "--cold-tail", "10"], "--cold-tail must be smaller than --cold-actions"),
        (["--frobnicate"], "unknown option --frobnicate; see todo-bench --help"),
    ])
    func badOptionsAreRefusedWithUsageStatus(arguments: [String], message: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bench = try ChildProcess(Binaries.path("todo-bench"), arguments, outputDirectory: directory)
        #expect(try bench.waitForExit() == 2)
        #expect(bench.standardError == "todo-bench: \(message)\n")
        #expect(bench.standardOutput.isEmpty)
    }

    private static func isOnPath(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }

    /// Process ids whose command line contains `text`.
    private static func processesMentioning(_ text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: bytes, as: UTF8.self).contains(text)
        }
    }
}
