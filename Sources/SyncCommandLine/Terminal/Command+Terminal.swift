import CommandLineKit
import Glibc
import SyncClient
import SyncStore
import TerminalUI

extension Command {
    /// `TOOL tui`: checks for a terminal on standard input and output (exit 2 without one),
    /// connects to `App`'s daemon reconnecting for as long as it runs, and runs `screen` with
    /// `$NO_COLOR` (see `TerminalApp.runOnSystemTerminal(root:noColor:)`).
    public static func terminal<App: SyncApp>(
        of app: App.Type, name: String = "tui", summary: String, details: String,
        run screen: @escaping @Sendable @MainActor (SyncClient, _ noColor: String?) async throws(TerminalError) -> Void
    ) -> Command {
        Command(
            name: name, arguments: "", summary: summary, details: details,
            run: { context, arguments throws(CLIError) in
                guard arguments.isEmpty else { throw .usage("\(name) takes no arguments") }
                do throws(TerminalError) {
                    try SystemTerminal.requireTerminal()
                } catch {
                    throw .environment("\(name): \(error.description)")
                }
                let client = try await context.connect(to: app, reconnect: .automatic)
                defer { client.close() }
                let noColor = getenv("NO_COLOR").map { String(cString: $0) }
                do throws(TerminalError) {
                    try await screen(client, noColor)
                } catch {
                    throw .environment("\(name): \(error.description)")
                }
            })
    }
}
