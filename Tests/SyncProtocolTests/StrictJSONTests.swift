import TestSupport
import Testing

@testable import SyncProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What is not one RFC 8259 JSON text is `invalid_json` wherever it sits, for the daemon's
/// request parsing, the typed decoders and the client's reading of server frames alike.
@Suite struct StrictJSONTests {
    /// The cases the strictness issue names (and neighbours), as values that a frame or a
    /// payload holds somewhere, each with the fault expected and its offset in the value.
    static let badValues: [(json: String, reason: JSONSyntaxError.Reason, offset: Int)] = [
        (#"["",]"#, .trailingComma, 3), ("[1,]", .trailingComma, 2), (#"{"a":1,}"#, .trailingComma, 6),
        (#"{"a":"\x"}"#, .invalidEscape, 6),
        ("\"a\tb\"", .controlCharacter(0x09), 2), ("\"a\nb\"", .controlCharacter(0x0A), 2), ("-2.", .invalidNumber, 0),
        ("0.e1", .invalidNumber, 0),
        ("1eE2", .invalidNumber, 0), ("01", .invalidNumber, 0), ("[1 /* c */]", .unexpectedByte(UInt8(ascii: "/")), 3),
        (#""\ud800""#, .loneSurrogate, 1), (#""\udc00\ud800""#, .loneSurrogate, 1),
        ("[tru]", .unexpectedByte(UInt8(ascii: "]")), 4),
        ("[1 2]", .unexpectedByte(UInt8(ascii: "2")), 3), ("{\"a\" 1}", .unexpectedByte(UInt8(ascii: "1")), 5),
        (String(repeating: "[", count: 513) + String(repeating: "]", count: 513), .tooDeep, 512),
    ]

    private func fault(_ json: String) -> JSONSyntaxError? {
        JSONScanner.fault(in: Array(json.utf8))
    }

    private func code(_ bytes: [UInt8]) -> ErrorCode? {
        do {
            _ = try ClientRequest.decodeLocatingPayload(bytes)
            return nil
        } catch {
            return error.code
        }
    }

    @Test(arguments: badValues.indices)
    func faultsSayWhatAndWhere(index: Int) throws {
        let (json, reason, offset) = Self.badValues[index]
        let found = try #require(fault(json), "accepted \(json)")
        #expect(found == JSONSyntaxError(reason, at: offset), "\(json): \(found)")
    }

    /// The same faults in a whole frame (in a field the request ignores) and inside a dispatch's
    /// payload: `invalid_json`, whatever the scan path, never the request's own error.
    @Test(arguments: badValues.indices)
    func aFaultAnywhereInAFrameIsInvalidJSON(index: Int) throws {
        let json = Self.badValues[index].json
        let frames = [
            #"{"type":"ping","id":1,"x":"# + json + "}",
            #"{"type":"hello","id":1,"protocol":1,"x":"# + json + "}",
            #"{"type":"dispatch","id":2,"action":{"name":"add","payload":{"text":"t","x":"# + json + "}}}",
            #"{"type":"dispatch","id":2,"action":{"name":"add","payload":"# + json + "}}",
            #"{"type":"dispatch","id":2.5,"action":{"name":"add","payload":{"x":"# + json + "}}}",
            #"{"t\u0079pe":"ping","id":1,"x":"# + json + "}",
            #"{"type":"subscribe","id":3,"viewModel":"list","params":{"filter":"# + json + "}}",
        ]
        for frame in frames {
            #expect(code(Array(frame.utf8)) == .invalidJSON, "\(frame.prefix(100))")
            #expect(
                (try? ClientRequest.decodeWithJSONDecoder(Array(frame.utf8))) == nil,
                "the slow path took \(frame.prefix(100))")
        }
    }

    @Test func trailingCommasInAFrameOrAPayloadAreRefused() throws {
        let ping = Array(#"{"type":"ping","id":1,}"#.utf8)
        #expect(code(ping) == .invalidJSON)
        let dispatch = Array(#"{"type":"dispatch","id":2,"action":{"name":"add","payload":{"text":"hi",}}}"#.utf8)
        #expect(code(dispatch) == .invalidJSON)
        do {
            _ = try ClientRequest.decode(ping)
        } catch {
            #expect(error.message == "The frame is not valid JSON: a trailing comma at byte 21.")
            #expect(error.requestID == nil)
        }
        struct Add: Decodable { var text: String }
        #expect(throws: DecodingError.self) { try WireJSON.decode(Add.self, from: Array(#"{"text":"hi",}"#.utf8)) }
    }

    /// Invalid UTF-8 anywhere (in a string, in a key, outside strings) is `invalid_json`.
    @Test func invalidUTF8IsInvalidJSON() {
        let broken: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]]
        for bytes in broken {
            let inValue = Array(#"{"type":"ping","id":1,"x":""#.utf8) + bytes + Array(#""}"#.utf8)
            let inKey = Array(#"{"type":"ping","id":1,""#.utf8) + bytes + Array(#"":1}"#.utf8)
            let outside = Array(#"{"type":"ping","id":1,"x":"#.utf8) + bytes + Array("}".utf8)
            for frame in [inValue, inKey, outside] { #expect(code(frame) == .invalidJSON, "\(frame)") }
            #expect(JSONScanner.fault(in: inValue)?.reason == .invalidUTF8)
        }
        #expect(code(Array(#"{"type":"ping","id":1,"x":"é ✓ 😀"}"#.utf8)) == nil)
    }

    /// Nesting past the limit is a clear fault, however deep, and costs no call stack.
    @Test func deepNestingIsAFaultNotACrash() {
        for depth in [513, 100_000, 1_000_000] {
            let frame = Array(#"{"type":"ping","id":1,"x":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: depth)
            do {
                _ = try ClientRequest.decode(frame)
                Issue.record("accepted \(depth) open arrays")
            } catch {
                #expect(error.code == .invalidJSON)
                #expect(error.message.contains("nesting deeper than 512"), "\(error.message)")
            }
        }
        let deepest =
            #"{"type":"ping","id":1,"x":"# + String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
            + "}"
        #expect(code(Array(deepest.utf8)) == nil, "512 levels, the object included, are allowed")
    }

    /// Ids (and every integer field) are integer literals: no fraction, no exponent, even where
    /// the value is a whole number.
    @Test func integerFieldsAreIntegerLiterals() throws {
        for id in ["1e2", "1E2", "1.0", "1e0", "10e-1", "-0.0", "100.00"] {
            #expect(code(Array(#"{"type":"ping","id":\#(id)}"#.utf8)) == .invalidMessage, "id \(id)")
            #expect(code(Array(#"{"\u0069d":\#(id),"type":"ping"}"#.utf8)) == .invalidMessage, "escaped key, id \(id)")
        }
        let fields = [
            #"{"type":"hello","id":1,"protocol":1.0,"client":"x"}"#,
            #"{"type":"dispatch","id":1,"sequence":1e1,"action":{"name":"add"}}"#,
            #"{"type":"unsubscribe","id":1,"subscription":7.0}"#,
            #"{"type":"history","id":1,"limit":1e1}"#,
            #"{"type":"history","id":1,"after":0.0}"#,
        ]
        for json in fields {
            #expect(code(Array(json.utf8)) == .invalidMessage, "\(json)")
        }
        #expect(try ClientRequest.decode(Array(#"{"type":"ping","id":-0}"#.utf8)) == .ping(PingRequest(id: 0)))
        #expect(
            try ClientRequest.decode(Array(#"{"type":"hello","id":100,"protocol":1,"client":"x"}"#.utf8))
                == .hello(HelloRequest(id: 100, protocolVersion: 1, client: "x", clientID: nil)))
        #expect(
            try ClientRequest.decode(Array(#"{"type":"ping","id":1,"id":2e0}"#.utf8)) == .ping(PingRequest(id: 1)),
            "JSONDecoder reads the first of a repeated key")
        #expect(
            try ClientRequest.decode(Array(#"{"type":"ping","id":1,"other":1e2}"#.utf8)) == .ping(PingRequest(id: 1)),
            "other numbers may be anything")
    }

    /// Valid JSON of the wrong shape keeps its own error.
    @Test func validJSONOfTheWrongShapeIsNotInvalidJSON() {
        #expect(code(Array(#""just a string""#.utf8)) == .invalidMessage)
        #expect(code(Array("[1]".utf8)) == .invalidMessage)
        #expect(code(Array(#"{"type":"ping","id":"1"}"#.utf8)) == .invalidMessage)
        #expect(code(Array(#"{"type":"ping","id":1,"x":[1,{"a":"\u00e9\ud83d\ude00"}]}"#.utf8)) == nil)
    }

    /// SyncClient reads server frames with `ServerReply.decode` and models with
    /// `WireJSON.decode`: both refuse what is not JSON, on the fast path and the slow one.
    @Test func serverFramesAreReadStrictlyToo() {
        let frames = [
            #"{"id":2,"type":"ack","version":8,}"#,
            #"{"model":[1,],"subscription":1,"type":"update","version":3}"#,
            #"{"code":"rejected","id":2,"message":"no\x","type":"error"}"#,
            #"{"id":1,"protocol":1,"server":"todod","type":"welcome","version":0,"extra":[1,]}"#,
        ]
        for frame in frames {
            #expect(throws: DecodingError.self, "\(frame)") { try ServerReply.decode(Array(frame.utf8)) }
        }
        do {
            _ = try WireJSON.decode(UpdateEnvelope<[Int]>.self, from: Array(frames[1].utf8))
            Issue.record("decoded a model with a trailing comma")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.isEmpty)
            #expect(context.underlyingError as? JSONSyntaxError == JSONSyntaxError(.trailingComma, at: 11))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// The generated corpus: the scanner's verdict is the rule's, and every reader that takes
    /// a whole text (the plain decoder, the wire decoder, request parsing) agrees with it.
    @Test func theGrammarCorpusIsJudgedByItsRules() {
        let cases = JSONGrammarCorpus.cases
        #expect(cases.count > 10_000 && cases.contains { $0.isValid } && cases.contains { !$0.isValid })
        for corpusCase in cases {
            let fault = JSONScanner.fault(in: corpusCase.bytes)
            #expect(
                (fault == nil) == corpusCase.isValid,
                "\(corpusCase) \(fault.map(String.init(describing:)) ?? "accepted")")
            if !corpusCase.isValid {
                #expect((try? WireJSON.decode(JSONValue.self, from: corpusCase.bytes)) == nil, "\(corpusCase)")
                #expect((try? PlainJSONDecoder.decode(JSONValue.self, from: corpusCase.bytes)) == nil, "\(corpusCase)")
            }
        }
    }

    /// Each corpus value inside a request (an ignored field of a ping) and inside a dispatch's
    /// payload: `invalid_json` exactly when it is not valid.
    @Test func theGrammarCorpusInFramesAndPayloads() throws {
        for corpusCase in JSONGrammarCorpus.bareValues {
            let ping = Array(#"{"type":"ping","id":1,"x":"#.utf8) + corpusCase.bytes + Array("}".utf8)
            let dispatch =
                Array(#"{"type":"dispatch","id":2,"action":{"name":"complete","payload":{"number":9,"x":"#.utf8)
                + corpusCase.bytes + Array("}}}".utf8)
            #expect((code(ping) == .invalidJSON) != corpusCase.isValid, "\(corpusCase)")
            #expect((code(dispatch) == .invalidJSON) != corpusCase.isValid, "\(corpusCase)")
        }
    }

    /// The JSON_checker corpus (from Debian's Python test suite): the verdict RFC 8259 gives,
    /// alone, as a whole frame and as a dispatch's payload.
    @Test func theJSONCheckerCorpus() throws {
        for document in try JSONCheckerCorpus.load().documents {
            #expect((JSONScanner.fault(in: document.bytes) == nil) == document.isValid, "\(document.name)")
            let dispatch =
                Array(#"{"type":"dispatch","id":2,"action":{"name":"complete","payload":"#.utf8) + document.bytes
                + Array("}}".utf8)
            #expect((code(document.bytes) == .invalidJSON) != document.isValid, "\(document.name) as a frame")
            #expect((code(dispatch) == .invalidJSON) != document.isValid, "\(document.name) as a payload")
        }
    }
}
