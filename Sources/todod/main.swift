import SyncDaemon
import TodoDomain

/// `todod`: the todo daemon, the framework's standard daemon with one option of its own.
DaemonCommand<TodoApp>(
    summary: "Serves the todo list.",
    appOptions: [
        DaemonOption(
            "--clear-done-after", argument: "SECONDS",
            help: ["remove items that have been done this long (default: never)"])
    ],
    schedules: { arguments throws(DaemonUsageError) in
        guard let seconds = try arguments.integer(of: "--clear-done-after", in: 1...100 * 365 * 86_400) else {
            return []
        }
        return [ClearDoneItems(retentionMilliseconds: Int64(seconds) * 1000)]
    }
).run()
