/// Figure 4: memory per idle connection. The server's resident set (`VmRSS`) before and after
/// opening many connections that then sit idle: each said hello (todod) or PING (Redis).
enum IdleMemoryFigure {
    /// Seconds the server is left to settle before each reading.
    static let settleSeconds = 0.5

    /// Measures the figure (starting and stopping its own servers) and returns its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let count = context.options.idleConnections
        var report = FigureReport(figure: 4, title: "Memory per idle connection")
        context.progress("figure 4: \(count) idle connections to todod")
        let daemon = try TodoDaemon(context, directory: try context.directory("figure4-todod"))
        let ours = try measure(count: count, server: daemon.process) { () throws(BenchError) -> AnyObject in
            try daemon.rawConnection()
        }
        try daemon.stop()

        var redisGrowth: Double?
        if context.measuresRedis {
            context.progress("figure 4: \(count) idle connections to Redis")
            let redis = try RedisServer(context, directory: try context.directory("figure4-redis"))
            let theirs = try measure(count: count, server: redis.process) { () throws(BenchError) -> AnyObject in
                let socket = try RESPSocket(path: redis.socketPath)
                guard try socket.call(["PING"]) == .simple("PONG") else {
                    throw BenchError.unexpectedReply(from: "redis-server", reply: "no PONG")
                }
                return socket
            }
            try redis.stop()
            redisGrowth = theirs.perConnection
            report.details["redisRSSBeforeBytes"] = Double(theirs.before)
            report.details["redisRSSAfterBytes"] = Double(theirs.after)
            report.details["redisDataGrowthPerConnectionBytes"] = theirs.dataPerConnection
        }
        var row = ResultRow.versusRedis(
            "RSS growth per idle connection", unit: "bytes", ours: ours.perConnection, redis: redisGrowth,
            higherIsBetter: false, targetRatio: nil)
        row.target = "<= 4096 bytes"
        row.met = ours.perConnection <= 4096
        report.rows.append(row)
        report.details["tododRSSBeforeBytes"] = Double(ours.before)
        report.details["tododRSSAfterBytes"] = Double(ours.after)
        report.details["tododDataGrowthPerConnectionBytes"] = ours.dataPerConnection
        report.notes = [
            "VmRSS from /proc/PID/status after one warm connection and \(settleSeconds) s, then after \(count) more connections (each greeted: hello/welcome for todod, PING/PONG for Redis) and \(settleSeconds) s; growth divided by \(count). DataGrowthPerConnectionBytes is the same for VmData (memory allocated, resident or not)."
        ]
        return report
    }

    /// The server's resident set before and after opening `count` connections with `open`.
    private static func measure(count: Int, server: Subprocess, open: () throws(BenchError) -> AnyObject)
        throws(BenchError) -> (before: Int, after: Int, perConnection: Double, dataPerConnection: Double)
    {
        let warm = try open()
        MonotonicClock.sleep(seconds: settleSeconds)
        let before = try server.residentBytes()
        let dataBefore = try server.statusBytes("VmData")
        var connections: [AnyObject] = [warm]
        for _ in 0..<count { connections.append(try open()) }
        MonotonicClock.sleep(seconds: settleSeconds)
        let after = try server.residentBytes()
        let dataAfter = try server.statusBytes("VmData")
        withExtendedLifetime(connections) {}
        return (before, after, Double(after - before) / Double(count), Double(dataAfter - dataBefore) / Double(count))
    }
}
