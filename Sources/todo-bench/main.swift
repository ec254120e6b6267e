import Foundation
import Glibc

/// `todo-bench`: measures todod against Redis, figure by figure, and todod on a shared log in
/// PostgreSQL, and prints one table and a JSON report. See `BenchOptions.usage` and
/// docs/PERFORMANCE.md.

/// Prints `message` on stderr and exits with `code`.
func exitWithError(_ message: String, code: Int32) -> Never {
    if !InterruptCleanup.isInterrupted { FileHandle.standardError.write(Data("todo-bench: \(message)\n".utf8)) }
    InterruptCleanup.exit(code)
}

/// Lifts the open-files limit to its maximum: a figure opens a thousand connections, and the
/// daemons started here inherit the limit.
func raiseOpenFileLimit() {
    var limit = rlimit()
    if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// The machine as the run found it.
func describeHost(binDirectory: String) -> Report.Host {
    var names = utsname()
    uname(&names)
    let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    var loads = [Double](repeating: 0, count: 3)
    getloadavg(&loads, 3)
    return Report.Host(
        cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), kernel: kernel, loadAverage: loads, binDirectory: binDirectory)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(BenchOptions.usage, terminator: "")
    exit(0)
}
let options: BenchOptions
do {
    options = try BenchOptions.parse(arguments)
} catch {
    exitWithError("\(error)", code: 2)
}
signal(SIGPIPE, SIG_IGN)
InterruptCleanup.install()
raiseOpenFileLimit()
let context: BenchContext
do {
    context = try BenchContext(options: options)
} catch {
    exitWithError("\(error)", code: 1)
}

// Found before the figures run, drawn after them: a missing gnuplot fails at once.
let plots: Plots?
do {
    plots = try options.plotsDirectory.map { directory throws(BenchError) in try Plots(directory: directory) }
} catch {
    context.cleanUp()
    exitWithError("\(error)", code: 2)
}

let figures: [Int: (BenchContext) async throws -> FigureReport] = [
    1: SerialDispatchFigure.run, 2: PipelinedDispatchFigure.run, 3: FanOutFigure.run, 4: IdleMemoryFigure.run,
    5: GrowthFigure.run, 6: ColdStartFigure.run, 7: ProcessFigure.run, 8: StalledSubscriberFigure.run,
    9: CrossHostLatencyFigure.run, 10: SharedLogThroughputFigure.run, 11: ColdJoinFigure.run,
    12: StateMemoryFigure.run, 13: GatewayFanOutFigure.run,
]
var report = Report(
    startedAt: ISO8601DateFormatter().string(from: Date()), host: describeHost(binDirectory: context.binDirectory),
    redis: context.redisSkipReason ?? "measured", postgres: context.postgresSkipReason ?? "measured", options: options)
if context.measuresRedis, let server = Subprocess.findInPath("redis-server") {
    report.redis = RedisVersion.describe(server: server, directory: context.runDirectory)
}
for number in options.figures.sorted() {
    if BenchOptions.sharedLogFigures.contains(number), let reason = context.postgresSkipReason {
        context.progress("figure \(number) skipped: PostgreSQL \(reason)")
        continue
    }
    do {
        report.figures.append(try await figures[number]!(context))
    } catch {
        if !InterruptCleanup.isInterrupted { context.cleanUp() }
        exitWithError("figure \(number): \(error)", code: 1)
    }
}
if InterruptCleanup.isInterrupted { InterruptCleanup.exit(0) }
if let described = context.sharedLogDescription { report.postgres = described }
context.cleanUp()

let json: String
do {
    json = try report.json()
} catch {
    exitWithError("cannot encode the report: \(error)", code: 1)
}
print(report.table())
if let path = options.jsonPath {
    do {
        try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: path))
    } catch {
        exitWithError("cannot write \(path): \(error)", code: 1)
    }
    print("JSON report: \(path)")
} else {
    print(json)
}
// Drawn last: a picture that cannot be drawn loses none of the report.
if let plots {
    do {
        // On stderr, with the progress: stdout may be the JSON report.
        for picture in try plots.draw(report) { context.progress("plot: \(picture)") }
    } catch {
        exitWithError("cannot draw the plots: \(error)", code: 1)
    }
}
