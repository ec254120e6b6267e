import SyncStore

/// The `--help` text of an app's daemon, from its identity and its options.
enum DaemonHelp {
    /// Where the descriptions of options start.
    private static let descriptionColumn = 29

    /// The whole text: usage, what the daemon serves (`summary`), every option, the defaults
    /// the identity gives, the signals.
    static func text(identity: AppIdentity, summary: String, appOptions: [DaemonOption]) -> String {
        let options =
            DaemonArguments.standardOptions.filter { !["--help", "--version"].contains($0.name) } + appOptions
            + DaemonArguments.standardOptions.filter { ["--help", "--version"].contains($0.name) }
        let usage = "usage: \(identity.daemonName) [OPTION]..."
        let lines = options.flatMap(lines(of:))
        return """
            \(usage)

            \(summary) Serves on a Unix socket until SIGINT or SIGTERM. Every acknowledged
            change is in the journal (DIR/journal.sqlite3, or the PostgreSQL log) before any
            client sees it. Under systemd it takes the socket systemd passes (socket
            activation) and reports readiness, status and watchdog pings.

            \(lines.joined(separator: "\n"))

            Defaults:
              socket    $\(identity.socketVariable), else $XDG_RUNTIME_DIR/\(identity.name)/\(identity.socketFileName),
                        else /tmp/\(identity.name)-UID/\(identity.socketFileName)
              data dir  $STATE_DIRECTORY, else $XDG_STATE_HOME/\(identity.name), else ~/.local/state/\(identity.name)
              postgres  $\(identity.postgresVariable) (none: the SQLite journal in the data directory)

            SIGTERM and SIGINT: stop accepting, finish the commits in flight, say bye to every
            client, exit 0. SIGHUP: log the current status (there is nothing to reload).

            """
    }

    private static func lines(of option: DaemonOption) -> [String] {
        let head = "  " + option.usage
        let padding = String(repeating: " ", count: descriptionColumn)
        guard let first = option.help.first else { return [head] }
        let firstLine =
            head.count < descriptionColumn - 1
            ? head + String(repeating: " ", count: descriptionColumn - head.count) + first
            : head + "\n" + padding + first
        return [firstLine] + option.help.dropFirst().map { padding + $0 }
    }
}
