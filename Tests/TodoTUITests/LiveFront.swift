import SyncClient
import TerminalUI
import TerminalUITesting
import TestSupport
import TodoDomain
import TodoTUI

/// `todo tui`'s screens over a real daemon, on a fake terminal: the UI loop runs as in the
/// real program; the test types keys into it and reads the screen.
@MainActor
final class LiveFront {
    let client: SyncClient
    let terminal: FakeTerminal
    let app: TerminalApp
    let root: MainScreen
    private let input: AsyncStream<TerminalEvent>.Continuation
    private let loop: Task<Void, Never>

    init(_ daemon: DaemonHarness, size: Size = Size(columns: 80, rows: 24)) async throws {
        client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "tui-tests/1")
        terminal = FakeTerminal(size: size)
        root = MainScreen(store: .live(client), history: .live(client))
        app = TerminalApp(root: root, terminal: terminal, colors: true)
        let (events, input) = AsyncStream.makeStream(of: TerminalEvent.self)
        self.input = input
        loop = Task { [app] in await app.run(events: events) }
    }

    /// The screen's rows, trailing spaces removed.
    var lines: [String] { terminal.lines }
    /// The screen as text.
    var text: String { terminal.text }

    /// Presses `keys` in order.
    func press(_ keys: Key...) {
        for key in keys { input.yield(.key(key)) }
    }

    /// Types `text`, one key per character.
    func type(_ text: String) {
        for character in text { input.yield(.key(.character(character))) }
    }

    /// Waits until the screen satisfies `condition`.
    func waitForScreen(_ what: String, _ condition: (FakeTerminal) -> Bool) async throws {
        try await waitUntil("\(what); the screen shows:\n\(terminal.text)") { condition(terminal) }
    }

    /// Waits until some row contains `text`.
    func waitFor(_ text: String) async throws {
        try await waitForScreen("a row containing \(text.debugDescription)") { $0.lines.contains { $0.contains(text) } }
    }

    /// The row showing item `number` (`  3 [ ] text`, with the selection marker).
    func row(_ number: Int) -> String? {
        lines.first { $0.dropFirst(2).drop(while: { $0 == " " }).hasPrefix("\(number) [") }
    }

    /// Quits with `q` and waits for the loop to end (every subscription closed).
    func quit() async {
        press(.character("q"))
        await loop.value
        client.close()
    }

    /// The daemon's list as `number [x] text` lines.
    func daemonList() async throws -> [String] {
        let items = try await client.get(ListViewModel.self, params: .init()).model?.items ?? []
        return items.map { "\($0.number) [\($0.completed ? "x" : " ")] \($0.text)" }
    }
}
