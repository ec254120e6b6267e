import Testing

@testable import SyncProtocol

/// `get {id, viewModel, params, at?}` and its `model` reply.
@Suite struct TimeTravelMessageTests {
    private func decode(_ json: String) throws(ProtocolError) -> ClientRequest {
        try ClientRequest.decode(Array(json.utf8))
    }

    private func error(of json: String) -> ProtocolError? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesGetWithAndWithoutAVersion() throws {
        #expect(
            try decode(#"{"type":"get","id":1,"viewModel":"list","params":{"filter":"open"},"at":12}"#)
                == .get(GetRequest(id: 1, viewModel: "list", at: 12)))
        #expect(
            try decode(#"{"type":"get","id":2,"viewModel":"list"}"#)
                == .get(GetRequest(id: 2, viewModel: "list", at: nil)))
        #expect(
            try decode(#"{"type":"get","id":3,"viewModel":"list","at":0,"extra":{"at":"x"}}"#)
                == .get(GetRequest(id: 3, viewModel: "list", at: 0)))
        #expect(
            try decode(#"{"type":"get","id":4,"viewModel":"list","at":9223372036854775807}"#)
                == .get(GetRequest(id: 4, viewModel: "list", at: Int64.max)))
        // `at` belongs to `get`: other requests ignore it, however odd.
        #expect(
            try decode(#"{"type":"subscribe","id":5,"viewModel":"list","at":"x"}"#)
                == .subscribe(SubscribeRequest(id: 5, viewModel: "list")))
    }

    @Test func refusesVersionsThatAreNotNonNegativeIntegers() {
        for at in ["-1", "1.5", "2.0", "1e2", #""3""#, "true", "[3]", "{}", "9223372036854775808"] {
            let refusal = error(of: #"{"type":"get","id":7,"viewModel":"list","at":\#(at)}"#)
            #expect(refusal?.code == .invalidMessage, "at: \(at)")
            #expect(refusal?.requestID == 7, "at: \(at)")
        }
        #expect(
            error(of: #"{"type":"get","id":7,"viewModel":"list","at":-1}"#)?.message
                == #""at" must be a version: an integer of at least 0."#)
        #expect(
            error(of: #"{"type":"get","id":8,"at":1}"#)?.message == #"A "get" message needs the field "viewModel"."#)
        #expect(error(of: #"{"type":"get","id":9,"viewModel":"list","at":1,}"#)?.code == .invalidJSON)
    }

    @Test func encodesTheModelReplyAndClientsDecodeIt() throws {
        let reply = ServerMessage.model(id: 3, version: 12, model: Array(#"{"a":[1]}"#.utf8))
        #expect(
            String(decoding: reply.encoded(), as: UTF8.self)
                == #"{"id":3,"model":{"a":[1]},"type":"model","version":12}"#)
        #expect(reply.framed() == FrameEncoder.frame(reply.encoded()))
        #expect(try ServerReply.decode(reply.encoded()) == .model(id: 3, version: 12))
        struct Model: Decodable, Equatable { let a: [Int] }
        #expect(try WireJSON.decode(UpdateEnvelope<Model>.self, from: reply.encoded()).model == Model(a: [1]))
        let none = ServerMessage.model(id: 4, version: 0, model: Array("null".utf8))
        #expect(String(decoding: none.encoded(), as: UTF8.self) == #"{"id":4,"model":null,"type":"model","version":0}"#)
    }

    @Test func encodesGetRequests() throws {
        struct Params: Encodable { let filter: String }
        let past = try GetRequest(id: 5, viewModel: "list", at: 7).encoded(params: Params(filter: "open"))
        #expect(
            String(decoding: past, as: UTF8.self)
                == #"{"at":7,"id":5,"params":{"filter":"open"},"type":"get","viewModel":"list"}"#)
        #expect(try ClientRequest.decode(past) == .get(GetRequest(id: 5, viewModel: "list", at: 7)))
        let current = try GetRequest(id: 6, viewModel: "list", at: nil).encoded(params: Params(filter: "all"))
        #expect(try ClientRequest.decode(current) == .get(GetRequest(id: 6, viewModel: "list", at: nil)))
    }
}
