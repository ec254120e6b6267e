import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// When commits fail (here: a file-size limit set on the running daemon, as a full disk would),
/// the daemon answers storage_unavailable, shows nothing of the failed actions, keeps serving
/// reads, and commits again once writing works.
@Suite(.blocking) struct StorageFailureTests {
    private func setFileSizeLimit(of pid: pid_t, to limit: String) throws {
        // Only the soft limit ("N:"), which a process may raise again without privileges.
        let prlimit = try ChildProcess(
            "/usr/bin/prlimit", ["--pid", "\(pid)", "--fsize=\(limit):"], outputDirectory: "/tmp")
        guard try prlimit.waitForExit() == 0 else { throw TestFailure("prlimit failed: \(prlimit.standardError)") }
    }

    /// Once with commits of one action made on the loop thread (the default), once with every
    /// commit on the thread pool.
    @Test(arguments: [[], ["--inline-commit-limit", "0"]])
    func failedCommitsAreRefusedRolledBackAndRetried(daemonArguments: [String]) throws {
        let daemon = try DaemonHarness(arguments: daemonArguments)
        let writer = try daemon.greetedClient()
        let watcher = try daemon.greetedClient()
        _ = try watcher.subscribeAndWait("list")
        for text in ["first", "second"] { #expect(try writer.dispatchAndWait("add", ["text": text]).type == "ack") }
        _ = try watcher.receive()
        _ = try watcher.receive()

        var walSize = stat()
        #expect(stat(daemon.dataDirectory + "/journal.sqlite3-wal", &walSize) == 0)
        try setFileSizeLimit(of: daemon.process.pid, to: String(walSize.st_size + 16 * 1024))

        var acked: [String] = ["first", "second"]
        var refusal: WireClient.Message?
        for n in 0..<200 where refusal == nil {
            let reply = try writer.dispatchAndWait("add", ["text": "filler \(n) " + String(repeating: "f", count: 900)])
            if reply.type == "ack" {
                acked.append("filler \(n) " + String(repeating: "f", count: 900))
            } else {
                refusal = reply
            }
        }
        let error = try #require(refusal, "no commit failed under the file-size limit")
        #expect(error.code == "storage_unavailable")
        #expect((error["message"] as? String)?.contains("not applied") == true)

        // Reads are served, and show exactly what was acknowledged.
        let list = try writer.subscribeAndWait("list").update
        #expect(list.itemTexts == acked)
        let durable = try #require(list.version)
        #expect(durable == acked.count)
        // The watcher saw the acknowledged versions and nothing of the failed one.
        var seen = 0
        while seen < durable {
            seen = try watcher.receive().version ?? seen
        }
        try watcher.expectOnlyPong()

        try setFileSizeLimit(of: daemon.process.pid, to: "unlimited")
        let retry = try writer.dispatchAndWait("add", ["text": "after the disk came back"])
        #expect(retry.type == "ack")
        #expect(retry.version == durable + 1, "the failed version number is used again")

        #expect(try daemon.stop() == 0)
        try daemon.start()
        let restored = try daemon.greetedClient().subscribeAndWait("list").update
        #expect(restored.itemTexts == acked + ["after the disk came back"])
        #expect(daemon.process.standardError.isEmpty || !daemon.process.standardError.contains("cannot"))
    }

    /// Under load, actions are applied while a commit runs on the thread pool; when that commit
    /// fails they were applied on top of lost ones, and are refused with it: the journal ends up
    /// holding exactly the acknowledged actions, numbered without a gap.
    @Test func actionsAppliedWhileACommitFailsAreRefusedWithIt() throws {
        let daemon = try DaemonHarness(arguments: ["--inline-commit-limit", "0"])
        let writer = try daemon.greetedClient()
        #expect(try writer.dispatchAndWait("add", ["text": "first"]).type == "ack")
        var walSize = stat()
        #expect(stat(daemon.dataDirectory + "/journal.sqlite3-wal", &walSize) == 0)
        try setFileSizeLimit(of: daemon.process.pid, to: String(walSize.st_size + 64 * 1024))

        var acked: [Int: String] = [1: "first"]
        var refused = 0
        for burst in 0..<40 where refused == 0 {
            var texts: [Int: String] = [:]
            for n in 0..<200 {
                let text = "burst \(burst) \(n) " + String(repeating: "f", count: 900)
                texts[try writer.dispatch("add", ["text": text])] = text
            }
            for _ in 0..<200 {
                let reply = try writer.receive()
                let text = try #require(reply.id.flatMap { texts[$0] }, "a reply to no dispatch: \(reply)")
                if reply.type == "ack" {
                    acked[try #require(reply.version)] = text
                } else {
                    #expect(reply.code == "storage_unavailable")
                    refused += 1
                }
            }
        }
        #expect(refused > 0, "no commit failed under the file-size limit")
        let versions = acked.keys.sorted()
        #expect(versions == Array(1...versions.count), "acknowledged versions with a gap: \(versions)")

        try setFileSizeLimit(of: daemon.process.pid, to: "unlimited")
        let retry = try writer.dispatchAndWait("add", ["text": "after the disk came back"])
        #expect(retry.version == versions.count + 1)
        #expect(try daemon.stop() == 0)
        // Every commit that failed started right after a durable version: none carried actions
        // applied on top of a failed one.
        let failedFirstVersions = daemon.process.standardError.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /commit of versions (\d+)-\d+ failed/).flatMap { Int($0.1) }
        }
        #expect(!failedFirstVersions.isEmpty)
        for first in failedFirstVersions {
            #expect(acked[first - 1] != nil, "a failed commit started at version \(first), after no durable version")
        }
        try daemon.start()
        let restored = try daemon.greetedClient().subscribeAndWait("list").update
        #expect(restored.itemTexts == versions.map { acked[$0]! } + ["after the disk came back"])
    }
}
