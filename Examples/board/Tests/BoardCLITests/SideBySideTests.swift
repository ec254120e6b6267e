import Foundation
import SyncIntegrationTesting
import Testing

/// `boardd` and `todod` on one machine with their default paths: each its own socket and data
/// directory, both serving at once.
@Suite(.blocking) struct SideBySideTests {
    @Test func boarddAndTododServeSideBySideOnTheirDefaultPaths() throws {
        let directory = try BuiltPrograms.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = directory + "/runtime"
        let state = directory + "/state"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = [
            "TODO_SOCKET": "", "BOARD_SOCKET": "", "STATE_DIRECTORY": "", "TODOD_POSTGRES": "", "BOARDD_POSTGRES": "",
            "XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": state, "HOME": directory,
        ]
        let todod = try RunningDaemon(
            executable: "todod", arguments: [], environment: environment, answeringAt: runtime + "/todo/todod.sock",
            directory: directory)
        defer { todod.stop() }
        let boardd = try RunningDaemon(
            executable: "boardd", arguments: [], environment: environment, answeringAt: runtime + "/board/boardd.sock",
            directory: directory)
        defer { boardd.stop() }
        #expect(todod.isRunning && boardd.isRunning, "neither took the other's socket or lock")

        let added = try Programs.run("board", ["add", "beside todod"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(added.status == 0, "\(added.errors)")
        #expect(
            try Programs.run("board", ["show"], environment: ["XDG_RUNTIME_DIR": runtime]).output.contains(
                "beside todod"))
        #expect(FileManager.default.fileExists(atPath: state + "/board/journal.sqlite3"))
        #expect(FileManager.default.fileExists(atPath: state + "/todo/journal.sqlite3"))
        #expect(boardd.stop() == 0 && todod.stop() == 0)
    }
}
