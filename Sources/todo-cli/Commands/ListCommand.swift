import CommandLineKit
import SyncClient
import SyncCommandLine
import TodoDomain

extension Command {
    /// `todo list [--open|--done] [--at VERSION] [--json]`
    static let list = Command(
        name: "list", arguments: "[--open|--done] [--at VERSION] [--json]",
        summary: "Print the items, in creation order.",
        details: """
            --open, --done  only open or only done items (counts always cover every item)
            --at VERSION    the list as it was at that state version (todo log shows the
                            versions); rebuilt by the daemon from its journal
            --json          one line: {"doneCount":D,"items":[{"completed":B,"number":N,"text":T},...],"openCount":O}
                            (keys sorted; the format is stable)
            """,
        run: { context, arguments throws(CLIError) in
            let parsed = try CommandArguments(
                arguments, command: "list", flags: Arguments.filterFlags.union(["--json"]),
                options: ["--at": "a version (see todo log)"])
            try Arguments.none(parsed, command: "list")
            let filter = try Arguments.filter(parsed, command: "list")
            let version = try parsed.integer(of: "--at", in: 0...Int.max).map(UInt64.init)
            let update = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
                if let version {
                    return try await client.get(ListViewModel.self, params: .init(filter: filter), at: version)
                }
                return try await client.get(ListViewModel.self, params: .init(filter: filter))
            }
            guard let model = update.model else { throw .rejected("the daemon sent no list") }
            Output.out(
                parsed.isSet("--json") ? try ListRendering.json(model) : ListRendering.text(model, filter: filter))
        })
}
