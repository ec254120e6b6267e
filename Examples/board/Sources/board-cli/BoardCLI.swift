import BoardDomain
import CommandLineKit
import Glibc
import SyncCommandLine

/// `board`: the kanban board's command line, a command table on `CommandLineKit`.
@main
struct BoardCLI {
    /// The tool: the standard client options and every command, in the order `--help` lists them.
    static let tool = CommandLineTool(
        app: BoardApp.self, summary: "work a kanban board kept by boardd",
        commands: [.show, .add, .move, .sweep, .tui, .web, .completions, .manual],
        epilogue: """
            A kanban board kept by boardd. Cards are named by their id or a unique start of
            it (board show prints the first 8 characters).

            Exit status: 0 ok, 1 refused by boardd, 2 usage error (or no terminal for tui),
            3 boardd unreachable, or the socket is another app's daemon.
            """)

    static func main() async {
        exit(await tool.main(Array(CommandLine.arguments.dropFirst())))
    }
}
