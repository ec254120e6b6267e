import BoardDomain
import CommandLineKit

extension Command {
    /// `board add [--column NAME] TITLE...`
    static let add = Command(
        name: "add", arguments: "[--column NAME] TITLE...",
        summary:
            "Add a card with TITLE (the words joined by spaces) at the bottom of NAME (default: the first column).",
        details: "Put a title that starts with - after --. A column at its limit refuses the card.",
        run: { context, arguments throws(CLIError) in
            var words = arguments[...]
            var column: String?
            if words.first == "--column" {
                guard words.count >= 2 else { throw .usage("--column needs a column name") }
                column = words[words.startIndex + 1]
                words = words.dropFirst(2)
            }
            let title = try Arguments.text(Array(words), command: "add")
            _ = try await context.withClient { client in
                try await client.dispatch(AddCard(title: title, column: column))
            }
        })
}
