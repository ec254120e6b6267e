extension TerminalApp {
    /// Runs `root` full screen on the real terminal until `q`, Ctrl-C or the end of input; the
    /// terminal is restored on return (and on SIGINT, SIGTERM, SIGHUP and crashes, by
    /// `SystemTerminal`). `noColor` is `$NO_COLOR`. Every app's `tui` command is this call.
    @MainActor
    public static func runOnSystemTerminal(root: ScreenNode, noColor: String?) async throws(TerminalError) {
        let terminal = try SystemTerminal.open()
        defer { terminal.restore() }
        let events = try terminal.events()
        await TerminalApp(root: root, terminal: terminal, colors: colorsAllowed(noColor: noColor)).run(events: events)
    }
}
