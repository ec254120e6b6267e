import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.blocking) struct CLITests {
    /// A client holds three sockets: its connection to the daemon and the one wake-up pair its
    /// socket writers and its executor's jobs share. (A test's child inherits no descriptor but
    /// its standard ones: see `Spawn.start`.)
    @Test func aWatchHoldsItsConnectionAndOneWakeUpPair() throws {
        let daemon = try DaemonHarness()
        let watch = try daemon.startTodo(["watch"])
        try watch.waitForOutput { $0.contains("--- version 0 ---") }
        let directory = "/proc/\(watch.pid)/fd"
        let targets = try FileManager.default.contentsOfDirectory(atPath: directory).compactMap { entry in
            try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry)
        }
        #expect(targets.filter { $0.hasPrefix("socket:") }.count == 3)
        watch.send(SIGTERM)
        #expect(try watch.waitForExit() == 0)
    }

    @Test func aWatchSeesChangesMadeByTwoOtherProcessesInOrder() throws {
        let daemon = try DaemonHarness()
        let watch = try daemon.startTodo(["watch"])
        try watch.waitForOutput { $0.contains("--- version 0 ---") }

        let add = try daemon.todo("add", "buy", "milk")
        #expect(add.status == 0 && add.error.isEmpty)
        try watch.waitForOutput { $0.contains("1 [ ] buy milk") }

        let done = try daemon.todo("done", "1")
        #expect(done.status == 0)
        let output = try watch.waitForOutput { $0.contains("1 [x] buy milk") }

        #expect(
            output == """
                --- version 0 ---
                no items
                0 open, 0 done
                --- version 1 ---
                1 [ ] buy milk
                1 open, 0 done
                --- version 2 ---
                1 [x] buy milk
                0 open, 1 done

                """)
        watch.send(SIGTERM)
        #expect(try watch.waitForExit() == 0)
    }

    @Test func aFilteredWatchShowsOnlyItsItems() throws {
        let daemon = try DaemonHarness()
        let watch = try daemon.startTodo(["watch", "--done"])
        try watch.waitForOutput { $0.contains("no done items") }
        _ = try daemon.todo("add", "a")
        _ = try daemon.todo("done", "1")
        try watch.waitForOutput { $0.contains("1 [x] a") }
        watch.send(SIGINT)
        #expect(try watch.waitForExit() == 0)
    }

    @Test func whatIsAddedIsListedByTheNextCommand() throws {
        let daemon = try DaemonHarness()
        for n in 1...5 {
            #expect(try daemon.todo("add", "item \(n)").status == 0)
            #expect(try daemon.todo("list").output.contains("\(n) [ ] item \(n)"))
        }
    }

    @Test func listJSONIsStable() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.todo("add", "first")
        _ = try daemon.todo("add", "second")
        _ = try daemon.todo("done", "2")
        #expect(
            try daemon.todo("list", "--json").output == #"""
                {"doneCount":1,"items":[{"completed":false,"number":1,"text":"first"},{"completed":true,"number":2,"text":"second"}],"openCount":1}

                """#)
        #expect(
            try daemon.todo("list", "--open", "--json").output
                == #"{"doneCount":1,"items":[{"completed":false,"number":1,"text":"first"}],"openCount":1}"# + "\n")
    }

    @Test func everyCommandChangesWhatItSays() throws {
        let daemon = try DaemonHarness()
        for text in ["one", "two", "three", "four"] { _ = try daemon.todo("add", text) }
        #expect(try daemon.todo("done", "1", "2").status == 0)
        #expect(try daemon.todo("reopen", "2").status == 0)
        #expect(try daemon.todo("edit", "3", "THREE", "again").status == 0)
        #expect(try daemon.todo("rm", "4").status == 0)
        #expect(try daemon.todo("list").output == "1 [x] one\n2 [ ] two\n3 [ ] THREE again\n2 open, 1 done\n")
        #expect(try daemon.todo("list", "--done").output == "1 [x] one\n2 open, 1 done\n")
        #expect(try daemon.todo("clear").status == 0)
        #expect(try daemon.todo("list").output == "2 [ ] two\n3 [ ] THREE again\n2 open, 0 done\n")
        #expect(try daemon.todo("add", "--", "-5 degrees").status == 0)
        #expect(try daemon.todo("list").output.contains("5 [ ] -5 degrees"), "numbers are never reused")
    }

    @Test func statusShowsTheServerAndVersion() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.todo("add", "x")
        let status = try daemon.todo("status")
        #expect(status.status == 0)
        #expect(status.output.contains("server: todod/"))
        #expect(status.output.contains("protocol: 1\n"))
        #expect(status.output.contains("version: 1\n"))
        #expect(status.output.contains("socket: \(daemon.socketPath)\n"))
    }

    @Test func refusalsExitWithOneAndSayWhy() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.todo("add", "a")
        _ = try daemon.todo("add", "b")
        let missing = try daemon.todo("done", "9")
        #expect(missing.status == 1)
        #expect(missing.error == "todo: no item 9\n")
        // Every number is tried; the good ones apply.
        let mixed = try daemon.todo("done", "1", "7", "2")
        #expect(mixed.status == 1)
        #expect(mixed.error == "todo: no item 7\n")
        #expect(try daemon.todo("list", "--done").output.contains("0 open, 2 done"))
        let tooLong = try daemon.todo("add", String(repeating: "x", count: 1001))
        #expect(tooLong.status == 1)
        #expect(tooLong.error.contains("at most 1000"))
        let escape = try daemon.todo("add", "red \u{1B}[31m alert")
        #expect(escape.status == 1)
        #expect(escape.error == "todo: the text contains control characters (line breaks, tabs, escape sequences)\n")
    }

    @Test(arguments: [
        ["frobnicate"], ["add"], ["done", "one"], ["done"], ["list", "--sideways"], ["--color"], [], ["clear", "now"],
        ["add", "-x"],
        ["list", "--open", "--done"], ["list", "--socket", "/elsewhere"], ["--socket="],
    ])
    func usageErrorsExitWithTwo(arguments: [String]) throws {
        let daemon = try DaemonHarness()
        let result = try daemon.run(arguments)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("todo: "))
        #expect(result.output.isEmpty)
        #expect(try daemon.todo("status").output.contains("version: 0"), "nothing was dispatched")
    }

    @Test func anUnreachableDaemonExitsWithThreeAndSaysHowToStartIt() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let child = try ChildProcess(
            Binaries.path("todo"), ["--socket", directory + "/none.sock", "--no-autostart", "list"],
            outputDirectory: directory)
        #expect(try child.waitForExit() == 3)
        #expect(child.standardError.contains("cannot reach todod at \(directory)/none.sock"))
        #expect(child.standardError.contains("todod"))
    }

    @Test func helpAndVersion() throws {
        let daemon = try DaemonHarness()
        let help = try daemon.todo("--help")
        #expect(help.status == 0)
        for command in ["add", "list", "done", "reopen", "edit", "rm", "clear", "watch", "status"] {
            #expect(help.output.contains("\n  \(command) "), "help lists \(command)")
        }
        let addHelp = try daemon.todo("add", "--help")
        #expect(addHelp.status == 0 && addHelp.output.hasPrefix("usage: todo [--socket PATH] add TEXT..."))
        let version = try daemon.todo("--version")
        #expect(version.status == 0 && version.output.hasPrefix("todo "))
        let equalsForm = try daemon.run(["--socket=\(daemon.socketPath)", "status"])
        #expect(equalsForm.status == 0 && equalsForm.output.contains("version: 0"))
    }
}
