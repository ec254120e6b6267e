/// A daemon's own count of its commits, from the line it logs when it stops:
///
/// ```
/// stopped at version V; N actions in M commits (A per commit, L on the loop thread[, O overtaken by other daemons])
/// ```
/// (the overtaken part with a shared log only). Counted over the daemon's whole run.
struct CommitCounts {
    /// Actions committed (each once, however often its batch was overtaken first).
    var actions: Int
    /// Commits that held at least one action.
    var commits: Int
    /// Of those, the ones made on the loop thread.
    var onLoopThread: Int
    /// Appends a shared log refused because another daemon had appended first (each was rebased
    /// and sent again); 0 for a daemon's own journal.
    var overtaken: Int

    /// Actions per commit.
    var actionsPerCommit: Double { commits > 0 ? Double(actions) / Double(commits) : 0 }

    /// The counts of the last stop line in `log`, or `nil` when it has none (a daemon that
    /// committed nothing logs only `stopped at version V`).
    init?(log: String) {
        guard let line = log.split(separator: "\n").last(where: { $0.contains(" per commit, ") }),
            let semicolon = line.firstIndex(of: ";")
        else { return nil }
        let words = line[line.index(after: semicolon)...].split(whereSeparator: { " (),".contains($0) })
        func number(before noun: String) -> Int? {
            guard let index = words.firstIndex(where: { $0.hasPrefix(noun) }), index > 0 else { return nil }
            return Int(words[index - 1])
        }
        guard let actions = number(before: "action"), let commits = number(before: "commit"),
            let onLoop = words.firstIndex(of: "on").flatMap({ $0 > 0 ? Int(words[$0 - 1]) : nil })
        else { return nil }
        self.actions = actions
        self.commits = commits
        onLoopThread = onLoop
        overtaken = number(before: "overtaken") ?? 0
    }

    /// Counts added up (several daemons).
    init(adding counts: [CommitCounts]) {
        actions = counts.reduce(0) { $0 + $1.actions }
        commits = counts.reduce(0) { $0 + $1.commits }
        onLoopThread = counts.reduce(0) { $0 + $1.onLoopThread }
        overtaken = counts.reduce(0) { $0 + $1.overtaken }
    }
}
