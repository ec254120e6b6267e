import SyncEngine
import SyncProtocol
import Testing

/// A connection's life on the engine alone: the handshake, the half-close rule, framing
/// errors, the peer policy, and slow readers.
@Suite struct EngineConnectionTests {
    @Test func aFirstMessageOtherThanHelloIsRefusedAndTheConnectionClosed() {
        let harness = EngineHarness()
        harness.open(1)
        harness.add(1, id: 1)
        #expect(harness.errorCodes(1) == ["handshake_required"])
        #expect(harness.closed == [1])
        #expect(harness.heldCommit == nil)
    }

    @Test func anotherAppsClientIsRefusedWithBothNamesAndAnUnnamedOneServed() {
        let harness = EngineHarness()
        harness.open(1)
        harness.send(1, #"{"type":"hello","id":0,"protocol":1,"client":"board/1","app":"board"}"#)
        #expect(harness.errorCodes(1) == ["wrong_app"])
        #expect(
            harness.sent(1, "error").first?["message"] as? String
                == "this is tallyd, serving tally; the client is board")
        #expect(harness.closed == [1])

        harness.greet(2)
        #expect(harness.sent(2, "welcome").first?["app"] as? String == "tally")
        #expect(!harness.closed.contains(2))
    }

    @Test func aPeerThePolicyDoesNotAllowIsRefused() {
        let harness = EngineHarness()
        harness.open(1, allowed: false)
        #expect(harness.errorCodes(1) == ["permission_denied"])
        #expect(harness.closed == [1])
        #expect(!harness.reading.contains(1))
    }

