import CommandLineKit
import SyncClient
import SyncCommandLine
import TodoDomain

extension Command {
    /// `todo edit N TEXT...`
    static let edit = Command(
        name: "edit", arguments: "N TEXT...", summary: "Replace the text of item N.",
        details: "Text is trimmed, must not be empty, and may have at most \(TodoText.maximumLength) characters.",
        run: { context, arguments throws(CLIError) in
            guard let first = arguments.first else { throw .usage("edit needs an item number and text") }
            let number = try Arguments.numbers([first], command: "edit")[0]
            let text = try Arguments.text(Array(arguments.dropFirst()), command: "edit")
            _ = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
                try await client.dispatch(EditItem(number: number, text: text))
            }
        })
}
