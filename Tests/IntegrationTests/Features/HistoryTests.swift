import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

@Suite(.blocking) struct HistoryTests {
    @Test func undoFromAnotherShellRevertsForEveryWatcher() throws {
        let daemon = try DaemonHarness()
        let watch = try daemon.startTodo(["watch"])
        try watch.waitForOutput { $0.contains("--- version 0 ---") }
        #expect(try daemon.todo("add", "buy milk").status == 0)
        #expect(try daemon.todo("add", "walk dog").status == 0)
        #expect(try daemon.todo("done", "1").status == 0)
        try watch.waitForOutput { $0.contains("1 [x] buy milk") }

        let undo = try daemon.todo("undo")
        #expect(undo.status == 0)
        #expect(undo.output == "undid: complete \"buy milk\"\n")
        try watch.waitForOutput { $0.hasSuffix("--- version 4 ---\n1 [ ] buy milk\n2 [ ] walk dog\n2 open, 0 done\n") }

        #expect(try daemon.todo("undo").output == "undid: add \"walk dog\"\n")
        #expect(try daemon.todo("undo").output == "undid: add \"buy milk\"\n")
        let nothing = try daemon.todo("undo")
        #expect(nothing.status == 1)
        #expect(nothing.error == "todo: nothing to undo\n")
        watch.send(SIGTERM)
        #expect(try watch.waitForExit() == 0)
    }

    @Test func logShowsRecentChangesWithWho() throws {
        let daemon = try DaemonHarness()
        for text in ["a", "b", "c"] { _ = try daemon.todo("add", text) }
        _ = try daemon.todo("done", "2")
        let log = try daemon.todo("log", "-n", "2")
        #expect(log.status == 0)
        let lines = log.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines[0].hasPrefix("3  ") && lines[0].contains("  uid \(getuid()) pid ")
                && lines[0].contains(#"add {"change":"#) && lines[0].contains(#","createdAt":"#))
        #expect(
            lines[1].hasPrefix("4  ") && lines[1].contains(#"complete {"change":"#)
                && lines[1].contains(#","completedAt":"#) && lines[1].hasSuffix(#""number":2}"#))

        let json = try daemon.todo("log", "--json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["version"] as? Int } == [1, 2, 3, 4])
        #expect(entries.map { $0["name"] as? String } == ["add", "add", "add", "complete"])
        #expect(
            entries.allSatisfy { $0["uid"] as? Int == Int(getuid()) && $0["pid"] is Int && $0["acceptedAt"] is Int })
        #expect((entries[0]["payload"] as? [String: Any])?["text"] as? String == "a")
    }

    @Test func historyRequestsAreValidated() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        #expect(try client.expectError(["type": "history", "id": 1, "limit": 0]).code == "invalid_message")
        #expect(try client.expectError(["type": "history", "id": 2, "limit": 1001]).code == "invalid_message")
        #expect(try client.expectError(["type": "history", "id": 3, "after": -1]).code == "invalid_message")
        let empty = try client.request(["type": "history", "id": 4])
        #expect(empty.type == "entries" && (empty["entries"] as? [Any])?.isEmpty == true)
    }

    @Test func exportThenImportRoundTripsAndImportingTwiceChangesNothing() throws {
        let source = try DaemonHarness()
        for text in ["one", "two", "three"] { _ = try source.todo("add", text) }
        _ = try source.todo("done", "2")
        _ = try source.todo("rm", "1")
        let export = try source.todo("export")
        #expect(export.status == 0)
        let file = source.directory + "/export.json"
        try export.output.write(toFile: file, atomically: true, encoding: .utf8)

        let target = try DaemonHarness()
        let first = try target.todo("import", file)
        #expect(first.status == 0 && first.output == "imported 2 new items (0 already present)\n")
        #expect(try target.todo("export").output == export.output, "same ids, numbers, texts, states and times")
        let second = try target.todo("import", file)
        #expect(second.output == "imported 0 new items (2 already present)\n")
        #expect(try target.todo("export").output == export.output)
        #expect(try target.todo("add", "next").status == 0)
        #expect(try target.todo("list").output.contains("4 [ ] next"), "numbers continue after the imported ones")

        let compact = try source.todo("export", "--json")
        #expect(compact.output.split(separator: "\n").count == 1)
        let missing = try target.todo("import", source.directory + "/nope.json")
        #expect(missing.status == 2 && missing.error.hasPrefix("todo: cannot read"))
    }

    @Test func snapshotsLetStartUpReplayOnlyTheTail() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let ids = try (0..<1200).map { try client.dispatch("add", ["text": "item \($0)"]) }
        var acked = 0
        while acked < ids.count { if try client.receive().type == "ack" { acked += 1 } }
        // A few more, one commit each: too few for another snapshot, so they form the tail.
        for n in 1200..<1205 { _ = try client.dispatchAndWait("add", ["text": "item \(n)"]) }
        // The snapshot is encoded after its commit, beside the later ones, and saved after it.
        try eventually("no snapshot was saved") {
            try JournalFile.query("SELECT max(version) >= 1000 FROM snapshots", on: JournalFile.path(daemon)) == ["1"]
                ? true : nil
        }
        try daemon.crash()
        try daemon.start()
        let line = try #require(
            daemon.process.standardError.split(separator: "\n").first { $0.contains("recovered version 1205") })
        let snapshot = try #require(Int(line.split(separator: "snapshot at ")[1].prefix { $0.isNumber }))
        #expect(snapshot >= 1000 && snapshot <= 1200)
        #expect(line.contains("\(1205 - snapshot) actions replayed"))
        #expect(try daemon.todo("list").output.contains("1205 [ ] item 1204"))
    }
}
