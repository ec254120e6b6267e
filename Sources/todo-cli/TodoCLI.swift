import Glibc
import SyncClient
import SyncProtocol
import TodoDomain

/// `todo`: one-shot commands and a live `watch` against the todo daemon.
@main
struct TodoCLI {
    /// Every command, in the order `--help` lists them.
    static let commands: [Command] = [.add, .list, .done, .reopen, .edit, .remove, .clear, .expire, .undo, .log, .export, .importItems, .watch, .tui, .status, .completions]

    static func main() async {
        do {
            try await run(Array(CommandLine.arguments.dropFirst()))
            exit(0)
        } catch {
            Output.error(error.message)
            if case .usage = error { Output.error("run `todo --help` for usage") }
            exit(error.exitCode)
        }
    }

    private static func run(_ arguments: [String]) async throws(CLIError) {
        var socketOption: String?
        var mayStartDaemon = !DaemonAutostart.isForbidden(for: TodoApp.identity)
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst()
            switch first {
            case "--socket":
                guard let path = rest.first, !path.isEmpty else { throw .usage("--socket needs a path") }
                socketOption = path
                rest = rest.dropFirst()
            case _ where first.hasPrefix("--socket="):
                let path = String(first.dropFirst("--socket=".count))
                guard !path.isEmpty else { throw .usage("--socket needs a path") }
                socketOption = path
            case "--no-autostart":
                mayStartDaemon = false
            case "--help", "-h":
                Output.out(help)
                return
            case "--version":
                Output.out("todo \(TodoApp.identity.version) (protocol \(WireProtocol.version))\n")
                return
            default:
                throw .usage("unknown option \(first)")
            }
        }
        guard let name = rest.first else { throw .usage("no command given") }
        guard let command = commands.first(where: { $0.name == name }) else { throw .usage("unknown command \(name)") }
        let commandArguments = Array(rest.dropFirst())
        if commandArguments.first == "--help" || commandArguments.first == "-h" {
            Output.out(command.help)
            return
        }
        try await command.run(CommandContext(socketOption: socketOption, mayStartDaemon: mayStartDaemon), commandArguments)
    }

    private static var help: String {
        let width = commands.map { $0.name.count + 1 + $0.arguments.count }.max() ?? 0
        let table = commands.map { command in
            let left = command.name + (command.arguments.isEmpty ? "" : " \(command.arguments)")
            return "  " + left + String(repeating: " ", count: width - left.count + 2) + command.summary
        }
        return """
            usage: todo [--socket PATH] [--no-autostart] COMMAND [ARGUMENTS]

            Commands:
            \(table.joined(separator: "\n"))

            Options (before the command):
              --socket PATH  the daemon's socket (default: $TODO_SOCKET, else
                             $XDG_RUNTIME_DIR/todo/todod.sock, else /tmp/todo-UID/todod.sock)
              --no-autostart do not start todod when nothing answers (also TODO_NO_AUTOSTART=1);
                             otherwise it is started, unless a systemd unit for it is active
              --help         this help; `todo COMMAND --help` for one command
              --version      the version

            Commands taking N... apply each number as its own change, in order; a number the
            daemon refuses is reported on its own line and the others still apply.

            Exit status: 0 ok, 1 refused by the daemon, 2 usage error (or no terminal for tui),
            3 daemon unreachable.

            """
    }
}
