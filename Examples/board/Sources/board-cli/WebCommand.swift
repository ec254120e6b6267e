import BoardDomain
import BoardWeb
import CommandLineKit
import SyncWeb

extension Command {
    /// `board web [--listen ADDR:PORT] [--allow-remote] [--public-origin URL]...`
    static let web = Command.webGateway(
        of: BoardApp.self, shows: "board", allowlist: BoardWeb.allowlist, page: BoardWeb.page,
        details: """
            The page shows the board live and adds, moves and archives cards; after a daemon
            restart it reconnects and catches up by itself.
            """)
}
