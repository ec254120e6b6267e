import Testing

@testable import SyncProtocol

/// Every request and reply as the client and the daemon encode them, byte for byte: the bytes
/// the encoders wrote before requests and replies were each described once (captured from
/// `RequestEncoder` and `ServerMessage` of that version), so a change of description that
/// changes the wire fails here.
@Suite struct WireBytesTests {
    private struct Params: Encodable { var filter: String }
    private struct Payload: Encodable {
        var text: String
        var number: Int
    }

    @Test func requestsAreWrittenAsBefore() throws {
        let cases: [([UInt8], String)] = [
            (
                HelloRequest(id: 1, client: "todo/0.1.0").encoded(),
                #"{"client":"todo/0.1.0","id":1,"protocol":1,"type":"hello"}"#
            ),
            (
                HelloRequest(id: 2, client: "todo/0.1.0", app: "todo", clientID: "5f0c-é\"q", features: ["patch", "x"])
                    .encoded(),
                #"{"app":"todo","client":"todo/0.1.0","clientId":"5f0c-é\"q","features":["patch","x"],"id":2,"protocol":1,"type":"hello"}"#
            ),
            (
                try DispatchRequest(id: 3, actionName: "add").encoded(
                    payload: Payload(text: "buy \"milk\" é/", number: -2)),
                #"{"action":{"name":"add","payload":{"number":-2,"text":"buy \"milk\" é/"}},"id":3,"type":"dispatch"}"#
            ),
            (
                try DispatchRequest(id: 4, actionName: "edit", sequence: 41).encoded(
                    payload: Payload(text: "t", number: 1)),
                #"{"action":{"name":"edit","payload":{"number":1,"text":"t"}},"id":4,"sequence":41,"type":"dispatch"}"#
            ),
            (
                try SubscribeRequest(id: 5, viewModel: "list").encoded(params: Params(filter: "all")),
                #"{"id":5,"params":{"filter":"all"},"type":"subscribe","viewModel":"list"}"#
            ),
            (
                UnsubscribeRequest(id: 6, subscription: 7).encoded(),
                #"{"id":6,"subscription":7,"type":"unsubscribe"}"#
            ),
            (PingRequest(id: Int64.min).encoded(), #"{"id":-9223372036854775808,"type":"ping"}"#),
            (HistoryRequest(id: 8, after: nil).encoded(), #"{"id":8,"limit":20,"type":"history"}"#),
            (
                HistoryRequest(id: 9, after: 3, limit: 1000).encoded(),
                #"{"after":3,"id":9,"limit":1000,"type":"history"}"#
            ),
            (
                try GetRequest(id: 10, viewModel: "list").encoded(params: Params(filter: "open")),
                #"{"id":10,"params":{"filter":"open"},"type":"get","viewModel":"list"}"#
            ),
            (
                try GetRequest(id: 11, viewModel: "list", at: 7).encoded(params: Params(filter: "open")),
                #"{"at":7,"id":11,"params":{"filter":"open"},"type":"get","viewModel":"list"}"#
            ),
        ]
        for (bytes, expected) in cases {
            #expect(String(decoding: bytes, as: UTF8.self) == expected)
        }
    }

    @Test func repliesAreWrittenAsBefore() {
        let cases: [(ServerMessage, String)] = [
            (
                .welcome(.init(id: 1, protocolVersion: 1, server: "todod/0.1.0", app: "todo", version: 12)),
                #"{"app":"todo","id":1,"protocol":1,"server":"todod/0.1.0","type":"welcome","version":12}"#
            ),
            (
                .welcome(
                    .init(
                        id: 1, protocolVersion: 1, server: "todod/0.1.0", version: 0, clientID: "5f0c",
                        lastSequence: 41, features: ["patch"])),
                #"{"clientId":"5f0c","features":["patch"],"id":1,"lastSequence":41,"protocol":1,"server":"todod/0.1.0","type":"welcome","version":0}"#
            ),
            (.ack(id: 3, version: 1), #"{"id":3,"type":"ack","version":1}"#),
            (
                .result(id: 4, version: 2, result: Array(#"{"removed":1}"#.utf8)),
                #"{"id":4,"result":{"removed":1},"type":"result","version":2}"#
            ),
            (
                .error(ProtocolError(.rejected, "no item \"9\" é", requestID: 4)),
                #"{"code":"rejected","id":4,"message":"no item \"9\" é","type":"error"}"#
            ),
            (
                .error(ProtocolError(.invalidJSON, "bad")),
                #"{"code":"invalid_json","id":null,"message":"bad","type":"error"}"#
            ),
            (
                .error(ProtocolError(.unsupportedProtocol, "No.", requestID: 1), supported: [1]),
                #"{"code":"unsupported_protocol","id":1,"message":"No.","supported":[1],"type":"error"}"#
            ),
            (.subscribed(id: 2, subscription: 1), #"{"id":2,"subscription":1,"type":"subscribed"}"#),
            (
                .update(subscription: 1, version: 1, model: Array(#"{"items":[]}"#.utf8)),
                #"{"model":{"items":[]},"subscription":1,"type":"update","version":1}"#
            ),
            (
                .patch(
                    subscription: 1, version: 2, base: 1, patch: Array(#"[{"op":"remove","path":"/items/0"}]"#.utf8)),
                #"{"base":1,"patch":[{"op":"remove","path":"/items/0"}],"subscription":1,"type":"update","version":2}"#
            ),
            (.unsubscribed(id: 5, subscription: 1), #"{"id":5,"subscription":1,"type":"unsubscribed"}"#),
            (.pong(id: 6), #"{"id":6,"type":"pong"}"#),
            (
                .model(id: 7, version: 3, model: Array("null".utf8)),
                #"{"id":7,"model":null,"type":"model","version":3}"#
            ),
            (.bye(reason: "the daemon is stopping"), #"{"reason":"the daemon is stopping","type":"bye"}"#),
            (
                .entries(
                    id: 8,
                    entries: try! WireJSON.encode([
                        HistoryEntry(
                            version: 2, name: "edit",
                            payload: .object(["text": .string("é \"q\""), "n": .number(1.5)]),
                            acceptedAt: 5, uid: 1000, pid: 7, clientID: "c", sequence: 3)
                    ])),
                #"{"entries":[{"acceptedAt":5,"clientId":"c","name":"edit","payload":{"n":1.5,"text":"é \"q\""},"pid":7,"sequence":3,"uid":1000,"version":2}],"id":8,"type":"entries"}"#
            ),
            (.entries(id: 9, entries: Array("[]".utf8)), #"{"entries":[],"id":9,"type":"entries"}"#),
        ]
        for (message, expected) in cases {
            #expect(String(decoding: message.encoded(), as: UTF8.self) == expected)
        }
    }

    /// What the daemon writes, a client reads back as the same fields.
    @Test func repliesReadBackAsWritten() throws {
        let welcome = ServerReply.Welcome(
            id: 1, protocolVersion: 1, server: "todod/0.1.0", app: "todo", version: 12, clientID: "c",
            lastSequence: 4, features: ["patch"])
        #expect(try ServerReply.decode(ServerMessage.welcome(welcome).encoded()) == .welcome(welcome))
        let error = ProtocolError(.unsupportedProtocol, "No.", requestID: 1)
        #expect(
            try ServerReply.decode(ServerMessage.error(error, supported: [1]).encoded())
                == .error(.init(error, supported: [1])))
    }
}
