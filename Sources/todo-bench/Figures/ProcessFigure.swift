/// Figure 7: `todo add x` as a whole process (exec, connect, hello, durable dispatch, exit)
/// against `redis-cli -s SOCK SET k v` with `appendfsync always`.
enum ProcessFigure {
    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let runs = context.options.processRuns
        var report = FigureReport(figure: 7, title: "One command as a whole process")
        context.progress(
            "figure 7: \(runs) runs of todo add x" + (context.measuresRedis ? " and of redis-cli SET" : ""))
        let daemon = try TodoDaemon(context, directory: try context.directory("figure7-todod"))
        let todo = Command(
            executable: context.binary("todo"), arguments: ["--socket", daemon.socketPath, "add", "x"],
            environment: ["TODO_NO_AUTOSTART": "1"])
        var redis: RedisServer?
        var redisCLI: Command?
        if context.measuresRedis {
            let server = try RedisServer(context, directory: try context.directory("figure7-redis"))
            redisCLI = Command(
                executable: try server.cliPath(), arguments: ["-s", server.socketPath, "SET", "k", "v"],
                environment: [:])
            redis = server
        }
        for _ in 0..<3 {
            _ = try todo.timedRun()
            _ = try redisCLI?.timedRun()
        }
        var ours: [Double] = []
        var theirs: [Double] = []
        // Alternated, so that both see the same moments of the machine's other load.
        for _ in 0..<runs {
            ours.append(try todo.timedRun())
            if let redisCLI { theirs.append(try redisCLI.timedRun()) }
        }
        try daemon.stop()
        try redis?.stop()
        let oursMs = Distribution(ours)
        let theirsMs = redis == nil ? nil : Distribution(theirs)
        report.rows.append(
            .versusRedis(
                "todo add x, median", unit: "ms", ours: oursMs.p50, redis: theirsMs?.p50, higherIsBetter: false,
                targetRatio: 1.5))
        report.rows.append(
            .versusRedis(
                "todo add x, mean", unit: "ms", ours: oursMs.mean, redis: theirsMs?.mean, higherIsBetter: false,
                targetRatio: nil))
        report.tails = [LatencyTail("todo add x", oursMs)] + (theirsMs.map { [LatencyTail("redis-cli SET", $0)] } ?? [])
        report.details["todoP90Ms"] = oursMs.p90
        if let theirsMs { report.details["redisCliP90Ms"] = theirsMs.p90 }
        report.notes = [
            "Wall time from posix_spawn to waitpid of `todo --socket SOCK add x` (TODO_NO_AUTOSTART=1) and `redis-cli -s SOCK SET k v`, \(runs) runs each, alternated, after 3 unmeasured; output to /dev/null; every run must exit 0."
        ]
        return report
    }

    /// A command line timed as a whole process.
    private struct Command {
        let executable: String
        let arguments: [String]
        let environment: [String: String]

        /// Runs the command to its end; returns its wall time in milliseconds.
        func timedRun() throws(BenchError) -> Double {
            let started = MonotonicClock.now()
            let child = try Subprocess(executable, arguments, environment: environment, outputDirectory: nil)
            let code = child.wait()
            let elapsed = Double(MonotonicClock.now() - started) / 1e6
            guard code == 0 else {
                throw .process(name: child.name, reason: "exited with \(code) (\(arguments.joined(separator: " ")))")
            }
            return elapsed
        }
    }
}
