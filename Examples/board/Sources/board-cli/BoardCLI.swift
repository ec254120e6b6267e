import BoardDomain
import Glibc
import SyncClient

/// `board`: the kanban board's command line. Reads `--socket PATH` (default: the board app's
/// socket, `$BOARD_SOCKET` or the per-user one), then runs one command from `BoardCommand.all`.
@main
enum BoardCLI {
    static func main() async {
        do {
            try await run(Array(CommandLine.arguments.dropFirst()))
        } catch let error as BoardCLIError {
            printError(error.description)
            exit(error.status)
        } catch let error as SyncClientError {
            if case .server(_, let message) = error { printError(message) } else { printError(error.description) }
            exit(1)
        } catch {
            printError(String(describing: error))
            exit(1)
        }
    }

    static var help: String {
        let width = BoardCommand.all.map(\.name.count).max() ?? 0
        let table = BoardCommand.all.map { "  \($0.name + String(repeating: " ", count: width - $0.name.count))  \($0.summary)" }
        return """
            usage: board [--socket PATH] COMMAND [ARGUMENTS]

            A kanban board kept by boardd. PATH defaults to $BOARD_SOCKET, else
            $XDG_RUNTIME_DIR/board/boardd.sock, else /tmp/board-UID/boardd.sock.

            \(table.joined(separator: "\n"))

            board COMMAND --help shows a command's usage.

            """
    }

    private static func run(_ arguments: [String]) async throws {
        var words = arguments[...]
        var socket: String?
        if words.first == "--socket" {
            guard words.count >= 2 else { throw BoardCLIError.usage("--socket needs a path") }
            socket = words[words.startIndex + 1]
            words = words.dropFirst(2)
        }
        guard let name = words.first, name != "--help", name != "-h" else {
            print(help, terminator: "")
            return
        }
        guard let command = BoardCommand.all.first(where: { $0.name == name }) else {
            throw BoardCLIError.usage("unknown command \(name); see board --help")
        }
        let rest = Array(words.dropFirst())
        if rest.contains("--help") {
            print(command.help, terminator: "")
            return
        }
        let client = try await SyncClient.connect(to: BoardApp.identity, socketPath: socket, reconnect: .giveUp(after: .seconds(10)))
        defer { client.close() }
        try await command.run(client, rest)
    }

    private static func printError(_ line: String) {
        let bytes = Array("board: \(line)\n".utf8)
        _ = write(2, bytes, bytes.count)
    }
}
