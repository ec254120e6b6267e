import Foundation
import TestSupport
import Testing

/// `todo list --at VERSION`: the list as it was, in the same forms as `todo list`.
@Suite(.blocking) struct TimeTravelCLITests {
    @Test func listAtAVersionPrintsWhatListPrintedThen() throws {
        let daemon = try DaemonHarness(arguments: ["--snapshot-interval", "2"])
        var printed: [(text: String, json: String)] = [
            (try daemon.todo("list").output, try daemon.todo("list", "--json").output)
        ]
        for step in [
            ["add", "buy milk"], ["add", "walk dog"], ["done", "1"], ["edit", "2", "walk the dog"], ["rm", "1"],
        ] {
            #expect(try daemon.run(step).status == 0)
            printed.append((try daemon.todo("list").output, try daemon.todo("list", "--json").output))
        }
        for (version, then) in printed.enumerated() {
            let text = try daemon.todo("list", "--at", String(version))
            #expect(text.status == 0 && text.output == then.text, "version \(version)")
            #expect(
                try daemon.todo("list", "--json", "--at=\(version)").output == then.json, "version \(version) as JSON")
        }
        #expect(try daemon.todo("list", "--open", "--at", "3").output == "2 [ ] walk dog\n1 open, 1 done\n")

        let future = try daemon.todo("list", "--at", "6")
        #expect(future.status == 1)
        #expect(future.error == "todo: Version 6 is in the future: the current version is 5.\n")
        for bad in [
            ["--at"], ["--at", "-1"], ["--at", "two"], ["--at=1.5"], ["--at", "1", "--at", "2"], ["--at", "+1"],
        ] {
            let result = try daemon.run(["list"] + bad)
            #expect(result.status == 2 && result.error.hasPrefix("todo: ") && result.output.isEmpty, "list \(bad)")
        }
        #expect(try daemon.todo("list").output == printed[5].text, "nothing changed")
        let help = try daemon.todo("list", "--help")
        #expect(help.output.contains("--at VERSION"))
    }
}
