import Foundation
import Testing

/// Each app's CLI pointed at the other app's daemon: refused in the handshake, by name, with
/// exit 3 (the daemon it needs is not there), and the daemon keeps serving its own app.
@Suite struct WrongAppTests {
    @Test func todoPointedAtBoarddExitsThreeNamingBothApps() throws {
        let boardd = try BoardDaemon()
        let todo = try Programs.run("todo", ["--socket", boardd.socket, "--no-autostart", "list"])
        #expect(todo.status == 3, "\(todo.errors)")
        #expect(todo.errors == "todo: this is boardd, serving board; the client is todo\n")
        #expect(try boardd.board("show").status == 0, "boardd still serves board")
    }

    @Test func boardPointedAtTododExitsThreeNamingBothApps() throws {
        let directory = try Programs.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/todod.sock"
        let todod = try Programs.startDaemon(
            "todod", ["--socket", socket, "--data-dir", directory + "/data"], answeringAt: socket)
        defer { _ = Programs.stop(todod) }
        let board = try Programs.run("board", ["--socket", socket, "show"])
        #expect(board.status == 3, "\(board.errors)")
        #expect(board.errors == "board: this is todod, serving todo; the client is board\n")
        #expect(Programs.stop(todod) == 0)
    }
}
