import Glibc

/// What the log says while a shared log's database is away: one line when it goes, one when
/// it is back and a commit or a read worked again (how long it was away, how many calls
/// failed meanwhile), and between them at most one reminder every `reminderSeconds`, however
/// many dispatches fail. Loop-confined; not `Sendable`.
struct SharedLogOutage {
    /// How often a long outage is logged again.
    static var reminderSeconds: Int64 { 30 }

    private let logger: Logger
    /// When the outage began (monotonic milliseconds), `nil` while the database answers.
    private var since: Int64?
    private var failures = 0
    private var lastLine: Int64 = 0

    /// An outage log writing to `logger`.
    init(logger: Logger) {
        self.logger = logger
    }

    /// A call to the database failed because of `problem`.
    mutating func failed(_ problem: String) {
        let now = Self.now()
        failures += 1
        guard let since else {
            since = now
            lastLine = now
            logger.log(
                .warning, "the shared log's database is unreachable (\(problem)); reads go on, changes wait for it")
            return
        }
        guard now - lastLine >= Self.reminderSeconds * 1000 else { return }
        lastLine = now
        logger.log(
            .warning,
            "the shared log's database is still unreachable after \((now - since) / 1000) s (\(failures.counting("failed call"))); last: \(problem)"
        )
    }

    /// A commit or a read worked: the outage, if any, is over.
    mutating func succeeded() {
        guard let since else { return }
        let away = Double(Self.now() - since) / 1000
        logger.log(
            .info,
            "the shared log's database is reachable again and works, after \(away.formatted1) s away (\(failures.counting("failed call")) meanwhile)"
        )
        self.since = nil
        failures = 0
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
