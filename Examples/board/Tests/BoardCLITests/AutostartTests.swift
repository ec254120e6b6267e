import Foundation
import Glibc
import SyncIntegrationTesting
import Testing

/// `board` starting `boardd` (found beside it) when nothing answers, and not when told not to.
@Suite(.blocking) struct AutostartTests {
    @Test func anAddWithNoDaemonStartsBoarddBesideItAndTheCardLands() throws {
        let directory = try BuiltPrograms.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/run/boardd.sock"
        let environment = ["XDG_STATE_HOME": directory + "/state", "BOARD_NO_AUTOSTART": ""]
        let added = try BuiltPrograms.run(
            "board", ["--socket", socket, "add", "started for me"], environment: environment, in: directory)
        let line = try #require(
            added.errors.split(separator: "\n").first { $0.hasPrefix("board: started boardd (pid ") }, "\(added.errors)"
        )
        let pid = try #require(Int32(line.split(separator: "pid ")[1].prefix { $0.isNumber }))
        defer { stop(pid, socket: socket) }
        #expect(added.status == 0)
        #expect(line == "board: started boardd (pid \(pid)) on \(socket)")
        #expect(try daemonPIDs(socket: socket) == [pid], "the boardd beside board serves the socket")

        let shown = try Programs.run("board", ["--socket", socket, "--no-autostart", "show"])
        #expect(shown.status == 0 && shown.output.contains("  started for me\n") && shown.errors.isEmpty)
        let again = try Programs.run("board", ["--socket", socket, "add", "second"], environment: environment)
        #expect(again.status == 0 && again.errors.isEmpty, "a daemon that answers is not started again")
        #expect(
            access(directory + "/state/board/journal.sqlite3", F_OK) == 0,
            "boardd used the board's default data directory")
        #expect(stop(pid, socket: socket), "boardd did not stop on SIGTERM")
    }

    @Test func noAutostartByOptionOrVariableSaysHowToStartIt() throws {
        let directory = try BuiltPrograms.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/boardd.sock"
        let byOption = try Programs.run(
            "board", ["--socket", socket, "--no-autostart", "add", "x"], environment: ["BOARD_NO_AUTOSTART": ""])
        let byVariable = try Programs.run(
            "board", ["--socket", socket, "add", "x"], environment: ["BOARD_NO_AUTOSTART": "1"])
        for refused in [byOption, byVariable] {
            #expect(refused.status == 3)
            #expect(refused.errors.contains("start it with `boardd --socket \(socket)`"), "\(refused.errors)")
        }
        #expect(access(socket, F_OK) != 0 && access(directory + "/autostart.lock", F_OK) != 0, "nothing was started")
    }

    /// The pids of the boardd processes serving `socket`.
    private func daemonPIDs(socket: String) throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { pid in
            guard let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8) else {
                return false
            }
            let words = command.split(separator: "\0")
            return words.first?.hasSuffix("/boardd") == true && words.contains(Substring(socket))
        }
    }

    /// Stops a daemon `board` started (not this test), by pid, if that pid is still the
    /// boardd serving `socket`: SIGTERM, then SIGKILL after a generous deadline. Returns
    /// whether it stopped on SIGTERM (or was already gone).
    @discardableResult
    private func stop(_ pid: Int32, socket: String) -> Bool {
        // A zombie (exited, not yet reaped by its new parent) has no command line: not serving.
        let isServing = { (try? daemonPIDs(socket: socket))?.contains(pid) == true }
        guard isServing() else { return true }
        kill(pid, SIGTERM)
        for _ in 0..<6000 where isServing() { usleep(10_000) }
        guard isServing() else { return true }
        kill(pid, SIGKILL)
        return false
    }
}
