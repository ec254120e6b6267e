import BoardDomain
import CommandLineKit
import SyncCommandLine

extension Command {
    /// `board add [--column NAME] TITLE...`
    static let add = Command(
        name: "add", arguments: "[--column NAME] TITLE...",
        summary:
            "Add a card with TITLE (the words joined by spaces) at the bottom of NAME (default: the first column).",
        details: "Put a title that starts with - after --. A column at its limit refuses the card.",
        run: { context, arguments throws(CLIError) in
            let parsed = try CommandArguments(arguments, command: "add", options: ["--column": "a column name"])
            let title = try parsed.text()
            let column = parsed.value(of: "--column")
            _ = try await context.withClient(BoardApp.self) { client in
                try await client.dispatch(AddCard(title: title, column: column))
            }
        })
}
