import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// Small commits made on the event loop itself (no thread hops), larger ones and those under
/// load on the thread pool: both are durable before their ack, and the daemon's last log line
/// counts how many commits ran where.
@Suite(.blocking) struct InlineCommitTests {
    /// The numbers of the daemon's `stopped at version V; A actions in C commits (…, L on the
    /// loop thread)` line.
    private func commitCounts(_ log: String) throws -> (actions: Int, commits: Int, inline: Int) {
        let line = try #require(
            log.split(separator: "\n").first { $0.contains("stopped at version") }, "no final line in:\n\(log)")
        let numbers = line.split(separator: ";").last!.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap {
            Double($0)
        }
        try #require(numbers.count == 4, "unexpected final line: \(line)")
        return (Int(numbers[0]), Int(numbers[1]), Int(numbers[3]))
    }

    @Test(arguments: [nil, 0])
    func serialDispatchesAreDurableWhenAckedWhereverTheyCommit(inlineCommitLimit: Int?) throws {
        let daemon = try DaemonHarness(arguments: inlineCommitLimit.map { ["--inline-commit-limit", "\($0)"] } ?? [])
        let client = try daemon.greetedClient()
        let texts = (1...6).map { "item \($0)" }
        for (index, text) in texts.enumerated() {
            let ack = try client.dispatchAndWait("add", ["text": text])
            #expect(ack.type == "ack")
            #expect(ack.version == index + 1)
        }
        // Acked means on disk: a crash right after the last ack loses none of them.
        try daemon.crash()
        try daemon.start()
        #expect(try daemon.greetedClient().subscribeAndWait("list").update.itemTexts == texts)
        #expect(
            try daemon.greetedClient().dispatchAndWait("add", ["text": "after the crash"]).version == texts.count + 1)
        #expect(try daemon.stop() == 0)

        let counts = try commitCounts(daemon.process.standardError)
        #expect(counts.actions == 1 && counts.commits == 1)
        #expect(
            counts.inline == (inlineCommitLimit == 0 ? 0 : 1), "a lone action commits on the loop unless the limit is 0"
        )
    }

    @Test func eachActionAwaitedInTurnCommitsOnTheLoopThread() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let watcher = try daemon.greetedClient()
        _ = try watcher.subscribeAndWait("list")
        for number in 1...5 {
            let ack = try client.dispatchAndWait("add", ["text": "item \(number)"])
            #expect(ack.type == "ack")
            // The update reflecting the version went out before its ack, in the same pass.
            let update = try watcher.receive()
            #expect(update.type == "update" && update.version == number)
        }
        #expect(try daemon.stop() == 0)
        let counts = try commitCounts(daemon.process.standardError)
        #expect(counts.actions == 5 && counts.commits == 5 && counts.inline == 5)
    }

    @Test func aJournalReadOnThePoolDoesNotSendLaterCommitsThere() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        #expect(try client.dispatchAndWait("add", ["text": "before"]).type == "ack")
        // A history read is a job on the thread pool.
        #expect(try client.request(["type": "history", "id": 100]).type == "entries")
        for number in 1...5 {
            #expect(try client.dispatchAndWait("add", ["text": "item \(number)"]).type == "ack")
        }
        #expect(try daemon.stop() == 0)
        let counts = try commitCounts(daemon.process.standardError)
        #expect(counts.actions == 6 && counts.commits == 6 && counts.inline == 6)
    }

    @Test func aBurstLargerThanTheLimitIsGroupCommittedOnThePool() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let count = 200
        let first = client.makeID()
        try client.sendTogether(
            (0..<count).map { WireClient.dispatchMessage(id: first + $0, "add", ["text": "burst \($0)"]) })
        var acked = Set<Int>()
        while acked.count < count {
            let reply = try client.receive()
            #expect(reply.type == "ack")
            if let id = reply.id { acked.insert(id) }
        }
        #expect(acked == Set(first..<(first + count)))
        #expect(try daemon.greetedClient().subscribeAndWait("list").update.itemTexts?.count == count)
        #expect(try daemon.stop() == 0)
        let counts = try commitCounts(daemon.process.standardError)
        #expect(counts.actions == count)
        #expect(counts.commits < count, "a burst is committed in batches")
        #expect(counts.inline < counts.commits, "batches larger than the limit go to the thread pool")
    }
}
