import BoardDomain
import CommandLineKit
import SyncCommandLine
import SyncStore

extension Command {
    /// `board show [--json]`
    static let show = Command(
        name: "show", arguments: "[--json]",
        summary: "Show every column with its cards (ids shortened to 8 characters; * marks notes).",
        details: """
            --json  one line: the board view model, {"archivedCount":A,"columns":[{"cards":
                    [{"hasNotes":B,"id":ID,"title":T},...],"limit":L,"name":N},...]} (keys
                    sorted, full ids; limit only when set)
            """,
        run: { context, arguments throws(CLIError) in
            let parsed = try CommandArguments(arguments, command: "show", flags: ["--json"])
            guard parsed.positional.isEmpty else { throw .usage("show takes only --json") }
            let board = try await context.withClient(BoardApp.self) { client in
                try await client.get(BoardViewModel.self, params: NoParams()).model
            }
            guard let board else { throw .rejected("boardd sent no board") }
            StandardStream.output.write(
                !parsed.isSet("--json") ? text(of: board) : try JSONOutput.line(board, what: "the board"))
        })

    /// Each column's name and count (`doing (1/3)`), then its cards, one a line.
    private static func text(of board: BoardViewModel) -> String {
        var lines: [String] = []
        for column in board.columns {
            let count = column.limit.map { "\(column.cards.count)/\($0)" } ?? "\(column.cards.count)"
            lines.append("\(column.name) (\(count))")
            lines += column.cards.map { "  \($0.id.prefix(8))  \($0.title)\($0.hasNotes ? " *" : "")" }
        }
        if board.archivedCount > 0 { lines.append("\(board.archivedCount) archived") }
        return lines.map { $0 + "\n" }.joined()
    }
}
