import SyncClient
import TerminalUI

/// `board tui`: the board screen over a connected client, on the real terminal.
public enum BoardTUI {
    /// Runs until `q`, Ctrl-C or the end of input, as `TerminalApp.runOnSystemTerminal` does.
    /// `noColor` is `$NO_COLOR`.
    @MainActor
    public static func run(client: SyncClient, noColor: String?) async throws(TerminalError) {
        try await TerminalApp.runOnSystemTerminal(root: BoardScreen(store: .live(client)), noColor: noColor)
    }
}
