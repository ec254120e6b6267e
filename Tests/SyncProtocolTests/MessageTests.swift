import Testing

@testable import SyncProtocol

@Suite struct ClientRequestTests {
    private func decode(_ json: String) throws(ProtocolError) -> ClientRequest {
        try ClientRequest.decode(Array(json.utf8))
    }

    private func code(of json: String) -> ErrorCode? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func decodesEveryRequestAndIgnoresUnknownFields() throws {
        #expect(
            try decode(#"{"type":"hello","id":1,"protocol":1,"client":"x/1","extra":[1,2]}"#)
                == .hello(HelloRequest(id: 1, protocolVersion: 1, client: "x/1", clientID: nil)))
        #expect(
            try decode(#"{"type":"dispatch","id":2,"action":{"name":"add","payload":{"text":"a"}}}"#)
                == .dispatch(DispatchRequest(id: 2, actionName: "add", sequence: nil)))
        #expect(
            try decode(#"{"type":"subscribe","id":3,"viewModel":"list","params":{}}"#)
                == .subscribe(SubscribeRequest(id: 3, viewModel: "list")))
        #expect(
            try decode(#"{"type":"unsubscribe","id":4,"subscription":7}"#)
                == .unsubscribe(UnsubscribeRequest(id: 4, subscription: 7)))
        #expect(try decode(#"{"id":5,"type":"ping"}"#) == .ping(PingRequest(id: 5)))
    }

