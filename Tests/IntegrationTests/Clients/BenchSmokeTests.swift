import Foundation
import Glibc
import TestSupport
import Testing

/// The benchmark, run with tiny sizes so that it never rots: it must finish, print a report
/// with every figure (the shared-log figures 9-11 where PostgreSQL can run), and leave no
/// process, network namespace or PostgreSQL server behind, also when interrupted. Its numbers
/// are not checked (no timing assertions); docs/PERFORMANCE.md holds real runs.
@Suite(.blocking) struct BenchSmokeTests {
    @Test(.blocking(.long)) func aSmokeRunReportsEveryFigureAndLeavesNothingRunning() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Searchable by the user postgres, so that the bench's PostgreSQL lives inside it
        // (where the leftover check below looks) rather than in a directory of its own in /tmp.
        chmod(directory, 0o711)
        let reportPath = directory + "/report.json"
        let plots = directory + "/plots"
        // Its own TMPDIR, so that the leftover check below sees this run's processes only.
        let bench = try ChildProcess(
            Binaries.path("todo-bench"), ["--smoke", "--json", reportPath, "--plots", plots],
            environment: ["TMPDIR": directory],
            outputDirectory: directory)
        let status = try bench.waitForExit(timeout: 900)
        try #require(status == 0, "todo-bench exited with \(status); stderr:\n\(bench.standardError)")

        let data = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let figures = try #require(report["figures"] as? [[String: Any]])
        let postgresRuns = Self.postgresCanRun
        let expectedFigures = Array(postgresRuns ? 1...11 : 1...8) + [12, 13]
        #expect(figures.compactMap { $0["figure"] as? Int } == expectedFigures)
        let postgres = report["postgres"] as? String ?? ""
        #expect(
            postgresRuns ? postgres.hasPrefix("postgres (PostgreSQL) 15") : postgres.hasPrefix("not available: "),
            "\(postgres)")
        if !postgresRuns {
            #expect(
                bench.standardError.contains("figure 9 skipped: PostgreSQL not available: "), "\(bench.standardError)")
        }
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
                #expect(
                    rows.contains { $0["redis"] is Double } == redisMeasured,
                    "figure \(number): Redis measured iff installed: \(rows)")
            }
        }
        if !redisMeasured { #expect((report["redis"] as? String)?.hasPrefix("not installed") == true) }

        let table = bench.standardOutput
        for number in expectedFigures {
            #expect(table.contains("\n\(number)  "), "the table has no row of figure \(number):\n\(table)")
        }
        // --plots: a latency picture for each figure with distributions, a ratio picture for
        // each with ratios, each a PNG that gnuplot drew from the data kept beside it.
        var expectedPictures = (postgresRuns ? [3, 7, 9, 13] : [3, 7, 13]).map { "figure\($0)-latency" }
        for figure in figures where (figure["rows"] as? [[String: Any]] ?? []).contains(where: { $0["ratio"] != nil }) {
            expectedPictures.append("figure\(figure["figure"] as? Int ?? 0)-ratios")
        }
        // Figure 2's ratios are to Redis: drawn where Redis was measured.
        if redisMeasured { #expect(expectedPictures.contains("figure2-ratios")) }
        for picture in expectedPictures {
            let png = (try? Data(contentsOf: URL(fileURLWithPath: "\(plots)/\(picture).png"))) ?? Data()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(picture).png is not a PNG")
            #expect(
                bench.standardError.contains("todo-bench: plot: \(plots)/\(picture).png\n"),
                "the run did not name \(picture).png")
            #expect(FileManager.default.fileExists(atPath: "\(plots)/\(picture).gp"))
        }
        #expect(Self.processesMentioning(directory + "/todo-bench.").isEmpty, "todo-bench left processes running")
        #expect(Self.namespaces(of: bench.pid).isEmpty, "todo-bench left network namespaces")
    }

    @Test func plotsWithoutGnuplotAreRefusedBeforeAnyFigureRuns() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bench = try ChildProcess(
            Binaries.path("todo-bench"), ["--smoke", "--plots", directory + "/plots"],
            environment: ["PATH": "/nonexistent"], outputDirectory: directory)
        #expect(try bench.waitForExit(timeout: 120) == 2)
        #expect(
            bench.standardError
                == "todo-bench: cannot find gnuplot (for --plots; apt-get install gnuplot-nox) (looked in PATH)\n")
        #expect(bench.standardOutput.isEmpty)
    }

    /// SIGTERM while the shared-log figures run (PostgreSQL started, network namespaces made,
    /// daemons starting): the bench exits 143 and leaves nothing behind.
    @Test(.enabled(if: postgresCanRun, "PostgreSQL 15 cannot run here (as root it needs the user postgres)"))
    func anInterruptedRunLeavesNothingBehind() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o711)
        let bench = try ChildProcess(
            Binaries.path("todo-bench"), ["--smoke", "--only", "9", "--crosshost-seconds", "60"],
            environment: ["TMPDIR": directory], outputDirectory: directory)
        try eventually(timeout: 120, "the bench never started figure 9; stderr:\n\(bench.standardError)") {
            bench.standardError.contains("figure 9: ") ? true : nil
        }
        bench.send(SIGTERM)
        #expect(try bench.waitForExit(timeout: 60) == 143)
        #expect(Self.processesMentioning(directory + "/todo-bench.").isEmpty, "todo-bench left processes running")
        #expect(Self.namespaces(of: bench.pid).isEmpty, "todo-bench left network namespaces")
        let left =
            (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { $0.hasPrefix("todo-bench.") }
            ?? []
        #expect(left.isEmpty, "todo-bench left its temporary directory: \(left)")
    }

    @Test(arguments: [
        (["--only", "14"], "--only: there is no figure 14 (1-13)"),
        (["--shared-daemons", "2,4"], "--shared-daemons: at most 3 daemons, not 4"),
        (["--join-actions", "100", "--join-tail", "100"], "--join-tail must be smaller than --join-actions"),
        (["--fsync-test-seconds", "-1"], "--fsync-test-seconds needs a whole number (0 or more), not -1"),
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

    /// Whether the bench's private PostgreSQL can run here: Debian's PostgreSQL 15, and as root
    /// the user postgres to run it as.
    static var postgresCanRun: Bool {
        let programs = ["initdb", "pg_ctl", "postgres", "psql", "pg_test_fsync"].map {
            "/usr/lib/postgresql/15/bin/" + $0
        }
        guard programs.allSatisfy({ access($0, X_OK) == 0 }) else { return false }
        return getuid() != 0 || (getpwnam("postgres") != nil && access("/usr/sbin/runuser", X_OK) == 0)
    }

    /// The network namespaces the bench with process id `pid` made (`todo-bench-PID-N`).
    private static func namespaces(of pid: pid_t) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []).filter {
            $0.hasPrefix("todo-bench-\(pid)-")
        }
    }

    private static func isOnPath(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            access("\($0)/\(name)", X_OK) == 0
        }
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
