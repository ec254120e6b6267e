import SyncEngine
import SyncJournal
import SyncProtocol
import SyncStore
import Testing

/// Durable before visible, and every update of version V before the ack of V, proved on the
/// engine alone: nothing of an action is shown, to anyone, until its commit is durable.
@Suite struct EngineDurabilityTests {
    @Test func nothingOfAnActionIsShownUntilItsCommitIsDurable() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.greet(2)
        harness.subscribe(2, id: 1)
        #expect(harness.types(2) == ["welcome", "subscribed", "update"])

        harness.add(1, id: 7, by: 5)
        #expect(harness.heldCommit?.entries.map(\.version) == [1], "the action is being committed")
        #expect(harness.types(1) == ["welcome"], "no ack before the commit is durable")
        #expect(harness.types(2) == ["welcome", "subscribed", "update"], "no update before it either")
        #expect(harness.published.isEmpty, "nor does a side effect see it")

        harness.settle()
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [1])
        #expect(harness.sent(2, "update").last?["version"] as? Int == 1)
        #expect((harness.sent(2, "update").last?["model"] as? [String: Any])?["count"] as? Int == 5)
        #expect(harness.published == [1])
    }

    @Test func theUpdateOfAVersionIsWrittenBeforeItsAck() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.subscribe(1, id: 1)
        harness.add(1, id: 2)
        harness.settle()
        #expect(harness.types(1) == ["welcome", "subscribed", "update", "update", "ack"])
        let writes = harness.trace.filter { $0.hasPrefix("write") || $0.hasPrefix("publish") || $0 == "settled" }
        #expect(writes.suffix(3) == ["settled", "publish 1", "write 1"], "update and ack leave in one write")
    }

    @Test func anInlineCommitIsAnsweredInTheSamePassAfterWhatWasReadyBeforeIt() {
        let harness = EngineHarness(commitMode: .inline)
        harness.greet(1)
        harness.add(1, id: 1)
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [1])
        #expect(harness.journal.map(\.version) == [1])
        let order = harness.trace.filter { !$0.hasPrefix("publish") }
        #expect(order == ["write 1", "commit 1-1", "write 1"], "the welcome went out before the fsync")
    }

    @Test func actionsAppliedWhileACommitRunsGoIntoTheNextCommitTogether() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.add(1, id: 1)
        harness.add(1, id: 2)
        harness.add(1, id: 3)
        #expect(harness.heldCommit?.entries.map(\.version) == [1])
        harness.settle()
        #expect(harness.heldCommit?.entries.map(\.version) == [2, 3], "one transaction for both")
        harness.settle()
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [1, 2, 3])
        #expect(harness.engine.durableVersion == 3)
    }

    @Test func aFailedCommitRollsBackEverythingAppliedOnTopOfIt() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.add(1, id: 1, by: 2)
        harness.add(1, id: 2, by: 3)
        harness.settle(.failed(durableVersion: 0, reason: "ENOSPC"))
        #expect(harness.errorCodes(1) == ["storage_unavailable", "storage_unavailable"])
        #expect(harness.sent(1, "error").map { $0["id"] as? Int } == [1, 2])
        #expect(harness.engine.appliedStore.version == 0 && harness.engine.appliedStore.state.count == 0)
        #expect(harness.heldCommit == nil, "what was applied on top of the lost commit is not committed")

        harness.add(1, id: 3, by: 4)
        harness.settle()
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [1], "version 1 again, with the new action")
        #expect(harness.journal.map(\.name) == ["add"])
    }

    @Test func anUncertainCommitOfALocalJournalStopsAtOnceAnsweringNoOne() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.add(1, id: 1)
        harness.settle(.uncertain(durableVersion: 0, reason: "EIO"))
        #expect(harness.stoppedAtOnce == "EIO")
        #expect(harness.types(1) == ["welcome"], "neither an ack nor an error: each could be a lie")
        #expect(harness.closed == [1])
    }

    @Test func aRewrittenLogRefusesEveryChangeFromThenOn() {
        let harness = EngineHarness(shared: true)
        harness.greet(1)
        harness.add(1, id: 1)
        harness.settle(.rewritten(durableVersion: 0, reason: "row 3 changed"))
        harness.add(1, id: 2)
        #expect(harness.errorCodes(1) == ["storage_unavailable", "storage_unavailable"])
        #expect((harness.sent(1, "error").last?["message"] as? String)?.contains("row 3 changed") == true)
        #expect(harness.heldCommit == nil)
        #expect(harness.engine.writeRefusal == "row 3 changed")
        #expect(harness.logs.contains { $0.level == .error && $0.text.contains("refusing every change") })
    }
}
