import SyncClient
import SyncStore
import TestSupport
import Testing

/// The app in the handshake: another app's client is refused by name, a client that names no
/// app (an older one) is served.
@Suite(.blocking) struct WrongAppTests {
    @Test func anotherAppsClientIsRefusedWithBothNames() async throws {
        let daemon = try DaemonHarness()
        let board = AppIdentity(name: "board", version: "0.1.0")
        let refusal = SyncClientError.wrongApp(message: "this is todod, serving todo; the client is board")
        await #expect(throws: refusal) {
            _ = try await SyncClient.connect(to: board, socketPath: daemon.socketPath, reconnect: .never)
        }
        let todo = try await SyncClient.connect(
            to: AppIdentity(name: "todo", version: "0.1.0"), socketPath: daemon.socketPath, reconnect: .never)
        #expect(todo.server.app == "todo")
        todo.close()
    }

    @Test func aHelloWithoutAnAppIsServedAndToldTheDaemonsApp() throws {
        let daemon = try DaemonHarness()
        let welcome = try WireClient(path: daemon.socketPath).hello(name: "old/1")
        #expect(welcome["app"] as? String == "todo")
    }
}
