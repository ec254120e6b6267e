import BoardDomain
import SyncIntegrationTesting
import Testing

/// `board` and `boardd`, the real executables, on a private socket.
@Suite(.blocking) struct BoardCLITests {
    @Test func helpNeedsNoDaemon() throws {
        let help = try Programs.run("board", ["--help"])
        #expect(help.status == 0)
        for command in ["show", "add", "move", "tui"] { #expect(help.output.contains("\n  \(command) ")) }
        let moveHelp = try Programs.run("board", ["move", "--help"])
        #expect(
            moveHelp.status == 0
                && moveHelp.output.hasPrefix("usage: board [--socket PATH] move CARD COLUMN [POSITION]"))
        let daemonHelp = try Programs.run("boardd", ["--help"])
        #expect(daemonHelp.status == 0 && daemonHelp.output.contains("Serves the kanban board."))
        #expect(
            daemonHelp.output.contains("$BOARD_SOCKET") && !daemonHelp.output.contains("TODO_SOCKET"),
            "the board's own names")
    }

    @Test func usageErrorsSayWhatIsWrong() throws {
        let unknown = try Programs.run("board", ["--socket", "/nonexistent/board.sock", "shuffle"])
        #expect(
            unknown.status == 2
                && unknown.errors == "board: unknown command shuffle\nboard: run `board --help` for usage\n")
        let option = try Programs.run("board", ["--frobnicate", "show"])
        #expect(option.status == 2 && option.errors.hasPrefix("board: unknown option --frobnicate\n"))
        let noSocket = try Programs.run("board", ["--socket"])
        #expect(noSocket.status == 2 && noSocket.errors.hasPrefix("board: --socket needs a path\n"))
        let daemon = try Programs.run("boardd", ["--frobnicate"])
        #expect(daemon.status == 2 && daemon.errors.contains("--frobnicate"))
    }

    @Test func withoutASocketOptionTheBoardsOwnDefaultSocketIsUsed() throws {
        let daemon = try RunningDaemon.board()
        let runtime = daemon.directory + "/runtime"
        let unreachable = try Programs.run("board", ["show"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(
            unreachable.status == 3 && unreachable.errors.contains(runtime + "/board/boardd.sock"),
            "\(unreachable.errors)")
        let chosen = try Programs.run(
            "board", ["add", "via the variable"], environment: ["BOARD_SOCKET": daemon.socketPath])
        #expect(chosen.status == 0)
        #expect(try daemon.board("show").output.contains("via the variable"))
    }

    @Test func addMoveAndShowAgainstARealDaemonThatKeepsTheBoardAcrossARestart() throws {
        let daemon = try RunningDaemon.board()
        #expect(try daemon.board("add", "write", "the", "spec").status == 0)
        #expect(try daemon.board("add", "--column", "doing", "review the PR").status == 0)
        let shown = try daemon.board("show")
        let lines = shown.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines[0] == "todo (1)" && lines[2] == "doing (1)" && lines[4] == "done (0)")
        let spec = String(lines[1].dropFirst(2).prefix(8))
        #expect(lines[1] == "  \(spec)  write the spec")

        #expect(try daemon.board("move", String(spec.prefix(4)), "done").status == 0)
        let refused = try daemon.board("move", spec, "nowhere")
        #expect(refused.status == 1 && refused.errors == "board: no column nowhere\n")
        let unknownCard = try daemon.board("move", "zz", "done")
        #expect(unknownCard.status == 1 && unknownCard.errors == "board: no card zz on the board\n")
        let badPosition = try daemon.board("move", spec, "done", "top")
        #expect(
            badPosition.status == 2
                && badPosition.errors.hasPrefix("board: POSITION is a number (0 is the top), not top\n"))

        #expect(daemon.stop() == 0)
        let restarted = try RunningDaemon.start(BoardApp.self, in: daemon.directory)
        defer { restarted.stop() }
        let after = try restarted.board("show")
        #expect(
            after.output == "todo (0)\ndoing (1)\n  \(lines[3].dropFirst(2))\ndone (1)\n  \(spec)  write the spec\n")
    }
}
