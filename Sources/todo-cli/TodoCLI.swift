import CommandLineKit
import Glibc
import SyncCommandLine
import TodoDomain

/// `todo`: one-shot commands and a live `watch` against the todo daemon.
@main
struct TodoCLI {
    /// The tool: its options and every command, in the order `--help` lists them.
    static let tool = CommandLineTool(
        app: TodoApp.self, summary: "keep a todo list in sync with todod",
        commands: [
            .add, .list, .done, .reopen, .edit, .remove, .clear, .expire, .undo, .log, .export, .importItems, .watch,
            .tui, .web, .status, .completions, .manual,
        ],
        epilogue: """
            Commands taking N... apply each number as its own change, in order; a number the
            daemon refuses is reported on its own line and the others still apply.

            Exit status: 0 ok, 1 refused by the daemon, 2 usage error (or no terminal for tui),
            3 daemon unreachable.
            """)

    static func main() async {
        exit(await tool.main(Array(CommandLine.arguments.dropFirst())))
    }
}
