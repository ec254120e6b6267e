import CommandLineKit
import SyncClient
import TodoDomain

extension Command {
    /// `todo list [--open|--done] [--json]`
    static let list = Command(
        name: "list", arguments: "[--open|--done] [--json]", summary: "Print the items, in creation order.",
        details: """
            --open, --done  only open or only done items (counts always cover every item)
            --json          one line: {"doneCount":D,"items":[{"completed":B,"number":N,"text":T},...],"openCount":O}
                            (keys sorted; the format is stable)
            """,
        run: { context, arguments throws(CLIError) in
            let (filter, flags) = try Arguments.filter(arguments, command: "list", allowing: ["--json"])
            let update = try await context.withClient { client throws(SyncClientError) in
                try await client.get(ListViewModel.self, params: .init(filter: filter))
            }
            guard let model = update.model else { throw .rejected("the daemon sent no list") }
            Output.out(flags.contains("--json") ? try ListRendering.json(model) : ListRendering.text(model, filter: filter))
        })
}
