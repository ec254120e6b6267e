import ManualPage
import SyncStore

/// The `--help` text of an app's daemon, from its identity and its options.
enum DaemonHelp {
    /// Where the descriptions of options start.
    private static let descriptionColumn = 29

    /// The whole text: usage, what the daemon serves (`summary`), every option, the defaults
    /// the identity gives, the signals.
    static func text(identity: AppIdentity, summary: String, appOptions: [DaemonOption]) -> String {
        let lines = options(appOptions).flatMap(lines(of:))
        return """
            usage: \(identity.daemonName) [OPTION]...

            \(description(summary).joined(separator: "\n"))

            \(lines.joined(separator: "\n"))

            Defaults:
            \(defaults(identity).map { "  " + $0.term.padding(9) + " " + $0.lines.joined(separator: "\n            ") }.joined(separator: "\n"))

            \(signals.joined(separator: "\n"))

            """
    }

    /// The manual page (section 8), from the same options and text as `--help`.
    static func manualPage(identity: AppIdentity, summary: String, appOptions: [DaemonOption]) -> ManualPage {
        let join = { (lines: [String]) in lines.joined(separator: " ") }
        return ManualPage(
            name: identity.daemonName, section: 8, summary: summary, synopsis: ["\(identity.daemonName) [OPTION]..."],
            sections: [
                ManualPage.Section("DESCRIPTION", paragraphs: [join(description(summary))]),
                ManualPage.Section(
                    "OPTIONS", entries: options(appOptions).map { ManualPage.Entry($0.usage, [join($0.help)]) }),
                ManualPage.Section(
                    "DEFAULTS", entries: defaults(identity).map { ManualPage.Entry($0.term, [join($0.lines)]) }),
                ManualPage.Section("SIGNALS", paragraphs: [join(signals)]),
            ],
            source: "\(identity.daemonName) \(identity.version)")
    }

    /// The standard options, the app's, then `--help`, `--version` and `--manual`.
    private static func options(_ appOptions: [DaemonOption]) -> [DaemonOption] {
        let last = ["--help", "--version", "--manual"]
        return DaemonArguments.standardOptions.filter { !last.contains($0.name) } + appOptions
            + DaemonArguments.standardOptions.filter { last.contains($0.name) }
    }

    private static func description(_ summary: String) -> [String] {
        [
            "\(summary) Serves on a Unix socket until SIGINT or SIGTERM. Every acknowledged",
            "change is in the journal (DIR/journal.sqlite3, or the PostgreSQL log) before any",
            "client sees it. Under systemd it takes the socket systemd passes (socket",
            "activation) and reports readiness, status and watchdog pings.",
        ]
    }

    /// Where the socket, the data directory and the shared log are when no option says.
    private static func defaults(_ identity: AppIdentity) -> [ManualPage.Entry] {
        let name = identity.name
        return [
            ManualPage.Entry(
                "socket",
                [
                    "$\(identity.socketVariable), else $XDG_RUNTIME_DIR/\(name)/\(identity.socketFileName),",
                    "else /tmp/\(name)-UID/\(identity.socketFileName)",
                ]),
            ManualPage.Entry(
                "data dir", ["$STATE_DIRECTORY, else $XDG_STATE_HOME/\(name), else ~/.local/state/\(name)"]),
            ManualPage.Entry(
                "postgres", ["$\(identity.postgresVariable) (none: the SQLite journal in the data directory)"]),
        ]
    }

    private static let signals = [
        "SIGTERM and SIGINT: stop accepting, finish the commits in flight, say bye to every",
        "client, exit 0. SIGHUP: log the current status (there is nothing to reload).",
    ]

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

extension String {
    /// This text followed by spaces up to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
