import BoardDomain
import SyncDaemon

/// `boardd`: the board daemon, the framework's standard daemon with one option of its own,
/// which turns into a durable schedule.
DaemonCommand<BoardApp>(
    summary: "Serves the kanban board.",
    appOptions: [
        DaemonOption(
            "--sweep-after", argument: "DAYS",
            help: ["archive cards that have been in done for more than DAYS days", "(0: at once; default: never)"])
    ],
    schedules: { arguments throws(DaemonUsageError) in
        guard let days = try arguments.integer(of: "--sweep-after", in: 0...SweepDoneCards.maximumDays) else {
            return []
        }
        return [ScheduledSweep(days: days)]
    }
).run()
