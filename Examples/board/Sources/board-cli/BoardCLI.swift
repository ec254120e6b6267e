import BoardDomain
import CommandLineKit
import Glibc
import SyncProtocol

/// `board`: the kanban board's command line, a command table on `CommandLineKit`.
@main
struct BoardCLI {
    /// The tool: its options and every command, in the order `--help` lists them.
    static let tool = CommandLineTool(
        name: "board", version: "board \(BoardApp.identity.version) (protocol \(WireProtocol.version))",
        options: [
            GlobalOption(
                "--socket", value: "PATH", summary: "the daemon socket",
                help: """
                    boardd's socket (default: $BOARD_SOCKET, else
                    $XDG_RUNTIME_DIR/board/boardd.sock, else /tmp/board-UID/boardd.sock)
                    """),
            GlobalOption(
                "--no-autostart", summary: "never start boardd",
                help: """
                    do not start boardd when nothing answers (also BOARD_NO_AUTOSTART=1);
                    otherwise it is started, unless a systemd unit for it is active
                    """),
        ],
        commands: [.show, .add, .move, .sweep, .tui, .web, .completions],
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
