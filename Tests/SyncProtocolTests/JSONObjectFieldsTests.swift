import Testing

@testable import SyncProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@Suite struct JSONObjectFieldsTests {
    private func fields(_ json: String) -> JSONObjectFields? {
        JSONObjectFields(Array(json.utf8))
    }

    private func text(_ fields: JSONObjectFields, _ range: Range<Int>) -> String {
        String(decoding: fields.bytes[range], as: UTF8.self)
    }

    @Test func findsEveryTopLevelMemberWithItsKindAndBytes() throws {
        let json = #" { "a" : "x\"y" , "b":-12.5e+3,"c":{"d":[1,{"e":null}]},"f":[],"g":true,"h":false,"i":null } "#
        let found = try #require(fields(json))
        #expect(found.members.map { text(found, $0.key) } == ["a", "b", "c", "f", "g", "h", "i"])
        #expect(found.members.map(\.kind) == [.string, .number, .object, .array, .bool, .bool, .null])
        #expect(
            found.members.map { text(found, $0.value) } == [
                #""x\"y""#, "-12.5e+3", #"{"d":[1,{"e":null}]}"#, "[]", "true", "false", "null",
            ])
        #expect(fields("{}")?.members.isEmpty == true)
    }

    @Test func readsPlainStringsAndIntegersOnly() throws {
        let found = try #require(
            fields(
                #"{"s":"plain","e":"a\nb","i":42,"n":-7,"f":1.0,"x":1e2,"big":9223372036854775807,"min":-9223372036854775808,"over":9223372036854775808,"z":-0}"#
            ))
        #expect(found.plainString("s") == "plain")
        #expect(found.plainString("e") == nil)
        #expect(found.plainString("i") == nil)
        #expect(found.plainString("absent") == nil)
        #expect(found.plainInteger("i") == 42)
        #expect(found.plainInteger("n") == -7)
        #expect(found.plainUnsigned("n") == nil)
        #expect(found.plainInteger("f") == nil)
        #expect(found.plainInteger("x") == nil)
        #expect(found.plainInteger("big") == Int64.max)
        #expect(found.plainInteger("min") == Int64.min)
        #expect(found.plainInteger("over") == nil)
        #expect(found.plainInteger("z") == 0)
        #expect(found.plainInteger("s") == nil)
    }

    @Test func refusesWhatIsNotOnePlainObject() {
        let refused = [
            "", "[]", "42", #""s""#, "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1 "b":2}"#, #"{a:1}"#,
            #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":+1}"#, #"{"a":tru}"#,
            #"{"a":nul}"#,
            #"{"a":"\x"}"#, #"{"a":"\u12G4"}"#, "{\"a\":\"tab\there\"}", #"{"a":"open}"#, #"{"a":[1,]}"#, #"{"a":[1}"#,
            #"{"a":{"b"}}"#, #"{"a":1} x"#, #"{"a":1}{}"#, #"{"a":1,"a":2}"#, #"{"\u0061":1}"#,
            "{\"a\":" + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}",
        ]
        for json in refused {
            #expect(fields(json) == nil, "accepted \(json)")
        }
    }

    @Test func acceptsOnlyWhatJSONDecoderAccepts() {
        let samples = [
            #"{"a":[1,2.5,-3e-2,"\u00e9\/\b\f\n\r\t",true,false,null,{}]}"#, #"{"a":1}"#, #"{"a":1,}"#, #"{"a":01}"#,
            #"{"a":"\x"}"#, #"{"a":[1,]}"#, #"{"a":1} x"#, #"{"a":0.0e0,"b":-0}"#, " {\n\"a\"\t:\r1 } ",
        ]
        for json in samples where fields(json) != nil {
            #expect(
                (try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))) != nil,
                "scanned but not decodable: \(json)")
        }
    }

    /// Strings are skipped eight bytes at a time: an escape, a closing quote or a control
    /// character is found wherever it falls in a word.
    @Test func findsEveryStringEndAndEscapeWhateverItsOffset() throws {
        for length in 0..<20 {
            let padding = String(repeating: "x", count: length)
            for (inside, valid) in [
                (#"\""#, true), (#"\n"#, true), (#"\u00e9"#, true), ("\t", false), (#"\q"#, false), ("", true),
            ] {
                for tail in ["", "yyyyyyyyy"] {
                    let json = #"{"s":""# + padding + inside + tail + #"","n":1}"#
                    let found = fields(json)
                    #expect((found != nil) == valid, "\(json)")
                    if let found {
                        #expect(found.plainInteger("n") == 1, "\(json)")
                        #expect(
                            text(found, found.member("s")!.value) == "\"" + padding + inside + tail + "\"", "\(json)")
                    }
                }
            }
        }
    }

    @Test func scansAMemberObjectOfALargerMessage() throws {
        let bytes = Array(#"{"action":{"name":"edit","payload":{"number":1}},"id":3}"#.utf8)
        let message = try #require(JSONObjectFields(bytes))
        let action = try #require(message.member("action"))
        let inner = try #require(JSONObjectFields(bytes, range: action.value))
        #expect(inner.plainString("name") == "edit")
        #expect(inner.member("payload")?.kind == .object)
    }

    /// One pass along `action.payload` finds what a scan of each object on its own finds: the
    /// same members at every level, the payload's only when it is plain, and nothing for an
    /// object whose keys are not plain.
    @Test func onePassAlongAPathFindsWhatSeparateScansFind() throws {
        let messages = [
            #"{"action":{"name":"edit","payload":{"number":1,"text":"a"}},"id":3,"type":"dispatch"}"#,
            #"{"action":{"name":"e","payload":{"text":"a\"b"}},"id":3}"#,
            #"{"action":{"name":"e","payload":{"n":1.5}}}"#,
            #"{"action":{"name":"e","payload":{"a":{"b":1,"b":2}}}}"#,
            #"{"action":{"name":"e","payload":{"a":1,"a":2}}}"#,
            #"{"action":{"name":"e","payload":{"\u0061":1}}}"#,
            #"{"action":{"name":"e","name":"f","payload":{"a":1}}}"#,
            #"{"action":{"name":"e","payload":[1]}}"#,
            #"{"action":{"name":"e","payload":{}}}"#,
            #"{"action":{"name":"e"},"payload":{"a":1}}"#,
            #"{"id":1,"action":{"payload":{"a":{"payload":{}}},"name":"x\u00e9"}}"#,
            #"{ "action" : { "payload" : { "a" : [ {"x":1} ] } } }"#,
            #"{"action":{"payload":{"a":1},"payload":{"b":2},"payload":{"c":3}}}"#,
            #"{"action":{"payload":{"a":1}},"action":{"payload":{"b":2}}}"#,
            #"{"\u0061ction":{"payload":{"a":1}}}"#,
            #"{"action":{"payload":\#(String(repeating: "[", count: 509))\#(String(repeating: "]", count: 509))}}"#,
            #"{"action":{"payload":{"a":\#(String(repeating: "[", count: 509))\#(String(repeating: "]", count: 509))}}}"#,
            #"{"action":{"payload":{"a":\#(String(repeating: "[", count: 510))\#(String(repeating: "]", count: 510))}}}"#,
        ]
        #expect(JSONScanner.fault(in: Array(messages[messages.count - 2].utf8)) == nil, "512 deep is allowed")
        #expect(JSONScanner.fault(in: Array(messages[messages.count - 1].utf8)) != nil, "513 deep is not")
        for json in messages {
            let bytes = Array(json.utf8)
            let once = JSONObjectFields(bytes, expanding: ["action", "payload"])
            let alone = JSONObjectFields(bytes)
            #expect(once?.members == alone?.members, "\(json)")
            guard let once else { continue }
            let action = try #require(once.member("action"), "\(json)")
            let actionAlone = JSONObjectFields(bytes, range: action.value)
            #expect(once.expandedObject(action)?.members == actionAlone?.members, "\(json)")
            guard let actionOnce = once.expandedObject(action), let payload = actionOnce.member("payload") else {
                continue
            }
            let payloadAlone = JSONObjectFields(plain: bytes, range: payload.value)
            let payloadOnce = actionOnce.expandedObject(payload).flatMap { $0.isKnownPlain ? $0 : nil }
            #expect(payloadOnce?.members == payloadAlone?.members, "\(json)")
            if let payloadOnce {
                #expect(payloadOnce.members.allSatisfy { payloadOnce.expandedObject($0) == nil }, "\(json)")
            }
        }
        let plain = Array(#"{"action":{"payload":{"n":1}}}"#.utf8)
        let scanned = try #require(JSONObjectFields(plain, expanding: ["action", "payload"]))
        let payload = try #require(scanned.expandedObject(scanned.members[0])?.members.first)
        #expect(scanned.expandedObject(scanned.members[0])?.expandedObject(payload)?.isKnownPlain == true)
        #expect(scanned.isKnownPlain == false)
    }

    /// Invalid JSON anywhere along the path fails the one pass as it fails a scan of the whole.
    @Test func onePassAlongAPathRefusesInvalidJSON() {
        for json in [
            #"{"action":{"name":"e","payload":{"a":1,}}}"#, #"{"action":{"payload":{"a":tru}}}"#,
            #"{"action":{"payload":{"a":1}}"#, #"{"action":{"payload":{"a":"\u00"}}}"#,
        ] {
            #expect(JSONObjectFields(Array(json.utf8), expanding: ["action", "payload"]) == nil, "\(json)")
            #expect(JSONScanner.fault(in: Array(json.utf8)) != nil, "\(json)")
        }
    }
}

@Suite struct ScannedMessageTests {
    /// Requests read by the scanner and by `JSONDecoder` give the same request or error code.
    @Test func requestsDecodeAlikeBothWays() {
        let requests = [
            #"{"type":"dispatch","id":2,"action":{"name":"add","payload":{"text":"a"}}}"#,
            #"{"type":"dispatch","id":2,"sequence":9,"action":{"name":"add"}}"#,
            #"{"type":"dispatch","id":2,"sequence":0,"action":{"name":"add"}}"#,
            #"{"type":"dispatch","id":2,"sequence":-4,"action":{"name":"add"}}"#,
            #"{"type":"dispatch","id":2}"#,
            #"{"type":"dispatch","id":2,"action":{"payload":{}}}"#,
            #"{"type":"dispatch","id":2,"action":[]}"#,
            #"{"type":"dispatch","id":2,"action":{"name":7}}"#,
            #"{"type":"dispatch","id":2,"sequence":"1","action":{"name":"add"}}"#,
            #"{"type":"subscribe","id":3,"viewModel":"list","params":{}}"#,
            #"{"type":"subscribe","id":3}"#,
            #"{"type":"subscribe","id":3,"viewModel":null}"#,
            #"{"type":"unsubscribe","id":4,"subscription":7}"#,
            #"{"type":"unsubscribe","id":4,"subscription":7.5}"#,
            #"{"type":"history","id":6,"after":3,"limit":1000}"#,
            #"{"type":"history","id":6,"limit":1001}"#,
            #"{"type":"history","id":6,"after":-1}"#,
            #"{"type":"history","id":6}"#,
            #"{"type":"ping","id":5,"viewModel":7}"#,
            #"{"type":"ping"}"#,
            #"{"type":"ping","id":-9223372036854775808}"#,
            #"{"type":"ping","id":9223372036854775808}"#,
            #"{"type":"hello","id":1,"protocol":1,"client":"c/1","app":"todo","clientId":"me"}"#,
            #"{"type":"hello","id":1,"protocol":1.0,"client":"c/1"}"#,
            #"{"type":"hello","id":1,"client":"c/1"}"#,
            #"{"type":"hello","id":1,"protocol":1,"features":["patch"]}"#,
            #"{"type":"hello","id":1,"protocol":1,"client":7}"#,
            #"{"type":"get","id":7,"viewModel":"list","params":{},"at":3}"#,
            #"{"type":"get","id":7,"viewModel":"list","at":-1}"#,
            #"{"type":"get","id":7,"at":3}"#,
            #"{"type":"dispatch","id":2,"action":{"name":"add"},"sequence":2.0}"#,
            #"{"type":"dispatch","id":2,"action":null}"#,
            #"{"type":"later","id":2}"#,
        ]
        for json in requests {
            let payload = Array(json.utf8)
            #expect(
                outcome { () throws(ProtocolError) in try ClientRequest.decode(payload) }
                    == outcome { () throws(ProtocolError) in try ClientRequest.decodeWithJSONDecoder(payload) },
                "\(json)")
        }
    }

    /// The frequent requests, written plainly, are read by the scan alone: no `JSONDecoder`.
    @Test func plainRequestsAreScanned() throws {
        let requests = [
            #"{"action":{"name":"edit","payload":{"number":1}},"id":3,"sequence":4,"type":"dispatch"}"#,
            #"{"id":5,"type":"ping"}"#,
            #"{"id":3,"params":{"filter":"all"},"type":"subscribe","viewModel":"list"}"#,
            #"{"id":4,"subscription":7,"type":"unsubscribe"}"#,
            #"{"after":3,"id":6,"limit":20,"type":"history"}"#,
            #"{"at":3,"id":7,"params":{},"type":"get","viewModel":"list"}"#,
            #"{"client":"c/1","id":1,"protocol":1,"type":"hello"}"#,
        ]
        for json in requests {
            let scanned = try ClientRequest.scanned(Array(json.utf8))
            #expect(scanned?.request == (try ClientRequest.decodeWithJSONDecoder(Array(json.utf8))), "\(json)")
        }
        #expect(
            try ClientRequest.scanned(Array(#"{"client":"c","features":[],"id":1,"protocol":1,"type":"hello"}"#.utf8))
                == nil)
    }

    @Test func theRequestScanFindsTheDispatchPayload() throws {
        let message = Array(#"{"action":{"name":"edit","payload":{"number":1}},"id":3,"type":"dispatch"}"#.utf8)
        let (request, location) = try ClientRequest.decodeLocatingPayload(message)
        #expect(request == .dispatch(DispatchRequest(id: 3, actionName: "edit", sequence: nil)))
        #expect(location == DispatchPayloadLocation(scanning: message))
        guard case .object(let range, _) = location else {
            Issue.record("no payload found")
            return
        }
        #expect(String(decoding: message[range], as: UTF8.self) == #"{"number":1}"#)
        guard case .object(_, members: let members?) = location else {
            Issue.record("a plain payload's members were not kept")
            return
        }
        #expect(members.count == 1)
        let fraction = Array(#"{"action":{"name":"edit","payload":{"number":1.5}},"id":3,"type":"dispatch"}"#.utf8)
        #expect(
            try ClientRequest.decodeLocatingPayload(fraction).payload
                == .object(35..<49, members: nil), "a payload that is not plain keeps no members")
        #expect(
            try ClientRequest.decodeLocatingPayload(Array(#"{"action":{"name":"undo"},"id":3,"type":"dispatch"}"#.utf8))
                .payload == .absent)
        #expect(
            try ClientRequest.decodeLocatingPayload(
                Array(#"{"action":{"name":"undo","payload":[]},"id":3,"type":"dispatch"}"#.utf8)
            ).payload == .unknown)
        #expect(
            try ClientRequest.decodeLocatingPayload(
                Array(#"{"action":{"name":"undo"},"id":3,"t\u0079pe":"dispatch"}"#.utf8)
            ).payload == .unknown)
    }

    private func outcome(_ decode: () throws(ProtocolError) -> ClientRequest) -> String {
        do {
            return "\(try decode())"
        } catch {
            return "\(error.code) \(error.requestID.map(String.init) ?? "-") \(error.message)"
        }
    }

    @Test func dispatchPayloadsDecodeAlikeBothWays() throws {
        struct Payload: Decodable, Equatable {
            var number: Int
            var text: String?
        }
        let messages = [
            #"{"action":{"name":"a","payload":{"number":1,"text":"t"}},"id":1,"type":"dispatch"}"#,
            #"{"action":{"name":"a","payload":{"number":1}}}"#,
            #"{"action":{"name":"a","payload":{"text":"t"}}}"#,
            #"{"action":{"name":"a","payload":{"number":"1"}}}"#,
            #"{"action":{"name":"a","payload":[1]}}"#,
            #"{"action":{"name":"a"}}"#,
        ]
        for json in messages {
            let bytes = Array(json.utf8)
            let scanned = Result {
                try DispatchPayloadLocation(scanning: bytes).decodePayload(Payload.self, from: bytes)
            }
            let whole = Result { try WireJSON.decode(DispatchEnvelope<Payload>.self, from: bytes).payload }
            switch (scanned, whole) {
            case (.success(let left), .success(let right)): #expect(left == right, "\(json)")
            case (.failure(let left), .failure(let right)): #expect(problem(left) == problem(right), "\(json)")
            default: Issue.record("one way decoded and the other did not: \(json)")
            }
        }
    }

    /// What went wrong and where, leaving out the `action.payload` prefix the daemon's error
    /// messages leave out too.
    private func problem(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context): return "missing \(key.stringValue) \(path(context))"
        case .typeMismatch(_, let context): return "type \(path(context))"
        case .valueNotFound(_, let context): return "value \(path(context))"
        case .dataCorrupted(let context): return "corrupted \(path(context))"
        default: return "\(error)"
        }
    }

    private func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).filter { $0 != "action" && $0 != "payload" }.joined(separator: ".")
    }

    @Test func frequentRepliesDecodeAlikeBothWays() throws {
        let replies = [
            #"{"id":2,"type":"ack","version":8}"#,
            #"{"model":{"items":[1,{"a":"b"}]},"subscription":1,"type":"update","version":13}"#,
            #"{"base":13,"patch":[],"subscription":1,"type":"update","version":14}"#,
            #"{"id":3,"subscription":1,"type":"subscribed"}"#,
            #"{"id":5,"type":"pong"}"#,
            #"{"id":null,"type":"ack","version":8}"#,
            #"{"id":2,"type":"ack","version":-8}"#,
            #"{"code":"rejected","id":2,"message":"no","type":"error"}"#,
            #"{"id":1,"protocol":1,"server":"todod","type":"welcome","version":0}"#,
        ]
        for json in replies {
            let bytes = Array(json.utf8)
            let scanned = try? ServerReply.decode(bytes)
            let whole = try? WireJSON.decode(ServerReply.self, from: bytes)
            #expect(scanned == whole, "\(json)")
        }
    }

    @Test func dispatchRequestsAreWrittenAsTheEncoderWouldWriteThem() throws {
        struct Payload: Encodable {
            var text: String
            var number: Int
        }
        struct Action: Encodable {
            var name: String
            var payload: Payload
        }
        struct Dispatch: Encodable {
            var type = "dispatch"
            var id: Int64
            var action: Action
            var sequence: Int64?
        }
        for (name, sequence) in [("edit", Int64?.some(3)), ("edit", nil), ("odd name\"", 4)] {
            let payload = Payload(text: "a/b \"c\" é", number: -2)
            let written = try DispatchRequest(id: 7, actionName: name, sequence: sequence).encoded(payload: payload)
            let encoded = try WireJSON.encode(
                Dispatch(id: 7, action: Action(name: name, payload: payload), sequence: sequence))
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
        }
    }
}