    @Test func classifiesBrokenMessages() {
        #expect(code(of: "{not json") == .invalidJSON)
        #expect(
            ClientRequestTests.codeOfBytes(Array(#"{"type":"ping","id":1,"x":""#.utf8) + [0xFF, 0x22, 0x7D])
                == .invalidJSON)
        #expect(code(of: #"{"type":"ping","id":1} trailing"#) == .invalidJSON)
        #expect(code(of: "[1,2]") == .invalidMessage)
        #expect(code(of: "42") == .invalidMessage)
        #expect(code(of: #"{"id":1}"#) == .invalidMessage)
        #expect(code(of: #"{"type":"ping"}"#) == .invalidMessage)
        #expect(code(of: #"{"type":"ping","id":"one"}"#) == .invalidMessage)
        #expect(code(of: #"{"type":"ping","id":1.5}"#) == .invalidMessage)
        #expect(code(of: #"{"type":"dispatch","id":1}"#) == .invalidMessage)
        #expect(code(of: #"{"type":"dispatch","id":1,"action":{"payload":{}}}"#) == .invalidMessage)
        #expect(code(of: #"{"type":"teleport","id":1}"#) == .unknownMessage)
    }

    @Test func echoesTheRequestIDInErrorsWhenItCanBeRead() {
        do {
            _ = try decode(#"{"type":"teleport","id":9}"#)
            Issue.record("expected an error")
        } catch {
            #expect(error.requestID == 9)
        }
    }

    private static func codeOfBytes(_ bytes: [UInt8]) -> ErrorCode? {
        do {
            _ = try ClientRequest.decode(bytes)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func decodesTypedPayloadsAndParamsWithEmptyObjectsForOmittedOnes() throws {
        struct Payload: Decodable, Equatable { var text: String? }
        let explicit = try WireJSON.decode(
            DispatchEnvelope<Payload>.self, from: Array(#"{"action":{"name":"a","payload":{"text":"t"}}}"#.utf8))
        #expect(explicit.payload == Payload(text: "t"))
        let omitted = try WireJSON.decode(DispatchEnvelope<Payload>.self, from: Array(#"{"action":{"name":"a"}}"#.utf8))
        #expect(omitted.payload == Payload(text: nil))
        let params = try WireJSON.decode(SubscribeEnvelope<Payload>.self, from: Array(#"{"viewModel":"v"}"#.utf8))
        #expect(params.params == Payload(text: nil))
    }
}

@Suite struct ServerMessageTests {
    private func json(_ message: ServerMessage) -> String {
        String(decoding: message.encoded(), as: UTF8.self)
    }

    @Test func encodesEveryMessageWithSortedKeys() {
        #expect(
            json(.welcome(.init(id: 1, protocolVersion: 1, server: "todod/1.0", version: 7)))
                == #"{"id":1,"protocol":1,"server":"todod/1.0","type":"welcome","version":7}"#)
        #expect(json(.ack(id: 2, version: 8)) == #"{"id":2,"type":"ack","version":8}"#)
        #expect(json(.subscribed(id: 3, subscription: 1)) == #"{"id":3,"subscription":1,"type":"subscribed"}"#)
        #expect(json(.unsubscribed(id: 4, subscription: 1)) == #"{"id":4,"subscription":1,"type":"unsubscribed"}"#)
        #expect(json(.pong(id: 5)) == #"{"id":5,"type":"pong"}"#)
        #expect(
            json(.update(subscription: 2, version: 9, model: Array(#"{"a":[1]}"#.utf8)))
                == #"{"model":{"a":[1]},"subscription":2,"type":"update","version":9}"#)
        #expect(
            json(.update(subscription: 2, version: 9, model: Array("null".utf8)))
                == #"{"model":null,"subscription":2,"type":"update","version":9}"#)
        #expect(
            json(.patch(subscription: 2, version: 9, base: 7, patch: Array(#"[{"op":"remove","path":"/a"}]"#.utf8)))
                == #"{"base":7,"patch":[{"op":"remove","path":"/a"}],"subscription":2,"type":"update","version":9}"#)
        #expect(
            json(.welcome(.init(id: 1, protocolVersion: 1, server: "s", version: 0, features: ["patch"])))
                == #"{"features":["patch"],"id":1,"protocol":1,"server":"s","type":"welcome","version":0}"#)
    }

    @Test func framedIsTheFrameOfTheEncodedMessage() {
        let messages: [ServerMessage] = [
            .update(subscription: 2, version: 9, model: Array(#"{"a":[1]}"#.utf8)),
            .patch(subscription: 3, version: 10, base: 9, patch: Array("[]".utf8)),
            .ack(id: 4, version: 10), .ack(id: 0, version: 0), .ack(id: -7, version: 1),
            .ack(id: .max, version: .max), .ack(id: .min, version: 1_000_000),
            .pong(id: 5), .subscribed(id: 6, subscription: 2),
        ]
        for message in messages {
            #expect(message.framed() == FrameEncoder.frame(message.encoded()))
        }
    }

    @Test func encodesErrorsWithANullIDWhenNotTiedToARequest() {
        #expect(
            json(.error(ProtocolError(.invalidFrame, "Zero.")))
                == #"{"code":"invalid_frame","id":null,"message":"Zero.","type":"error"}"#)
        #expect(
            json(.error(ProtocolError(.unsupportedProtocol, "No.", requestID: 1), supported: [1]))
                == #"{"code":"unsupported_protocol","id":1,"message":"No.","supported":[1],"type":"error"}"#)
    }

    @Test func clientsDecodeWhatTheServerEncodes() throws {
        let reply = try WireJSON.decode(
            ServerReply.self,
            from: ServerMessage.update(subscription: 4, version: 5, model: Array("[1]".utf8)).encoded())
        #expect(reply == .update(subscription: 4, version: 5, base: nil))
        let model = try WireJSON.decode(
            UpdateEnvelope<[Int]>.self,
            from: ServerMessage.update(subscription: 4, version: 5, model: Array("[1]".utf8)).encoded())
        #expect(model.model == [1])
        let none = try WireJSON.decode(
            UpdateEnvelope<[Int]>.self,
            from: ServerMessage.update(subscription: 4, version: 5, model: Array("null".utf8)).encoded())
        #expect(none.model == nil)
    }
}
