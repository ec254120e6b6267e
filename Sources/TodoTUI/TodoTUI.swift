import SyncClient
import TerminalUI

/// `todo tui`: the main screen over a connected client, on the real terminal.
public enum TodoTUI {
    /// Runs until `q`, Ctrl-C or the end of input, as `TerminalApp.runOnSystemTerminal` does.
    /// `noColor` is `$NO_COLOR`.
    @MainActor
    public static func run(client: SyncClient, noColor: String?) async throws(TerminalError) {
        try await TerminalApp.runOnSystemTerminal(
            root: MainScreen(store: .live(client), history: .live(client)), noColor: noColor)
    }
}
