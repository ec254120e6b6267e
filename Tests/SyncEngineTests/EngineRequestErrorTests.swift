import SyncEngine
import Testing

/// Every error that answers one request and keeps the connection and the state, and the
/// handshake's refusals, on the engine alone (the integration tests keep one of each class
/// end to end).
@Suite struct EngineRequestErrorTests {
    /// Each request that is refused, with the error code it gets.
    static let refusals: [(code: String, frame: String)] = [
        ("invalid_message", #"{"type":"ping"}"#),
        ("invalid_message", #"{"type":"ping","id":"seven"}"#),
        ("invalid_message", #"{"type":"dispatch","id":1}"#),
        ("invalid_message", "[1,2,3]"),
        ("invalid_message", #"{"type":"hello","id":1,"protocol":1,"client":"again"}"#),
        ("invalid_json", #"{"type":"#),
        ("unknown_message", #"{"type":"teleport","id":1}"#),
        ("unknown_action", #"{"type":"dispatch","id":1,"action":{"name":"fly","payload":{}}}"#),
        ("invalid_payload", #"{"type":"dispatch","id":1,"action":{"name":"add","payload":{"by":"one"}}}"#),
        ("invalid_payload", #"{"type":"dispatch","id":1,"action":{"name":"note","payload":{}}}"#),
        ("invalid_payload", #"{"type":"dispatch","id":1,"action":{"name":"wait","payload":[]}}"#),
        ("rejected", #"{"type":"dispatch","id":1,"action":{"name":"add","payload":{"by":1000}}}"#),
        ("unknown_view_model", #"{"type":"subscribe","id":1,"viewModel":"weather","params":{}}"#),
        ("invalid_params", #"{"type":"subscribe","id":1,"viewModel":"note","params":{}}"#),
        ("invalid_params", #"{"type":"get","id":1,"viewModel":"note","params":{"index":"first"}}"#),
        ("unknown_subscription", #"{"type":"unsubscribe","id":1,"subscription":99}"#),
        ("future_version", #"{"type":"get","id":1,"viewModel":"tally","params":{},"at":7}"#),
    ]

    @Test(arguments: refusals.indices)
    func aRefusedRequestIsAnsweredWithItsCodeAndChangesNothing(index: Int) {
        let (code, frame) = Self.refusals[index]
        let harness = EngineHarness(commitMode: .inline)
        harness.greet(1)
        harness.add(1, id: 100, by: 2)
        harness.send(1, frame)
        #expect(harness.errorCodes(1) == [code], "\(frame)")
        let error = harness.sent(1, "error").first
        #expect((error?["message"] as? String)?.isEmpty == false)
        #expect(!harness.closed.contains(1), "the connection stays")
        #expect(harness.journal.count == 1 && harness.engine.appliedStore.state.count == 2, "the state is unchanged")
        harness.send(1, #"{"type":"ping","id":5}"#)
        #expect(harness.types(1).last == "pong")
    }

    @Test func aRejectionSaysWhatWasWrongAndAnswersItsRequest() {
        let harness = EngineHarness()
        harness.greet(1)
        harness.add(1, id: 3, by: 101)
        let error = harness.sent(1, "error").first
        #expect(error?["id"] as? Int == 3)
        #expect(error?["message"] as? String == "the tally would pass 100")
    }

    @Test func subscriptionsPerConnectionAreLimitedAndFreedByUnsubscribing() {
        let harness = EngineHarness { $0.maximumSubscriptionsPerConnection = 2 }
        harness.greet(1)
        harness.subscribe(1, id: 1)
        harness.subscribe(1, id: 2, to: "notes")
        harness.subscribe(1, id: 3)
        #expect(harness.errorCodes(1) == ["too_many_subscriptions"])
        harness.send(1, #"{"type":"unsubscribe","id":4,"subscription":1}"#)
        harness.subscribe(1, id: 5)
        #expect(harness.sent(1, "subscribed").map { $0["id"] as? Int } == [1, 2, 5])
    }

    @Test func anUnsupportedProtocolIsRefusedWithTheSupportedOnesAndClosed() {
        let harness = EngineHarness()
        harness.open(1)
        harness.send(1, #"{"type":"hello","id":1,"protocol":2,"client":"future/9"}"#)
        let error = harness.sent(1, "error").first
        #expect(error?["code"] as? String == "unsupported_protocol")
        #expect(error?["supported"] as? [Int] == [1])
        #expect(harness.closed == [1])
    }

    @Test(arguments: [
        #"{"type":"ping","id":1}"#, #"{"type":"dispatch","id":1,"action":{"name":"add","payload":{}}}"#,
        "not json", #"{"type":"teleport","id":1}"#,
    ])
    func anythingBeforeHelloIsRefusedAndClosed(first: String) {
        let harness = EngineHarness()
        harness.open(1)
        harness.send(1, first)
        #expect(harness.errorCodes(1) == ["handshake_required"])
        #expect(harness.closed == [1])
        #expect(harness.engine.appliedStore.version == 0)
    }
}
