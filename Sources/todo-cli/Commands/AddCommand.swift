import CommandLineKit
import SyncClient
import SyncCommandLine
import TodoDomain

extension Command {
    /// `todo add TEXT...`
    static let add = Command(
        name: "add", arguments: "TEXT...", summary: "Add an open item with TEXT (the words joined by spaces).",
        details:
            "Text is trimmed, must not be empty, and may have at most \(TodoText.maximumLength) characters.\nPut text that starts with - after --.",
        run: { context, arguments throws(CLIError) in
            let text = try Arguments.text(arguments, command: "add")
            _ = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
                try await client.dispatch(AddItem(text: text))
            }
        })
}
