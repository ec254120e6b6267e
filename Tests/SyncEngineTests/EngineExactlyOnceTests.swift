import SyncEngine
import SyncJournal
import SyncProtocol
import SyncStore
import Testing

/// Exactly-once dispatch and the shared log's rebase, on the engine alone.
@Suite struct EngineExactlyOnceTests {
    @Test func aResendAfterALostAckIsAnsweredWithTheOriginalsVersionAndAppliedOnce() {
        let harness = EngineHarness()
        harness.greet(1, clientID: "laptop")
        harness.add(1, id: 1, by: 4, sequence: 1)
        // The connection is lost before the ack could be written.
        harness.feed(.failed(connection: 1, .clientWentAway(SocketError(code: -32, name: "EPIPE"))))
        harness.settle()
        #expect(harness.types(1) == ["welcome"])

        harness.greet(2, clientID: "laptop")
        #expect(harness.sent(2, "welcome").first?["lastSequence"] as? Int == 1)
        harness.add(2, id: 1, by: 4, sequence: 1)
        #expect(harness.sent(2, "ack").map { $0["version"] as? Int } == [1])
        #expect(harness.heldCommit == nil, "nothing new to commit")
        #expect(harness.journal.count == 1 && harness.engine.appliedStore.state.count == 4)
    }

    @Test func aDuplicateOfADispatchStillCommittingGetsTheOriginalsOutcome() {
        let harness = EngineHarness()
        harness.greet(1, clientID: "laptop")
        harness.add(1, id: 1, sequence: 1)
        harness.greet(2, clientID: "laptop")
        harness.add(2, id: 1, sequence: 1)
        #expect(harness.types(2) == ["welcome"], "it waits for the original's commit")
        harness.settle(.failed(durableVersion: 0, reason: "EIO"))
        #expect(harness.errorCodes(1) == ["storage_unavailable"])
        #expect(harness.errorCodes(2) == ["storage_unavailable"], "the same outcome as the original")
    }

    @Test func aStaleSequenceIsRefusedAndNotApplied() {
        let harness = EngineHarness(commitMode: .inline) { _ in }
        harness.greet(1, clientID: "laptop")
        for sequence in 1...3 { harness.add(1, id: sequence, sequence: sequence) }
        harness.add(1, id: 9, sequence: 2)
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [1, 2, 3, 2])
        #expect(harness.engine.appliedStore.state.count == 3)
    }

    @Test func aNumberedDispatchNeedsAClientID() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.add(1, id: 1, sequence: 1)
        #expect(harness.errorCodes(1) == ["invalid_message"])
        #expect(harness.heldCommit == nil)
    }

    @Test(arguments: ["0", "-1", "1.5", "\"1\"", "true"])
    func aSequenceThatIsNotAPositiveIntegerIsRefused(sequence: String) {
        let harness = EngineHarness()
        harness.greet(1, clientID: "laptop")
        harness.send(
            1, #"{"type":"dispatch","id":4,"action":{"name":"add","payload":{}},"sequence":"# + sequence + "}")
        #expect(harness.errorCodes(1) == ["invalid_message"])
        #expect((harness.sent(1, "error").first?["message"] as? String)?.contains("sequence") == true)
        #expect(harness.heldCommit == nil && !harness.closed.contains(1))
    }

    @Test(arguments: ["", String(repeating: "x", count: 65), "has space", "slash/y", "ünï"])
    func aBadClientIDIsRefusedAndTheConnectionClosed(clientID: String) {
        let harness = EngineHarness()
        harness.greet(1, clientID: clientID)
        #expect(harness.errorCodes(1) == ["invalid_message"])
        #expect(
            (harness.sent(1, "error").first?["message"] as? String)?.contains("\"clientId\" is not a valid client id")
                == true)
        #expect(harness.closed == [1])
    }

    @Test func anOvertakenCommitIsRebasedOnTheOtherHostsEntriesAndCommittedAgain() {
        let harness = EngineHarness(shared: true)
        harness.greet(1)
        harness.subscribe(1, id: 1)
        harness.add(1, id: 2, by: 5)
        let unsaved = harness.heldCommit!.entries
        let foreign = JournalEntry(
            version: 1, name: "add", payload: Array(#"{"by":10}"#.utf8), acceptedAt: 1, peerUID: nil, peerPID: nil,
            clientID: nil, clientSequence: nil, host: "elsewhere")
        harness.settle(.overtaken(foreign: [foreign], unsaved: unsaved))
        #expect(harness.types(1).last == "update", "the other host's entry is durable, so shown")
        #expect(harness.heldCommit?.entries.map(\.version) == [2], "this host's action moved after it")
        harness.settle()
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [2])
        #expect((harness.sent(1, "update").last?["model"] as? [String: Any])?["count"] as? Int == 15)
    }

    @Test func aRebasedActionThatNoLongerAppliesIsRejected() {
        let harness = EngineHarness(shared: true)
        harness.greet(1)
        harness.add(1, id: 2, by: 50)
        let unsaved = harness.heldCommit!.entries
        let foreign = JournalEntry(
            version: 1, name: "add", payload: Array(#"{"by":90}"#.utf8), acceptedAt: 1, peerUID: nil, peerPID: nil,
            clientID: nil, clientSequence: nil, host: "elsewhere")
        harness.settle(.overtaken(foreign: [foreign], unsaved: unsaved))
        #expect(harness.errorCodes(1) == ["rejected"])
        #expect(harness.heldCommit == nil)
        #expect(harness.engine.durableVersion == 1 && harness.engine.appliedStore.state.count == 90)
    }
}
