import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

@Suite(.blocking) struct ErrorTests {
    /// Errors that answer one request and leave the connection open, with the message provoking
    /// each: one of each kind end to end (every code is proved on the engine, in
    /// `EngineRequestErrorTests`).
    static var requestErrors: [(code: String, message: [String: Any])] {
        [
            ("invalid_message", ["type": "ping"]),
            (
                "unknown_action",
                ["type": "dispatch", "id": 1, "action": ["name": "fly", "payload": [:] as [String: Any]]]
            ),
            (
                "invalid_payload",
                ["type": "dispatch", "id": 1, "action": ["name": "complete", "payload": ["number": "one"]]]
            ),
            ("rejected", ["type": "dispatch", "id": 1, "action": ["name": "add", "payload": ["text": "   "]]]),
            ("invalid_params", ["type": "subscribe", "id": 1, "viewModel": "list", "params": ["filter": "someday"]]),
        ]
    }

    @Test(arguments: requestErrors.indices)
    func requestErrorsAnswerWithTheirCodeAndKeepTheConnectionAndState(index: Int) throws {
        let (code, message) = Self.requestErrors[index]
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        _ = try client.dispatchAndWait("add", ["text": "existing"])
        let error = try client.expectError(message)
        #expect(error.code == code)
        #expect(error.id == message["id"] as? Int)
        #expect((error["message"] as? String)?.isEmpty == false)
        try client.expectOnlyPong()
        let list = try client.subscribeAndWait("list").update
        #expect(list.version == 1 && list.itemTexts == ["existing"], "state unchanged by the failed request")
        #expect(try daemon.stop() == 0, "clean exit, no leak or sanitizer report")
    }

    @Test func rejectionsSayWhatWasWrong() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let error = try client.expectError([
            "type": "dispatch", "id": 3, "action": ["name": "remove", "payload": ["number": 9]],
        ])
        #expect(error["message"] as? String == "no item 9")
    }

    @Test func invalidJSONInAnIntactFrameKeepsTheConnection() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        for payload in [Data("{\"type\":".utf8), Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])] {
            try client.sendPayload(payload)
            let error = try client.receive()
            #expect(error.code == "invalid_json")
            #expect(error["id"] is NSNull)
        }
        try client.expectOnlyPong()
    }

    @Test func aMessageThatIsNotAnObjectIsInvalid() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        try client.sendPayload(Data("[1,2,3]".utf8))
        #expect(try client.receive().code == "invalid_message")
        try client.expectOnlyPong()
    }

    @Test func anOversizedFrameIsRefusedFromItsHeaderAndClosed() throws {
        let daemon = try DaemonHarness(arguments: ["--max-frame", "1024"])
        let client = try daemon.greetedClient()
        let bystander = try daemon.greetedClient()
        // Only the header is sent: the daemon must judge the length without waiting for a body.
        try client.sendRaw(Data([0x00, 0x00, 0x04, 0x01]))
        let error = try client.receive()
        #expect(error.code == "frame_too_large")
        #expect(error["id"] is NSNull)
        #expect(try client.readsEndOfStream())
        try bystander.expectOnlyPong()
        #expect(try daemon.stop() == 0, "clean exit, no leak or sanitizer report")
    }

    @Test func aFrameAtTheLimitIsAccepted() throws {
        let daemon = try DaemonHarness(arguments: ["--max-frame", "1024"])
        let client = try daemon.greetedClient()
        let prefix = #"{"id":5,"type":"ping","padding":""#
        let payload = prefix + String(repeating: "p", count: 1024 - prefix.utf8.count - 2) + #""}"#
        #expect(payload.utf8.count == 1024)
        try client.sendPayload(Data(payload.utf8))
        #expect(try client.receive().type == "pong")
    }

    @Test func anEmptyFrameIsInvalidAndClosed() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        try client.sendRaw(Data([0, 0, 0, 0]))
        let error = try client.receive()
        #expect(error.code == "invalid_frame")
        #expect(try client.readsEndOfStream())
    }
}
