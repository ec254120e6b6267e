import CommandLineKit
import SyncClient
import SyncCommandLine
import SyncStore
import Testing

/// An app with nothing in it but its identity, for the command line of its client.
enum NoteApp: SyncApp {
    static let identity = AppIdentity(name: "note", version: "2.5.0")
    static let initialState = 0
    static let actions: [any Action<Int>.Type] = []
    static let viewModels: [any ViewModel<Int>.Type] = []
}

/// The client command line every app gets from its type: options, connection, exit codes.
@Suite struct SyncCommandLineTests {
    /// A tool whose one command, `go`, runs `body` against NoteApp's daemon.
    private func tool(_ body: @escaping @Sendable (SyncClient) async throws -> Void) -> CommandLineTool {
        CommandLineTool(
            app: NoteApp.self, summary: "take notes",
            commands: [
                Command(
                    name: "go", arguments: "", summary: "Go.", details: "",
                    run: { context, _ throws(CLIError) in try await context.withClient(NoteApp.self, body) })
            ])
    }

    @Test func theToolIsNamedVersionedAndOptionedByTheAppsIdentity() {
        let tool = tool { _ in }
        #expect(tool.name == "note")
        #expect(tool.version.hasPrefix("note 2.5.0 (protocol "))
        #expect(tool.options.map(\.name) == ["--socket", "--no-autostart"])
        #expect(tool.help.contains("  --socket PATH   noted's socket (default: $NOTE_SOCKET, else\n"))
        #expect(
            tool.help.contains("  --no-autostart  do not start noted when nothing answers (also NOTE_NO_AUTOSTART=1);"),
            "two spaces after the longest option, as in the command table")
    }

    @Test func clientErrorsBecomeTheirExitCodes() {
        let identity = NoteApp.identity
        let refused = CLIError(.server(code: "rejected", message: "no"), of: identity)
        #expect(refused.exitCode == 1)
        #expect(CLIError(.wrongApp(message: "the daemon serves todo, not note"), of: identity).exitCode == 3)
        #expect(CLIError(.connectionClosed(.closedByClient), of: identity).exitCode == 3)
        let unreachable = CLIError(.daemonUnreachable(path: "/x.sock", reason: "ENOENT"), of: identity)
        #expect(unreachable.exitCode == 3)
        #expect(
            unreachable.message
                == "cannot reach noted at /x.sock (ENOENT); start it with `noted --socket /x.sock`, or let note start it (drop --no-autostart / NOTE_NO_AUTOSTART)"
        )
    }

    @Test func withClientReachesNoDaemonAtTheSocketGivenAndExitsThree() async {
        let socket = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))/noted.sock"
        do {
            try await tool { _ in Issue.record("no daemon answers there") }.run([
                "--socket", socket, "--no-autostart", "go",
            ])
            Issue.record("go succeeded without a daemon")
        } catch {
            #expect(error.exitCode == 3)
            #expect(error.message.hasPrefix("cannot reach noted at \(socket) ("))
        }
    }
}
