import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// Exactly-once dispatch against the real daemon: a client id in hello, numbered dispatches, and
/// resends that are answered with the original ack instead of being applied again, across
/// connections, restarts, crashes and failed commits.
@Suite(.blocking) struct ExactlyOnceTests {
    /// A connection whose hello gave `clientID`, and its welcome.
    private func numberedClient(_ daemon: DaemonHarness, _ clientID: String) throws -> (
        client: WireClient, welcome: WireClient.Message
    ) {
        let client = try WireClient(path: daemon.socketPath)
        let welcome = try client.hello(clientID: clientID)
        return (client, welcome)
    }

    /// The items and version a new subscriber of `list` sees.
    private func list(_ daemon: DaemonHarness) throws -> (texts: [String], version: Int?) {
        let update = try daemon.greetedClient().subscribeAndWait("list").update
        return (update.itemTexts ?? [], update.version)
    }

    @Test func aDuplicateOfADurableDispatchGetsTheOriginalAckAndChangesNothing() throws {
        let daemon = try DaemonHarness()
        let (client, welcome) = try numberedClient(daemon, "phone-1")
        #expect(welcome["clientId"] as? String == "phone-1")
        #expect(welcome["lastSequence"] as? Int == 0)
        let first = try client.reply(to: client.dispatch("add", ["text": "milk"], sequence: 1))
        #expect(first.type == "ack" && first.version == 1)
        #expect(try client.reply(to: client.dispatch("add", ["text": "milk"], sequence: 1)).version == 1)
        // The daemon does not compare the resent action: the sequence alone identifies it.
        let different = try client.reply(to: client.dispatch("add", ["text": "bread"], sequence: 1))
        #expect(different.type == "ack" && different.version == 1)
        // Another connection of the same client (a reconnect) gets the same answer.
        let (again, rewelcome) = try numberedClient(daemon, "phone-1")
        #expect(rewelcome["lastSequence"] as? Int == 1)
        #expect(try again.reply(to: again.dispatch("add", ["text": "milk"], sequence: 1)).version == 1)
        #expect(try list(daemon) == (["milk"], 1))
        // Another client id numbers on its own; unnumbered dispatches are not deduplicated.
        let (other, _) = try numberedClient(daemon, "laptop-1")
        #expect(try other.reply(to: other.dispatch("add", ["text": "eggs"], sequence: 1)).version == 2)
        #expect(try client.dispatchAndWait("add", ["text": "eggs"]).version == 3)
        #expect(try client.dispatchAndWait("add", ["text": "eggs"]).version == 4)
        #expect(try list(daemon) == (["milk", "eggs", "eggs", "eggs"], 4))

        let history = try client.request(["type": "history", "id": client.makeID(), "after": 0, "limit": 10])
        let entries = try #require(history["entries"] as? [[String: Any]])
        #expect(entries.map { $0["clientId"] as? String } == ["phone-1", "laptop-1", nil, nil])
        #expect(entries.map { $0["sequence"] as? Int } == [1, 1, nil, nil])
    }

    @Test func aDuplicateOfAPendingDispatchWaitsForTheOriginalsCommit() throws {
        let daemon = try DaemonHarness()
        let (client, _) = try numberedClient(daemon, "c")
        let watcher = try daemon.greetedClient()
        _ = try watcher.subscribeAndWait("list")
        // Read together, the second is judged while the first still waits for its commit.
        let ids = [client.makeID(), client.makeID(), client.makeID()]
        try client.sendTogether([
            WireClient.dispatchMessage(id: ids[0], "add", ["text": "once"], sequence: 1),
            WireClient.dispatchMessage(id: ids[1], "add", ["text": "once"], sequence: 1),
            WireClient.dispatchMessage(id: ids[2], "add", ["text": "twice?"], sequence: 1),
        ])
        let replies = try client.replies(to: ids)
        #expect(replies.map(\.type) == ["ack", "ack", "ack"])
        #expect(replies.map(\.version) == [1, 1, 1])
        #expect(try list(daemon) == (["once"], 1))
        // The watcher saw one change.
        #expect(try watcher.receive().itemTexts == ["once"])
        try watcher.expectOnlyPong()
    }

    @Test func twoConnectionsOfOneClientResendingAtOnceApplyOnce() throws {
        let daemon = try DaemonHarness()
        let connections = try (0..<4).map { _ in try numberedClient(daemon, "shared").client }
        for round in 1...20 {
            let ids = try connections.map { try $0.dispatch("add", ["text": "round \(round)"], sequence: round) }
            let versions = try zip(connections, ids).map { try $0.reply(to: $1).version }
            #expect(Set(versions) == [round], "round \(round): \(versions)")
        }
        let (texts, version) = try list(daemon)
        #expect(texts == (1...20).map { "round \($0)" })
        #expect(version == 20)
    }

