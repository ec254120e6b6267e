import Testing

@testable import SyncProtocol

/// The optional fields of exactly-once dispatch: `clientId` in hello and welcome, `sequence` in
/// dispatch, and the client id rules.
@Suite struct ExactlyOnceMessageTests {
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

    @Test func decodesTheClientIDAndTheSequence() throws {
        #expect(
            try decode(#"{"type":"hello","id":1,"protocol":1,"client":"x/1","clientId":"a-1"}"#)
                == .hello(HelloRequest(id: 1, protocolVersion: 1, client: "x/1", clientID: "a-1")))
        #expect(
            try decode(#"{"type":"dispatch","id":2,"action":{"name":"add"},"sequence":7}"#)
                == .dispatch(DispatchRequest(id: 2, actionName: "add", sequence: 7)))
        #expect(
            try decode(#"{"type":"dispatch","id":2,"action":{"name":"add"},"sequence":9223372036854775807}"#)
                == .dispatch(DispatchRequest(id: 2, actionName: "add", sequence: Int64.max)))
        #expect(
            try decode(#"{"type":"dispatch","id":2,"action":{"name":"add"},"sequence":null}"#)
                == .dispatch(DispatchRequest(id: 2, actionName: "add", sequence: nil)))
    }

    @Test func aHelloPassesAnyStringClientIDOnForTheServerToJudge() throws {
        #expect(
            try decode(#"{"type":"hello","id":1,"protocol":1,"clientId":"not valid!"}"#)
                == .hello(HelloRequest(id: 1, protocolVersion: 1, client: "", clientID: "not valid!")))
        #expect(error(of: #"{"type":"hello","id":1,"protocol":1,"clientId":5}"#)?.code == .invalidMessage)
    }

    @Test(arguments: ["0", "-1", "1.5", #""1""#, "true", "18446744073709551615", "[1]"])
    func aSequenceThatIsNotAPositiveInteger(sequence: String) throws {
        let failure = try #require(
            error(of: #"{"type":"dispatch","id":3,"action":{"name":"add"},"sequence":\#(sequence)}"#))
        #expect(failure.code == .invalidMessage)
        #expect(failure.requestID == 3)
        #expect(failure.message.contains("sequence"))
    }

    @Test func aSequenceOnAnotherMessageIsIgnoredLikeAnyUnknownField() throws {
        #expect(try decode(#"{"type":"ping","id":4,"sequence":0,"clientId":""}"#) == .ping(PingRequest(id: 4)))
    }

    @Test func clientIDRules() {
        for valid in ["a", "A.b_c-9", String(repeating: "x", count: 64), "5f0c6a4e-1b7e-4f0e-9d61-3c2a1b0f9e77"] {
            #expect(ClientID(valid) != nil, "\(valid)")
        }
        #expect(ClientID.problem(with: "") == "it is empty")
        #expect(ClientID.problem(with: String(repeating: "x", count: 65)) == "it is longer than 64 characters")
        for invalid in ["a b", "a/b", "é", "a\u{0}", "x\n", "ünïcode", "1+1"] {
            #expect(ClientID.problem(with: invalid)?.contains("may only hold") == true, "\(invalid)")
        }
        let random = ClientID.random()
        #expect(ClientID(random.value) == random)
        #expect(random != ClientID.random())
    }

    @Test func theWelcomeCarriesTheClientIDAndLastSequenceOnlyWhenGiven() throws {
        let plain = ServerMessage.welcome(.init(id: 1, protocolVersion: 1, server: "todod/1", version: 7)).encoded()
        #expect(
            String(decoding: plain, as: UTF8.self)
                == #"{"id":1,"protocol":1,"server":"todod/1","type":"welcome","version":7}"#)
        let numbered = ServerMessage.welcome(
            .init(id: 1, protocolVersion: 1, server: "todod/1", version: 7, clientID: "c-1", lastSequence: 0)
        ).encoded()
        #expect(
            String(decoding: numbered, as: UTF8.self)
                == #"{"clientId":"c-1","id":1,"lastSequence":0,"protocol":1,"server":"todod/1","type":"welcome","version":7}"#
        )
        guard case .welcome(let welcome) = try ServerReply.decode(numbered),
            case .welcome(let old) = try ServerReply.decode(plain)
        else {
            Issue.record("not welcomes")
            return
        }
        #expect(welcome.clientID == "c-1" && welcome.lastSequence == 0 && welcome.version == 7)
        #expect(old.clientID == nil && old.lastSequence == nil)
    }

    @Test func theEncoderWritesWhatTheDecoderReads() throws {
        let hello = HelloRequest(id: 1, client: "c/1", clientID: "me").encoded()
        #expect(
            try ClientRequest.decode(hello)
                == .hello(HelloRequest(id: 1, protocolVersion: WireProtocol.version, client: "c/1", clientID: "me")))
        struct Empty: Encodable {}
        let dispatch = try DispatchRequest(id: 2, actionName: "undo", sequence: 12).encoded(payload: Empty())
        #expect(
            try ClientRequest.decode(dispatch) == .dispatch(DispatchRequest(id: 2, actionName: "undo", sequence: 12)))
        let unnumbered = try DispatchRequest(id: 3, actionName: "undo").encoded(payload: Empty())
        #expect(String(decoding: unnumbered, as: UTF8.self).contains("sequence") == false)
    }

    @Test func historyEntriesCarryTheClientIDAndSequenceWhenPresent() throws {
        let numbered = HistoryEntry(
            version: 3, name: "add", payload: .object([:]), acceptedAt: 5, uid: 1, pid: 2, clientID: "c", sequence: 9)
        #expect(
            String(decoding: try WireJSON.encode(numbered), as: UTF8.self)
                == #"{"acceptedAt":5,"clientId":"c","name":"add","payload":{},"pid":2,"sequence":9,"uid":1,"version":3}"#
        )
        #expect(try WireJSON.decode(HistoryEntry.self, from: WireJSON.encode(numbered)) == numbered)
        let plain = HistoryEntry(version: 3, name: "add", payload: .object([:]), acceptedAt: 5, uid: nil, pid: nil)
        #expect(
            String(decoding: try WireJSON.encode(plain), as: UTF8.self)
                == #"{"acceptedAt":5,"name":"add","payload":{},"version":3}"#)
    }

    @Test func staleSequenceIsAStableErrorCode() {
        #expect(ErrorCode.staleSequence.rawValue == "stale_sequence")
        #expect(ErrorCode(rawValue: "stale_sequence") == .staleSequence)
    }
}
