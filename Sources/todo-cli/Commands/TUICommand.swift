import CommandLineKit
import SyncCommandLine
import TerminalUI
import TodoDomain
import TodoTUI

extension Command {
    /// `todo tui`
    static let tui = Command.terminal(
        of: TodoApp.self, summary: "A full-screen live list: move, toggle, add, edit, delete, filter, undo.",
        details: """
            Keys: j/k or arrows move, Space marks done or open again, a adds, e edits, d deletes
            (after y), f cycles the filter (all, open, done), u undoes the last change, ? shows
            the keys, q or Ctrl-C quits. Changes made anywhere show at once. If the daemon goes
            away, the status line says reconnecting… until it is back, then the list catches up.
            NO_COLOR turns colours and attributes off. Needs a terminal on standard input and
            output.
            """,
        run: { client, noColor throws(TerminalError) in try await TodoTUI.run(client: client, noColor: noColor) })
}
