import Foundation
import SyncIntegrationTesting
import Testing

/// Each app's CLI pointed at the other app's daemon: refused in the handshake, by name, with
/// exit 3 (the daemon it needs is not there), and the daemon keeps serving its own app.
@Suite(.blocking) struct WrongAppTests {
    @Test func todoPointedAtBoarddExitsThreeNamingBothApps() throws {
        let boardd = try RunningDaemon.board()
        let todo = try Programs.run("todo", ["--socket", boardd.socketPath, "--no-autostart", "list"])
        #expect(todo.status == 3, "\(todo.errors)")
        #expect(todo.errors == "todo: this is boardd, serving board; the client is todo\n")
        #expect(try boardd.board("show").status == 0, "boardd still serves board")
    }

    @Test func boardPointedAtTododExitsThreeNamingBothApps() throws {
        let directory = try BuiltPrograms.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/todod.sock"
        let todod = try RunningDaemon(
            executable: "todod", arguments: ["--socket", socket, "--data-dir", directory + "/data"],
            answeringAt: socket,
            directory: directory)
        defer { todod.stop() }
        let board = try Programs.run("board", ["--socket", socket, "show"])
        #expect(board.status == 3, "\(board.errors)")
        #expect(board.errors == "board: this is todod, serving todo; the client is board\n")
        #expect(todod.stop() == 0)
    }
}
