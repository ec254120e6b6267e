import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

@Suite(.blocking) struct HandshakeTests {
    @Test func helloIsAnsweredWithWelcome() throws {
        let daemon = try DaemonHarness()
        let client = try WireClient(path: daemon.socketPath)
        try client.send(["type": "hello", "id": 7, "protocol": 1, "client": "test/1", "future": true])
        let welcome = try client.receive()
        #expect(welcome.type == "welcome")
        #expect(welcome.id == 7)
        #expect(welcome["protocol"] as? Int == 1)
        #expect((welcome["server"] as? String)?.hasPrefix("todod/") == true)
        #expect(welcome.version == 0)
    }

    /// Every first message but hello is refused on the engine (`EngineRequestErrorTests`); one
    /// end to end, whose action is not applied.
    @Test(arguments: [#"{"type":"dispatch","id":1,"action":{"name":"add","payload":{"text":"x"}}}"#])
    func anythingBeforeHelloIsRefusedAndClosed(first: String) throws {
        let daemon = try DaemonHarness()
        let client = try WireClient(path: daemon.socketPath)
        try client.sendPayload(Data(first.utf8))
        let error = try client.receive()
        #expect(error.code == "handshake_required")
        #expect(error["id"] is NSNull)
        #expect(try client.readsEndOfStream())
        // Nothing was applied.
        #expect(try daemon.greetedClient().subscribeAndWait("list").update.version == 0)
    }
}
