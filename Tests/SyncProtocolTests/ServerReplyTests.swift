import Testing

@testable import SyncProtocol

/// The client's typed reading of server messages: each type its case, the scan of the fast
/// path and `JSONDecoder` agreeing, and unknown types kept as such.
@Suite struct ServerReplyTests {
    private func reply(_ json: String) throws -> ServerReply {
        try ServerReply.decode(Array(json.utf8))
    }

    @Test func eachMessageTypeIsItsOwnCase() throws {
        #expect(try reply(#"{"id":2,"type":"ack","version":8}"#) == .ack(id: 2, version: 8))
        #expect(
            try reply(#"{"base":3,"patch":[],"subscription":1,"type":"update","version":4}"#)
                == .update(subscription: 1, version: 4, base: 3))
        #expect(
            try reply(#"{"code":"rejected","id":4,"message":"no item 9","type":"error"}"#)
                == .error(.init(id: 4, code: "rejected", message: "no item 9", supported: nil)))
        #expect(try reply(#"{"reason":"stopping","type":"bye"}"#) == .bye(reason: "stopping"))
        #expect(try reply(#"{"id":7,"type":"later"}"#) == .unknown(type: "later", id: 7))
        let welcome = ServerMessage.welcome(.init(id: 1, protocolVersion: 1, server: "todod", app: "todo", version: 5))
        guard case .welcome(let fields) = try ServerReply.decode(welcome.encoded()) else {
            Issue.record("not a welcome")
            return
        }
        #expect(fields.server == "todod" && fields.app == "todo" && fields.version == 5 && fields.clientID == nil)
    }

    @Test func theScanAndTheDecoderAgree() throws {
        for json in [
            #"{"id":2,"type":"ack","version":8}"#, #"{"id":3,"subscription":9,"type":"subscribed"}"#,
            #"{"id":3,"subscription":9,"type":"unsubscribed"}"#, #"{"id":5,"type":"pong"}"#,
            #"{"model":{"a":1},"subscription":1,"type":"update","version":4}"#,
        ] {
            let bytes = Array(json.utf8)
            let scanned = try #require(ServerReply.scanned(bytes), "\(json) is scanned")
            #expect(scanned == (try WireJSON.decode(ServerReply.self, from: bytes)), "\(json)")
        }
        #expect(ServerReply.scanned(Array(#"{"code":"x","id":2,"type":"ack","version":8}"#.utf8)) == nil)
    }

    @Test func aKnownTypeWithoutItsFieldsDoesNotDecode() {
        #expect(throws: (any Error).self) { try reply(#"{"id":2,"type":"ack"}"#) }
    }
}