    @Test func aClientThatEndsItsInputIsAnsweredEverythingThenClosed() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.add(1, id: 1)
        harness.feed(.inputEnded(connection: 1))
        #expect(!harness.closed.contains(1), "its dispatch still waits for the commit")
        harness.settle()
        #expect(harness.types(1) == ["welcome", "ack"])
        #expect(harness.closed == [1], "closed once its last answer is written")
    }

    @Test func aClientThatEndsItsInputWithNothingAwaitedIsClosedAtOnce() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(1, #"{"type":"ping","id":3}"#)
        harness.feed(.inputEnded(connection: 1))
        #expect(harness.types(1) == ["welcome", "pong"])
        #expect(harness.closed == [1])
    }

    @Test func aOneShotGetOfAPastVersionIsAnsweredFromTheJournalThenClosed() {
        let harness = EngineHarness(commitMode: .inline)
        harness.greet(1)
        harness.add(1, id: 1, by: 2)
        harness.add(1, id: 2, by: 3)
        harness.greet(2)
        harness.send(2, #"{"type":"get","id":9,"viewModel":"tally","params":{},"at":1}"#)
        harness.feed(.inputEnded(connection: 2))
        let model = harness.sent(2, "model").first
        #expect(model?["version"] as? Int == 1)
        #expect((model?["model"] as? [String: Any])?["count"] as? Int == 2)
        #expect(harness.closed == [2])
    }

    @Test func historyListsOnlyDurableEntries() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.add(1, id: 1)
        harness.settle()
        harness.add(1, id: 2)
        harness.send(1, #"{"type":"history","id":5,"limit":10}"#)
        let entries = harness.sent(1, "entries").first?["entries"] as? [[String: Any]]
        #expect(entries?.map { $0["version"] as? Int } == [1], "version 2 is not durable yet")
    }

    /// An engine committing at once and holding its pool jobs, with `clients` greeted (1, 2, …)
    /// and one action of client 1 durable.
    private func holdingPoolJobs(clients: Int) -> EngineHarness {
        let harness = EngineHarness(commitMode: .inline)
        harness.holdsPoolJobs = true
        for client in 1...clients { harness.greet(client) }
        harness.add(1, id: 1)
        return harness
    }

    /// The entries of a history answer are turned into their wire form and encoded on the thread
    /// pool, not on the loop: nothing is answered until that work ends, and other requests are
    /// served meanwhile.
    @Test func historyIsEncodedOnThePoolWhileTheLoopServesOn() {
        let harness = holdingPoolJobs(clients: 2)
        harness.add(1, id: 2)
        harness.send(1, #"{"type":"history","id":5,"limit":10}"#)
        #expect(harness.sent(1, "entries").isEmpty, "answered before the pool encoded it")
        harness.send(2, #"{"type":"ping","id":9}"#)
        #expect(harness.sent(2, "pong").count == 1, "the loop serves another client meanwhile")
        #expect(harness.runPoolJobs() == 1)
        let answer = harness.sent(1, "entries").first
        #expect(answer?["id"] as? Int == 5)
        let entries = answer?["entries"] as? [[String: Any]]
        #expect(entries?.map { $0["version"] as? Int } == [1, 2])
        #expect((entries?.first?["payload"] as? [String: Any]) != nil, "each payload is the action's JSON")
    }

    /// History encodings run one at a time: a second waits for the first to end, and each
    /// answer goes to its own request.
    @Test func historyEncodingsRunOneAtATime() {
        let harness = holdingPoolJobs(clients: 1)
        harness.send(1, #"{"type":"history","id":5,"limit":10}"#)
        harness.send(1, #"{"type":"history","id":6,"limit":10}"#)
        #expect(harness.trace.filter { $0 == "pool job" }.count == 1, "the second waits for a turn")
        #expect(harness.runPoolJobs() == 1)
        #expect(harness.sent(1, "entries").map { $0["id"] as? Int } == [5])
        #expect(harness.runPoolJobs() == 1)
        #expect(harness.sent(1, "entries").map { $0["id"] as? Int } == [5, 6])
    }

    /// A shutdown waits for a history being encoded, and ends once it is, also when its client
    /// went away meanwhile (nothing to answer).
    @Test func aShutdownWaitsForAHistoryEncodingWhoseClientWentAway() {
        let harness = holdingPoolJobs(clients: 2)
        harness.send(1, #"{"type":"history","id":5,"limit":10}"#)
        harness.feed(.shutdownRequested)
        harness.feed(.failed(connection: 1, .clientWentAway(SocketError(code: -104, name: "ECONNRESET"))))
        #expect(!harness.types(2).contains("bye"), "the shutdown waits for the encoding")
        #expect(harness.runPoolJobs() == 1)
        #expect(harness.types(2).contains("bye"), "the encoding ended: the shutdown goes on")
        #expect(harness.sent(1, "entries").isEmpty)
    }

    @Test func anOversizedFrameClosesTheConnectionWithTheReason() {
        let harness = EngineHarness { $0.maximumFrameLength = 64 }
        harness.greet(1)
        harness.sendBytes(1, [0, 0, 1, 0])
        #expect(harness.errorCodes(1) == ["frame_too_large"])
        #expect(harness.closed == [1])
    }

    @Test func aSlowReaderGetsTheNewestModelOnceItReadsAgainAndCostsNothingMeanwhile() {
        let harness = EngineHarness(commitMode: .inline) { $0.softQueueLimit = 256 }
        harness.greet(1)
        harness.greet(2)
        harness.subscribe(2, id: 1, to: "notes")
        harness.stalled.insert(2)
        let long = String(repeating: "x", count: 300)
        for id in 1...20 {
            harness.send(1, #"{"type":"dispatch","id":\#(id),"action":{"name":"note","payload":{"text":"\#(long)"}}}"#)
        }
        #expect(harness.sent(1, "ack").count == 20)
        let whileStalled = harness.sent(2, "update").count
        #expect(whileStalled < 5, "updates coalesced while the client did not read (\(whileStalled) written)")
        #expect(!harness.reading.contains(2), "and its requests are not read")

        harness.drain(2)
        let last = harness.sent(2, "update").last
        #expect(last?["version"] as? Int == 20)
        #expect(((last?["model"] as? [String: Any])?["notes"] as? [String])?.count == 20)
        #expect(harness.reading.contains(2), "reading resumes once the queue drained")
    }

    @Test func repliesPastTheHardLimitDisconnectASlowConsumer() {
        let harness = EngineHarness { $0.hardQueueLimit = 512 }
        harness.greet(1)
        harness.stalled.insert(1)
        for id in 1...40 { harness.send(1, #"{"type":"ping","id":\#(id)}"#) }
        #expect(harness.closed == [1])
        #expect(harness.logs.contains { $0.level == .warning && $0.text.contains("slow consumer") })
    }
}
