import CommandLineKit
import Glibc
import SyncClient
import SyncCommandLine
import TodoDomain

extension Command {
    /// `todo watch [--open|--done]`
    static let watch = Command(
        name: "watch", arguments: "[--open|--done]",
        summary: "Print the list, and again on every change, until interrupted.",
        details: """
            On a terminal the screen is redrawn; otherwise each rendering is printed after a line
            "--- version V ---". If the daemon goes away (a restart), watch says so on stderr,
            reconnects and goes on. Stops with status 0 on SIGINT or SIGTERM.
            """,
        run: { context, arguments throws(CLIError) in
            let parsed = try CommandArguments(arguments, command: "watch", flags: Arguments.filterFlags)
            try Arguments.none(parsed, command: "watch")
            let filter = try Arguments.filter(parsed, command: "watch")
            stopCleanlyOnSignals()
            let redraw = isatty(1) == 1
            try await context.withClient(TodoApp.self, reconnect: .automatic) { client throws(SyncClientError) in
                let reporter = Task { await reportConnectionChanges(client) }
                defer { reporter.cancel() }
                do {
                    for try await update in client.subscribe(ListViewModel.self, params: .init(filter: filter)) {
                        guard let model = update.model else { continue }
                        let body = ListRendering.text(model, filter: filter)
                        if redraw {
                            Output.out("\u{1B}[H\u{1B}[2J" + body + "(version \(update.version); Ctrl-C to stop)\n")
                        } else {
                            Output.out("--- version \(update.version) ---\n" + body)
                        }
                    }
                } catch let error as SyncClientError {
                    throw error
                } catch {
                    throw .protocolViolation(String(describing: error))
                }
                throw .connectionClosed(.subscriptionEnded)
            }
        })

    /// Tells stderr when the connection is lost and when it is back (not every attempt).
    private static func reportConnectionChanges(_ client: SyncClient) async {
        var wasConnected = true
        for await state in client.connectionStates() {
            switch state {
            case .connected(let version):
                if !wasConnected { Output.error("connected again at version \(version)") }
                wasConnected = true
            case .reconnecting(_, let reason):
                if wasConnected { Output.error("lost the daemon (\(reason)); reconnecting…") }
                wasConnected = false
            case .closed:
                return
            }
        }
    }

    /// SIGINT and SIGTERM end `watch` with status 0: the output is complete at any moment.
    private static func stopCleanlyOnSignals() {
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
    }
}
