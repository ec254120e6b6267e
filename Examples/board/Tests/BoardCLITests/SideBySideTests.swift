import Foundation
import SyncProtocol
import Testing

/// `boardd` and `todod` on one machine with their default paths: each its own socket and data
/// directory, both serving at once.
@Suite struct SideBySideTests {
    @Test func boarddAndTododServeSideBySideOnTheirDefaultPaths() throws {
        let directory = try Programs.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = directory + "/runtime"
        let state = directory + "/state"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let removed: Set<String> = [
            "TODO_SOCKET", "BOARD_SOCKET", "STATE_DIRECTORY", "TODOD_POSTGRES", "BOARDD_POSTGRES",
        ]
        let environment = ProcessInfo.processInfo.environment.filter { !removed.contains($0.key) }
            .merging(["XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": state, "HOME": directory]) { $1 }
        let todod = try Programs.startDaemon(
            "todod", [], environment: environment, answeringAt: runtime + "/todo/todod.sock")
        defer { _ = Programs.stop(todod) }
        let boardd = try Programs.startDaemon(
            "boardd", [], environment: environment, answeringAt: runtime + "/board/boardd.sock")
        defer { _ = Programs.stop(boardd) }
        #expect(todod.isRunning && boardd.isRunning, "neither took the other's socket or lock")

        let added = try Programs.run("board", ["add", "beside todod"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(added.status == 0, "\(added.errors)")
        #expect(
            try Programs.run("board", ["show"], environment: ["XDG_RUNTIME_DIR": runtime]).output.contains(
                "beside todod"))
        #expect(FileManager.default.fileExists(atPath: state + "/board/journal.sqlite3"))
        #expect(FileManager.default.fileExists(atPath: state + "/todo/journal.sqlite3"))
        #expect(Programs.stop(boardd) == 0 && Programs.stop(todod) == 0)
    }
}
