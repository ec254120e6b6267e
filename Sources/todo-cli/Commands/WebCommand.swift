import CommandLineKit
import SyncWeb
import TodoDomain
import TodoWeb

extension Command {
    /// `todo web [--listen ADDR:PORT] [--allow-remote] [--public-origin URL]...`
    static let web = Command.webGateway(
        of: TodoApp.self, shows: "list", allowlist: TodoWeb.allowlist, page: TodoWeb.page,
        details: """
            The page shows the list live and makes the changes todo tui makes; after a daemon
            restart it reconnects and catches up by itself.
            """)
}
