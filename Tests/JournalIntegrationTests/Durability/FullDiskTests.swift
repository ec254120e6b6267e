import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// A real full disk: the data directory is a small tmpfs, filled to the last page. Commits fail
/// with ENOSPC (SQLite's "database or disk is full"), dispatches are answered
/// storage_unavailable and nothing of them is applied, reads and subscriptions go on, and once
/// space is freed the next dispatch commits; a restart on the same file system finds every
/// acknowledged action. Mounting needs root: skipped otherwise, saying why.
@Suite(.blocking) struct FullDiskTests {
    @Test(
        .enabled(if: TmpfsMount.isPermitted, "mounting a tmpfs as the data directory needs root (CAP_SYS_ADMIN)"),
        arguments: [[], ["--inline-commit-limit", "0"]])
    func aFullFileSystemRefusesDispatchesUntilSpaceIsFreed(daemonArguments: [String]) throws {
        let disk = try TmpfsMount(bytes: 2 << 20)
        // Unmounted after the scenario, whose daemon is killed (by pid) when it returns or throws.
        defer { disk.unmount() }
        try fillAndFree(disk, daemonArguments: daemonArguments)
    }

    private func fillAndFree(_ disk: TmpfsMount, daemonArguments: [String]) throws {
        let daemon = try DaemonHarness(arguments: daemonArguments, dataDirectory: disk.path)
        let writer = try daemon.greetedClient()
        let watcher = try daemon.greetedClient()
        _ = try watcher.subscribeAndWait("list")
        var acked: [String] = []
        for text in ["first", "second"] {
            #expect(try writer.dispatchAndWait("add", ["text": text]).type == "ack")
            acked.append(text)
            _ = try watcher.receive()
        }

        try disk.fill("filler")
        // The journal may still have room in its last page: add until a commit needs more.
        var refusal: WireClient.Message?
        for n in 0..<100 where refusal == nil {
            let text = "on a full disk \(n) " + String(repeating: "x", count: 500)
            let reply = try writer.dispatchAndWait("add", ["text": text])
            if reply.type == "ack" { acked.append(text) } else { refusal = reply }
        }
        let error = try #require(refusal, "every commit succeeded on a full file system")
        #expect(error.code == "storage_unavailable")
        #expect((error["message"] as? String)?.contains("not applied") == true, "\(error)")
        #expect(
            daemon.process.standardError.contains("database or disk is full"),
            "the commit did not fail for lack of space")
        let durable = acked.count
        // Still full: every change is refused, whatever the action, and none is applied.
        for (name, payload) in [("add", ["text": "refused"]), ("complete", ["number": 1]), ("remove", ["number": 2])]
            as [(String, [String: Any])]
        {
            let reply = try writer.dispatchAndWait(name, payload)
            #expect(reply.code == "storage_unavailable", "\(name): \(reply)")
        }

        // Reads go on, and show exactly what was acknowledged.
        let list = try daemon.greetedClient().subscribeAndWait("list").update
        #expect(list.itemTexts == acked)
        #expect(list.version == durable)
        let printed = try daemon.todo("list")
        #expect(printed.status == 0 && printed.output.hasSuffix("\(durable) open, 0 done\n"), "\(printed)")
        // The subscription made before saw every acknowledged version and nothing else.
        var seen = 2
        while seen < durable { seen = try watcher.receive().version ?? seen }
        #expect(seen == durable)
        try watcher.expectOnlyPong()

        try FileManager.default.removeItem(atPath: disk.path + "/filler")
        let retry = try writer.dispatchAndWait("add", ["text": "after freeing space"])
        #expect(retry.type == "ack", "\(retry)")
        #expect(retry.version == durable + 1, "the refused version numbers are used again")
        let update = try watcher.receive()
        #expect(update.version == durable + 1)
        #expect(update.itemTexts == acked + ["after freeing space"])

        #expect(try daemon.stop() == 0)
        try daemon.start()
        let restored = try daemon.greetedClient().subscribeAndWait("list").update
        #expect(restored.itemTexts == acked + ["after freeing space"], "an acknowledged action was lost")
        #expect(restored.version == durable + 1)
        #expect(try daemon.stop() == 0)
    }
}
