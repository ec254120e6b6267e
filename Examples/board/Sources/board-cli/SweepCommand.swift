import BoardDomain
import CommandLineKit
import SyncCommandLine

extension Command {
    /// `board sweep DAYS [--json]`
    static let sweep = Command(
        name: "sweep", arguments: "DAYS [--json]",
        summary: "Archive the cards that have been in done for more than DAYS days (0: all of them).",
        details: """
            boardd runs the sweep side effect: it reads its clock, archives the cards due in one
            change (one undo reverts it), and answers how many.
            --json  one line: {"archived":N}
            """,
        run: { context, arguments throws(CLIError) in
            let parsed = try CommandArguments(arguments, command: "sweep", flags: ["--json"])
            guard let days = Int(try parsed.exactly(1, "DAYS, a number of days")[0]) else {
                throw .usage("sweep needs DAYS, a number of days")
            }
            let result = try await context.withClient(BoardApp.self) { client in
                try await client.run(SweepDoneCards(days: days))
            }
            let archived = "archived \(result.archived) card\(result.archived == 1 ? "" : "s")\n"
            StandardStream.output.write(
                parsed.isSet("--json") ? try JSONOutput.line(result, what: "the sweep's result") : archived)
        })
}
