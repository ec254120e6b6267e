import CommandLineKit
import Glibc
import SyncProtocol
import TodoDomain

/// `todo`: one-shot commands and a live `watch` against the todo daemon.
@main
struct TodoCLI {
    /// The tool: its options and every command, in the order `--help` lists them.
    static let tool = CommandLineTool(
        name: "todo", version: "todo \(TodoApp.identity.version) (protocol \(WireProtocol.version))",
        options: [
            GlobalOption(
                "--socket", value: "PATH", summary: "the daemon socket",
                help: """
                    the daemon's socket (default: $TODO_SOCKET, else
                    $XDG_RUNTIME_DIR/todo/todod.sock, else /tmp/todo-UID/todod.sock)
                    """),
            GlobalOption(
                "--no-autostart", summary: "never start todod",
                help: """
                    do not start todod when nothing answers (also TODO_NO_AUTOSTART=1);
                    otherwise it is started, unless a systemd unit for it is active
                    """),
        ],
        commands: [
            .add, .list, .done, .reopen, .edit, .remove, .clear, .expire, .undo, .log, .export, .importItems, .watch,
            .tui, .web, .status, .completions,
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
