import SyncEngine
import SyncProtocol
import Testing

/// Client-dispatched side effects and the graceful shutdown, on the engine alone.
@Suite struct EngineSideEffectTests {
    @Test func aSideEffectIsAnsweredWithItsResultOnceItEnds() throws {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(1, #"{"type":"dispatch","id":4,"action":{"name":"wait","payload":{}}}"#)
        #expect(harness.sideEffects.keys.sorted() == [1])
        harness.dispatchFromSideEffect(Add(by: 3), reply: 77)
        harness.settle()
        #expect(try harness.sideEffectAnswers[77]?.get() == 1, "its action's version, once durable")
        harness.feed(.sideEffectFinished(call: 1, .success(Array("42".utf8))))
        #expect(harness.sent(1, "result").first?["id"] as? Int == 4)
        #expect(harness.sent(1, "result").first?["result"] as? Int == 42)
    }

    @Test func aSideEffectIsCancelledWhenItsClientGoesAndAnswersNoOne() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(1, #"{"type":"dispatch","id":4,"action":{"name":"wait","payload":{}}}"#)
        harness.feed(.failed(connection: 1, .clientWentAway(SocketError(code: -104, name: "ECONNRESET"))))
        #expect(harness.cancelledCalls == [1])
        harness.feed(.sideEffectFinished(call: 1, .failure(ProtocolError(.cancelled, "cancelled"))))
        #expect(harness.types(1) == ["welcome"])
    }

    @Test func aSideEffectIsCancelledAtOnceWhenItsClientEndsItsInput() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(1, #"{"type":"dispatch","id":4,"action":{"name":"wait","payload":{}}}"#)
        harness.feed(.inputEnded(connection: 1))
        #expect(harness.cancelledCalls == [1], "cancelled when the input ends, not when the task ends")
        #expect(harness.errorCodes(1) == ["cancelled"])
        #expect(harness.sent(1, "error").first?["id"] as? Int == 4)
        #expect(harness.closed == [1], "nothing else awaited: the connection closes")
        harness.dispatchFromSideEffect(Add(), reply: 5, call: 1)
        #expect(harness.heldCommit == nil, "what the cancelled call still dispatched is not applied")
        #expect(throws: ProtocolError.self) { try harness.sideEffectAnswers[5]?.get() }
        harness.feed(.sideEffectFinished(call: 1, .success(Array("1".utf8))))
        #expect(harness.types(1) == ["welcome", "error"], "the task's late end answers no one")
    }

    @Test func aConnectionRunsAtMostItsLimitOfSideEffects() {
        let harness = EngineHarness { $0.maximumSideEffectsPerConnection = 2 }
        harness.greet(1)
        for id in 1...3 { harness.send(1, #"{"type":"dispatch","id":\#(id),"action":{"name":"wait","payload":{}}}"#) }
        #expect(harness.sideEffects.count == 2)
        #expect(harness.errorCodes(1) == ["too_many_side_effects"])
    }

    @Test func aShutdownFinishesTheCommitThenSaysByeAndEnds() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.send(1, #"{"type":"dispatch","id":4,"action":{"name":"wait","payload":{}}}"#)
        harness.add(1, id: 5)
        harness.feed(.shutdownRequested)
        #expect(harness.errorCodes(1) == ["cancelled"], "the running side effect is told")
        #expect(!harness.reading.contains(1), "no new request is read")
        #expect(harness.types(1).contains("bye") == false, "the commit in flight comes first")
        harness.settle()
        #expect(harness.types(1).suffix(2) == ["ack", "bye"])
        #expect(harness.closed == [1] && harness.shutdownFinished)
        #expect(harness.engine.shutdown == .finished)
    }
}
