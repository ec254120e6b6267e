import BoardTUI
import CommandLineKit
import Glibc
import TerminalUI

extension Command {
    /// `board tui`
    static let tui = Command(
        name: "tui", arguments: "", summary: "Open the board in the terminal (? there lists the keys).",
        details: """
            Changes made anywhere show at once; if boardd goes away, the status line says so
            until it is back. NO_COLOR turns colours off. Needs a terminal on standard input
            and output.
            """,
        run: { context, arguments throws(CLIError) in
            guard arguments.isEmpty else { throw .usage("tui takes no arguments") }
            do throws(TerminalError) {
                try BoardTUI.requireTerminal()
            } catch {
                throw .environment("tui: \(error.description)")
            }
            let client = try await context.connect(reconnect: .automatic)
            defer { client.close() }
            let noColor = getenv("NO_COLOR").map { String(cString: $0) }
            do throws(TerminalError) {
                try await BoardTUI.run(client: client, noColor: noColor)
            } catch {
                throw .environment("tui: \(error.description)")
            }
        })
}
