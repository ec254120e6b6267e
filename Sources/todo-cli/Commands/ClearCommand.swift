import CommandLineKit
import SyncClient
import SyncCommandLine
import TodoDomain

extension Command {
    /// `todo clear`
    static let clear = Command(
        name: "clear", arguments: "", summary: "Remove every done item.", details: "",
        run: { context, arguments throws(CLIError) in
            guard arguments.isEmpty else { throw .usage("clear takes no arguments") }
            _ = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
                try await client.dispatch(ClearCompleted())
            }
        })
}
