import Foundation
import SyncIntegrationTesting
import Testing

/// What `board` makes of its command table: the completion scripts and `show --json`.
@Suite(.blocking) struct CommandTableTests {
    @Test func completionsForEachShellOfferEveryCommandAndOption() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try Programs.run("board", ["completions", shell])
            #expect(script.status == 0 && script.errors.isEmpty, "\(shell): \(script.errors)")
            for word in ["show", "add", "move", "tui", "completions"] {
                #expect(script.output.contains(word), "\(shell) lacks \(word)")
            }
        }
        let bash = try Programs.run("board", ["completions", "bash"]).output
        #expect(bash.contains("complete -F _board board"))
        #expect(bash.contains("show) COMPREPLY=($(compgen -W \"--json\""), "show's --json comes from its arguments")
        #expect(bash.contains("--socket) ((i++)) ;;"), "the socket's value is skipped")
        #expect(try Programs.run("board", ["completions", "zsh"]).output.hasPrefix("#compdef board\n"))
        #expect(
            try Programs.run("board", ["completions", "fish"]).output.contains(
                "complete -c board -n __fish_use_subcommand -l no-autostart"))

        let tcsh = try Programs.run("board", ["completions", "tcsh"])
        #expect(
            tcsh.status == 2 && tcsh.output.isEmpty
                && tcsh.errors.hasPrefix("board: completions supports bash, zsh and fish, not tcsh\n"))
        let none = try Programs.run("board", ["completions"])
        #expect(none.status == 2 && none.errors.hasPrefix("board: completions needs one of bash, zsh, fish\n"))
    }

    @Test func showJSONIsTheBoardViewModelOnOneLine() throws {
        let daemon = try RunningDaemon.board()
        #expect(try daemon.board("add", "write the spec").status == 0)
        #expect(try daemon.board("add", "--column", "done", "ship it").status == 0)
        let shown = try daemon.board("show", "--json")
        #expect(shown.status == 0)
        #expect(shown.output.hasSuffix("}\n") && shown.output.filter { $0 == "\n" }.count == 1)
        #expect(
            shown.output.hasPrefix(#"{"archivedCount":0,"columns":[{"cards":[{"hasNotes":false,"id":""#),
            "keys sorted: \(shown.output)")
        let board = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        let columns = try #require(board["columns"] as? [[String: Any]])
        #expect(columns.map { $0["name"] as? String } == ["todo", "doing", "done"])
        let titles = columns.map { (($0["cards"] as? [[String: Any]]) ?? []).map { $0["title"] as? String } }
        #expect(titles == [["write the spec"], [], ["ship it"]])
        let id = try #require((columns[0]["cards"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(id.count == 36, "full ids, not the 8 characters of the text form")

        let extra = try daemon.board("show", "--yaml")
        #expect(extra.status == 2 && extra.errors.hasPrefix("board: unknown option --yaml for show\n"))
    }

    @Test func commandHelpShowsTheDetails() throws {
        let help = try Programs.run("board", ["show", "--help"])
        #expect(
            help.status == 0 && help.output.hasPrefix("usage: board [--socket PATH] show [--json]\n\nShow every column")
        )
        #expect(help.output.contains("--json  one line: the board view model"))
        let version = try Programs.run("board", ["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("board "))
    }
}
