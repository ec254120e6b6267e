import BoardDomain
import BoardTUI
import CommandLineKit
import SyncCommandLine
import TerminalUI

extension Command {
    /// `board tui`
    static let tui = Command.terminal(
        of: BoardApp.self, summary: "Open the board in the terminal (? there lists the keys).",
        details: """
            Changes made anywhere show at once; if boardd goes away, the status line says so
            until it is back. NO_COLOR turns colours off. Needs a terminal on standard input
            and output.
            """,
        run: { client, noColor throws(TerminalError) in try await BoardTUI.run(client: client, noColor: noColor) })
}
