import SyncEngine
import SyncJournal
import SyncProtocol
import SyncStore
import Testing

/// What the engine journals: each action's payload exactly as its client sent it, with the
/// acceptance identifier and time, so that a replay of the journal is the computation the
/// engine did, even for an action whose `Codable` loses what acceptance fixed.
@Suite struct EngineJournalFormTests {
    @Test func aDispatchIsJournaledAsItsClientSentItAndReplaysToTheSameState() throws {
        let harness = EngineHarness()
        harness.greet(1)
        harness.subscribe(1, id: 1, to: "notes")
        let payload = #"{ "prefix" : "at",  "extra": [1, 2] }"#
        harness.send(1, #"{"type":"dispatch","id":2,"action":{"name":"stamp","payload":\#(payload)}}"#)
        harness.settle()
        #expect(harness.sent(1, "ack").map { $0["version"] as? Int } == [1])

        let entry = try #require(harness.journal.first)
        #expect(String(decoding: entry.payload, as: UTF8.self) == payload, "the bytes as received")
        #expect(entry.acceptanceIdentifier != nil)
        #expect(entry.acceptedAt == 1_000)
        let shown = (harness.sent(1, "update").last?["model"] as? [String: Any])?["notes"] as? [String]
        #expect(shown == ["at 1000"])

        var replayed = Store(state: TallyApp.initialState)
        for entry in harness.journal { try ActionDirectory(TallyApp.actions).reapply(entry, to: &replayed) }
        #expect(replayed.state.notes == ["at 1000"], "the time its Codable drops is fixed again on replay")
    }

    @Test func anEntryKeptAsAcceptedIsAppliedWithoutAcceptingItAgain() throws {
        let accepted = JournalEntry(
            version: 1, name: "stamp", payload: Array(#"{"prefix":"old"}"#.utf8), acceptedAt: 5, peerUID: nil,
            peerPID: nil)
        var replayed = Store(state: TallyApp.initialState)
        try ActionDirectory(TallyApp.actions).reapply(accepted, to: &replayed)
        #expect(replayed.state.notes == ["old 0"], "no acceptance identifier: applied as it is")
    }

    @Test func eachActionOfABatchIsJournaledAsTheBatchGaveIt() throws {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(
            1,
            #"{"type":"batch","id":2,"actions":[{"name":"add","payload":{"by":2}},{"name":"stamp","payload":{"prefix":"b"}}]}"#
        )
        harness.settle()
        #expect(
            harness.journal.map { String(decoding: $0.payload, as: UTF8.self) } == [#"{"by":2}"#, #"{"prefix":"b"}"#])
        #expect(harness.journal.allSatisfy { $0.acceptanceIdentifier != nil })
        var replayed = Store(state: TallyApp.initialState)
        for entry in harness.journal { try ActionDirectory(TallyApp.actions).reapply(entry, to: &replayed) }
        #expect(replayed.state == TallyApp.State(count: 2, notes: ["b 1000"]))
    }
}
