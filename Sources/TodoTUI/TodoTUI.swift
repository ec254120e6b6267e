import SyncClient
import TerminalUI

/// `todo tui`: the main screen over a connected client, on the real terminal.
public enum TodoTUI {
    /// Checks that standard input and output are a terminal, before anything else is done.
    public static func requireTerminal() throws(TerminalError) {
        try SystemTerminal.requireTerminal()
    }

    /// Runs until `q`, Ctrl-C or the end of input; the terminal is restored on return (and on
    /// SIGINT, SIGTERM, SIGHUP and crashes, by `SystemTerminal`). `noColor` is `$NO_COLOR`.
    @MainActor
    public static func run(client: SyncClient, noColor: String?) async throws(TerminalError) {
        let terminal = try SystemTerminal.open()
        defer { terminal.restore() }
        let events = try terminal.events()
        let app = TerminalApp(root: MainScreen(store: .live(client), history: .live(client)), terminal: terminal, colors: TerminalApp.colorsAllowed(noColor: noColor))
        await app.run(events: events)
    }
}
