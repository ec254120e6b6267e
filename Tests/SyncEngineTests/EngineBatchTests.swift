import SyncEngine
import SyncJournal
import SyncProtocol
import Testing

/// `batch` on the engine alone: all or nothing, consecutive versions, one commit, one ack,
/// exactly once when numbered, and all or nothing again when a rebase re-runs it.
@Suite struct EngineBatchTests {
    private static func batch(_ id: Int, _ actions: String, sequence: Int? = nil) -> String {
        let numbered = sequence.map { ",\"sequence\":\($0)" } ?? ""
        return #"{"type":"batch","id":\#(id),"actions":[\#(actions)]\#(numbered)}"#
    }

    @Test func theActionsApplyAtConsecutiveVersionsInOneCommitAndOneAck() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.subscribe(1, id: 1)
        harness.send(1, Self.batch(2, #"{"name":"add","payload":{"by":2}},{"name":"note","payload":{"text":"x"}}"#))
        #expect(harness.heldCommit?.entries.map(\.version) == [1, 2], "one transaction")
        harness.settle()
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [2], "acked once, with the last version")
        #expect(harness.types(1).suffix(2) == ["update", "ack"])
        #expect(harness.engine.appliedStore.state == .init(count: 2, notes: ["x"]))
    }

    @Test(arguments: [
        (#"{"name":"add","payload":{"by":1}},{"name":"add","payload":{"by":500}}"#, "rejected", "action 2 of 2"),
        (#"{"name":"add","payload":{"by":1}},{"name":"fly","payload":{}}"#, "unknown_action", "no action is named"),
        (#"{"name":"add","payload":{"by":1}},{"name":"wait","payload":{}}"#, "unknown_action", "is a side effect"),
        (#"{"name":"add","payload":{"by":"x"}}"#, "invalid_payload", "action 1 of 1"),
        (#"{"name":"add","payload":[]}"#, "invalid_payload", "must be an object"),
    ])
    func oneRefusedActionRefusesTheBatchAndNothingIsApplied(actions: String, code: String, says: String) {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(1, Self.batch(7, actions))
        #expect(harness.errorCodes(1) == [code])
        let error = harness.sent(1, "error").first
        #expect(error?["id"] as? Int == 7)
        #expect((error?["message"] as? String)?.contains("The batch was not applied") == true)
        #expect((error?["message"] as? String)?.contains(says) == true, "\(error?["message"] ?? "")")
        #expect(harness.heldCommit == nil && harness.engine.appliedStore.version == 0)
    }

    @Test(arguments: [
        #"{"type":"batch","id":3}"#, #"{"type":"batch","id":3,"actions":[]}"#, #"{"type":"batch","id":3,"actions":{}}"#,
    ])
    func aBatchWithoutActionsIsInvalid(frame: String) {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(1, frame)
        #expect(harness.errorCodes(1) == ["invalid_message"])
        #expect(!harness.closed.contains(1))
    }

    @Test func aNumberedBatchResentAfterALostAckIsAnsweredOnce() {
        let harness = EngineHarness()
        harness.greet(1, clientID: "laptop")
        let actions = #"{"name":"add","payload":{"by":1}},{"name":"add","payload":{"by":1}}"#
        harness.send(1, Self.batch(1, actions, sequence: 1))
        harness.feed(.failed(connection: 1, .clientWentAway(SocketError(code: -32, name: "EPIPE"))))
        harness.settle()
        harness.greet(2, clientID: "laptop")
        harness.send(2, Self.batch(1, actions, sequence: 1))
        #expect(harness.sent(2, "ack").map { $0["version"] as? Int } == [2])
        #expect(harness.journal.count == 2 && harness.engine.appliedStore.state.count == 2, "applied once")
    }

    @Test func aRebasedBatchThatNoLongerAppliesIsRefusedWhole() {
        let harness = EngineHarness(shared: true)
        harness.greet(1)
        harness.send(1, Self.batch(4, #"{"name":"add","payload":{"by":5}},{"name":"add","payload":{"by":30}}"#))
        let unsaved = harness.heldCommit!.entries
        let foreign = JournalEntry(
            version: 1, name: "add", payload: Array(#"{"by":80}"#.utf8), acceptedAt: 1, peerUID: nil, peerPID: nil,
            host: "elsewhere")
        harness.settle(.overtaken(foreign: [foreign], unsaved: unsaved))
        #expect(harness.errorCodes(1) == ["rejected"])
        #expect(
            (harness.sent(1, "error").first?["message"] as? String)?.contains("the batch no longer applies") == true)
        #expect(harness.heldCommit == nil, "its first action, which alone would apply, is not kept either")
        #expect(harness.engine.appliedStore.state.count == 80)
    }

    @Test func aRebasedBatchThatStillAppliesMovesWhole() {
        let harness = EngineHarness(shared: true)
        harness.greet(1)
        harness.send(1, Self.batch(4, #"{"name":"add","payload":{"by":5}},{"name":"add","payload":{"by":6}}"#))
        let unsaved = harness.heldCommit!.entries
        let foreign = JournalEntry(
            version: 1, name: "add", payload: Array(#"{"by":1}"#.utf8), acceptedAt: 1, peerUID: nil, peerPID: nil,
            host: "elsewhere")
        harness.settle(.overtaken(foreign: [foreign], unsaved: unsaved))
        #expect(harness.heldCommit?.entries.map(\.version) == [2, 3])
        harness.settle()
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [3])
    }
}
