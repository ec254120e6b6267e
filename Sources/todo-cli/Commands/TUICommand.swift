import CommandLineKit
import Glibc
import TerminalUI
import TodoTUI

extension Command {
    /// `todo tui`
    static let tui = Command(
        name: "tui", arguments: "", summary: "A full-screen live list: move, toggle, add, edit, delete, filter, undo.",
        details: """
            Keys: j/k or arrows move, Space marks done or open again, a adds, e edits, d deletes
            (after y), f cycles the filter (all, open, done), u undoes the last change, ? shows
            the keys, q or Ctrl-C quits. Changes made anywhere show at once. If the daemon goes
            away, the status line says reconnecting… until it is back, then the list catches up.
            NO_COLOR turns colours and attributes off. Needs a terminal on standard input and
            output.
            """,
        run: { context, arguments throws(CLIError) in
            guard arguments.isEmpty else { throw .usage("tui takes no arguments") }
            do throws(TerminalError) {
                try TodoTUI.requireTerminal()
            } catch {
                throw .environment("tui: \(error.description)")
            }
            let client = try await context.connect(reconnect: .automatic)
            defer { client.close() }
            let noColor = getenv("NO_COLOR").map { String(cString: $0) }
            do throws(TerminalError) {
                try await TodoTUI.run(client: client, noColor: noColor)
            } catch {
                throw .environment("tui: \(error.description)")
            }
        })
}
