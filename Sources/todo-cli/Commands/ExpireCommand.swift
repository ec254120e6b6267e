import CommandLineKit
import SyncClient
import SyncCommandLine
import TodoDomain

extension Command {
    /// `todo expire SECONDS`
    static let expire = Command(
        name: "expire", arguments: "SECONDS", summary: "Remove the items done more than SECONDS ago; print how many.",
        details: "Runs the daemon's expireDone side effect, on the daemon's clock (0: every done item).",
        run: { context, arguments throws(CLIError) in
            guard arguments.count == 1, let seconds = Int64(arguments[0]), seconds >= 0 else {
                throw .usage("expire needs one whole number of seconds, 0 or more")
            }
            let result = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
                try await client.run(ExpireDone(olderThanSeconds: seconds))
            }
            Output.out("removed \(result.removed) item\(result.removed == 1 ? "" : "s")\n")
        })
}
