import CommandLineKit
import Glibc
import SyncClient
import SyncCommandLine
import SyncProtocol
import SyncStore
import TodoDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Command {
    /// `todo log [-n N] [--json]`
    static let log = Command(
        name: "log", arguments: "[-n N] [--json]",
        summary: "Show the most recent changes (default 10, at most 1000), oldest first.",
        details: """
            Each line: version, local time, who (uid and pid of the client; "todod" for the daemon's
            own changes), action and payload.
            --json  one line: [{"acceptedAt":MS,"name":S,"payload":{...},"pid":P,"uid":U,"version":V},...]
                    (keys sorted; uid and pid absent for the daemon's own changes; the format is stable)
            """,
        run: { context, arguments throws(CLIError) in
            let parsed = try CommandArguments(arguments, command: "log", flags: ["--json"], options: ["-n": "N"])
            try Arguments.none(parsed, command: "log")
            let limit = try parsed.integer(of: "-n", in: 1...HistoryRequest.maximumLimit) ?? 10
            let entries = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
                try await client.history(limit: limit)
            }
            if parsed.isSet("--json") {
                Output.out(try HistoryRendering.json(entries))
            } else {
                Output.out(entries.isEmpty ? "no changes yet\n" : entries.map(HistoryRendering.line).joined())
            }
        })

    /// `todo undo`
    static let undo = Command(
        name: "undo", arguments: "", summary: "Revert the most recent change not yet undone, whoever made it.",
        details: """
            Undoing again goes further back (up to \(TodoState.undoDepth) changes); an undo is never itself undone.
            It reverts the change that is the newest when it looks; if another change lands before the undo
            does (another shell, another host), nothing is undone and it says so.
            """,
        run: { context, arguments throws(CLIError) in
            guard arguments.isEmpty else { throw .usage("undo takes no arguments") }
            let summary = try await context.withClient(TodoApp.self) { client throws(SyncClientError) -> String? in
                guard let target = try await client.get(UndoViewModel.self, params: NoParams()).model?.next else {
                    return nil
                }
                _ = try await client.dispatch(UndoLast(reverting: target))
                return target.summary
            }
            guard let summary else { throw .rejected(String(describing: TodoRejection.nothingToUndo)) }
            Output.out("undid: \(ListRendering.printable(summary))\n")
        })
}

/// How `log` shows journal entries.
enum HistoryRendering {
    /// `  12  2026-11-29 23:58:02  uid 1000 pid 4242  add {"text":"buy milk"}`; with a shared
    /// log, the host that accepted it follows: `uid 1000 pid 4242 on alpha`.
    static func line(_ entry: HistoryEntry) -> String {
        let who =
            (entry.uid.map { uid in "uid \(uid) pid \(entry.pid.map(String.init) ?? "?")" } ?? "todod")
            + (entry.host.map { " on \(ListRendering.printable($0))" } ?? "")
        let payload = (try? WireJSON.encode(entry.payload)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return
            "\(entry.version)  \(localTime(entry.acceptedAt))  \(who)  \(entry.name) \(ListRendering.printable(payload))\n"
    }

    /// The entries as one line of JSON, keys sorted.
    static func json(_ entries: [HistoryEntry]) throws(CLIError) -> String {
        try JSONOutput.line(entries, what: "the log")
    }

    /// `milliseconds` since the Unix epoch as local time, `2026-11-29 23:58:02`.
    static func localTime(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