    @Test func aResendAfterARestartOrACrashGetsTheOriginalAck() throws {
        let daemon = try DaemonHarness()
        var (client, _) = try numberedClient(daemon, "survivor")
        for sequence in 1...3 {
            #expect(
                try client.reply(to: client.dispatch("add", ["text": "item \(sequence)"], sequence: sequence)).version
                    == sequence)
        }
        #expect(try daemon.stop() == 0)
        try daemon.start()
        var welcome: WireClient.Message
        (client, welcome) = try numberedClient(daemon, "survivor")
        #expect(welcome["lastSequence"] as? Int == 3)
        #expect(welcome.version == 3)
        #expect(try client.reply(to: client.dispatch("add", ["text": "item 2"], sequence: 2)).version == 2)
        #expect(try client.reply(to: client.dispatch("add", ["text": "item 4"], sequence: 4)).version == 4)

        // SIGKILL once the ack is in: the ledger comes back from the journal, not a final snapshot.
        try daemon.crash()
        try daemon.start()
        #expect(daemon.process.standardError.contains("recovered version 4"))
        (client, welcome) = try numberedClient(daemon, "survivor")
        #expect(welcome["lastSequence"] as? Int == 4)
        for sequence in [4, 1] {
            #expect(
                try client.reply(to: client.dispatch("add", ["text": "item \(sequence)"], sequence: sequence)).version
                    == sequence)
        }
        #expect(try list(daemon) == ((1...4).map { "item \($0)" }, 4))
    }

    @Test func theLedgerInAPeriodicSnapshotPlusTheReplayedTailIsExact() throws {
        let daemon = try DaemonHarness()
        let (client, _) = try numberedClient(daemon, "bulk")
        // More than the snapshot interval (1000), so that a snapshot holds part of the ledger.
        let count = 1100
        var ids: [Int] = []
        for chunk in stride(from: 1, through: count, by: 100) {
            let messages = (chunk..<chunk + 100).map { sequence -> [String: Any] in
                let id = client.makeID()
                ids.append(id)
                return WireClient.dispatchMessage(id: id, "add", ["text": "n\(sequence)"], sequence: sequence)
            }
            try client.sendTogether(messages)
        }
        let versions = try client.replies(to: ids).map(\.version)
        #expect(versions == (1...count).map { $0 })
        // The snapshot is encoded after its commit and saved by a later job.
        try eventually("no periodic snapshot was saved") {
            try JournalFile.query("SELECT count(*) FROM snapshots", on: JournalFile.path(daemon)) == ["1"] ? true : nil
        }
        try daemon.crash()
        try daemon.start()
        let log = daemon.process.standardError
        #expect(!log.contains("(snapshot at 0,"), "a periodic snapshot was taken: \(log)")
        #expect(log.contains("1 client id in the dispatch ledger"))
        let (again, welcome) = try numberedClient(daemon, "bulk")
        #expect(welcome["lastSequence"] as? Int == count)
        // The window holds the newest 256: 845 to 1100.
        #expect(try again.reply(to: again.dispatch("add", ["text": "n845"], sequence: 845)).version == 845)
        #expect(try again.reply(to: again.dispatch("add", ["text": "n1100"], sequence: 1100)).version == 1100)
        #expect(try again.reply(to: again.dispatch("add", ["text": "n844"], sequence: 844)).code == "stale_sequence")
        #expect(try list(daemon).version == count)
    }

    @Test func oldAndSkippedSequencesAreStaleNeverReapplied() throws {
        let daemon = try DaemonHarness()
        let (client, _) = try numberedClient(daemon, "c")
        let ids = (1...300).map { _ in client.makeID() }
        try client.sendTogether(
            ids.enumerated().map { WireClient.dispatchMessage(id: $1, "add", ["text": "n\($0 + 1)"], sequence: $0 + 1) }
        )
        #expect(try client.replies(to: ids).map(\.version) == (1...300).map { $0 })
        // Pairs leave the window when the client's next dispatch is recorded, once durable.
        #expect(try client.reply(to: client.dispatch("add", ["text": "n301"], sequence: 301)).version == 301)

        let stale = try client.reply(to: client.dispatch("add", ["text": "n1"], sequence: 1))
        #expect(stale.type == "error" && stale.code == "stale_sequence")
        let message = try #require(stale["message"] as? String)
        #expect(message.contains("Sequence 1 of client id \"c\""))
        #expect(message.contains("may or may not have been applied"))
        #expect(try client.reply(to: client.dispatch("add", ["text": "n44"], sequence: 44)).code == "stale_sequence")
        #expect(
            try client.reply(to: client.dispatch("add", ["text": "n45"], sequence: 45)).version == 45,
            "the window holds the newest 256 durable ones")

        // A gap is fine going forward; the skipped sequence cannot be used later.
        #expect(try client.reply(to: client.dispatch("add", ["text": "n303"], sequence: 303)).version == 302)
        let skipped = try client.reply(to: client.dispatch("add", ["text": "n302"], sequence: 302))
        #expect(skipped.code == "stale_sequence")
        #expect((skipped["message"] as? String)?.contains("highest applied one (303)") == true)
        #expect(try list(daemon).version == 302)
    }

    @Test func aRejectedDispatchIsNotRecordedAndIsJudgedAgainWhenResent() throws {
        let daemon = try DaemonHarness()
        let (client, _) = try numberedClient(daemon, "c")
        #expect(try client.reply(to: client.dispatch("complete", ["number": 1], sequence: 1)).code == "rejected")
        #expect(try client.reply(to: client.dispatch("add", [:], sequence: 1)).code == "invalid_payload")
        #expect(try client.reply(to: client.dispatch("fly", [:], sequence: 1)).code == "unknown_action")
        #expect(try client.reply(to: client.dispatch("add", ["text": "now"], sequence: 1)).version == 1)
        let (_, welcome) = try numberedClient(daemon, "c")
        #expect(welcome["lastSequence"] as? Int == 1)
        // Once a later one is applied, a rejected one resent is stale.
        #expect(try client.reply(to: client.dispatch("complete", ["number": 9], sequence: 2)).code == "rejected")
        #expect(try client.reply(to: client.dispatch("complete", ["number": 1], sequence: 3)).version == 2)
        #expect(try client.reply(to: client.dispatch("complete", ["number": 1], sequence: 2)).code == "stale_sequence")
    }

    @Test func aSequenceNeedsAClientIDInTheHello() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let error = try client.reply(to: client.dispatch("add", ["text": "x"], sequence: 1))
        #expect(error.type == "error" && error.code == "invalid_message")
        #expect((error["message"] as? String)?.contains("needs a connection whose hello gave a \"clientId\"") == true)
        try client.expectOnlyPong()
        #expect(try list(daemon) == ([], 0))
    }

    // A sequence that is not a positive integer, and a client id that is not valid, are refused
    // on the engine (`EngineExactlyOnceTests`).

    @Test func aResendAfterAFailedCommitIsApplied() throws {
        let daemon = try DaemonHarness()
        let (client, _) = try numberedClient(daemon, "disk")
        #expect(try client.reply(to: client.dispatch("add", ["text": "first"], sequence: 1)).version == 1)
        var walSize = stat()
        #expect(stat(daemon.dataDirectory + "/journal.sqlite3-wal", &walSize) == 0)
        try setFileSizeLimit(of: daemon.process.pid, to: String(walSize.st_size + 16 * 1024))

        // Each numbered dispatch goes out twice in one write: the duplicate shares the fate of
        // the original, ack or failure.
        var failed: (sequence: Int, text: String)?
        for sequence in 2..<200 where failed == nil {
            let text = "filler \(sequence) " + String(repeating: "f", count: 900)
            let ids = [client.makeID(), client.makeID()]
            try client.sendTogether(
                ids.map { WireClient.dispatchMessage(id: $0, "add", ["text": text], sequence: sequence) })
            let replies = try client.replies(to: ids)
            #expect(
                replies[0].type == replies[1].type && replies[0].version == replies[1].version
                    && replies[0].code == replies[1].code)
            if replies[0].type == "error" {
                #expect(replies[0].code == "storage_unavailable")
                failed = (sequence, text)
            }
        }
        let (sequence, text) = try #require(failed, "no commit failed under the file-size limit")
        let durable = try #require(try list(daemon).version)
        #expect(durable == sequence - 1)

        try setFileSizeLimit(of: daemon.process.pid, to: "unlimited")
        let retry = try client.reply(to: client.dispatch("add", ["text": text], sequence: sequence))
        #expect(retry.type == "ack" && retry.version == durable + 1, "the lost dispatch applies when resent")
        #expect(try client.reply(to: client.dispatch("add", ["text": text], sequence: sequence)).version == durable + 1)
        #expect(try daemon.stop() == 0)
        try daemon.start()
        let (again, welcome) = try numberedClient(daemon, "disk")
        #expect(welcome["lastSequence"] as? Int == sequence)
        #expect(try again.reply(to: again.dispatch("add", ["text": text], sequence: sequence)).version == durable + 1)
        #expect(try list(daemon).texts.filter { $0 == text }.count == 1)
    }

    private func setFileSizeLimit(of pid: pid_t, to limit: String) throws {
        // Only the soft limit ("N:"), which a process may raise again without privileges.
        let prlimit = try ChildProcess(
            "/usr/bin/prlimit", ["--pid", "\(pid)", "--fsize=\(limit):"], outputDirectory: "/tmp")
        guard try prlimit.waitForExit() == 0 else { throw TestFailure("prlimit failed: \(prlimit.standardError)") }
    }
}
