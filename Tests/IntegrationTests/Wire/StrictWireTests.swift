import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// The real daemon answers `invalid_json` to every frame that is not one RFC 8259 JSON text,
/// wherever the fault sits (the whole frame, a field it ignores, a dispatch's payload), applies
/// nothing of it and keeps the connection; valid JSON of the wrong shape keeps its own error.
@Suite(.blocking) struct StrictWireTests {
    /// Faulty values from the strictness issue, placed in frames and payloads below.
    static let badValues = [
        #"["",]"#, "[1,]", #"{"a":1,}"#, #"{"a":"\x"}"#, "\"a\tb\"", "\"a\nb\"", "-2.", "0.e1", "1eE2", "01",
        "[1 /* c */]", "// c\n1",
        #""\ud800""#, #""\udc00""#, "\"\u{1}\"",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600), String(repeating: "[", count: 100_000),
    ]

    /// One connection's state version, read from a fresh `welcome`.
    private func version(of daemon: DaemonHarness) throws -> Int? {
        let client = try WireClient(path: daemon.socketPath)
        return try client.hello().version
    }

    /// Sends each payload as one frame, in batches so that neither side's buffers fill, and
    /// returns the replies in order (every request here is answered at once, in order).
    private func replies(to payloads: [[UInt8]], on client: WireClient) throws -> [WireClient.Message] {
        var replies: [WireClient.Message] = []
        var start = 0
        while start < payloads.count {
            let batch = payloads[start..<min(start + 100, payloads.count)]
            try client.sendRaw(
                batch.reduce(into: Data()) { frames, payload in
                    var length = UInt32(payload.count).bigEndian
                    frames += Data(bytes: &length, count: 4) + payload
                })
            for _ in batch { replies.append(try client.receive()) }
            start += batch.count
        }
        return replies
    }

    @Test func trailingCommasAreRefusedAndNothingIsApplied() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        _ = try client.dispatchAndWait("add", ["text": "existing"])
        for frame in [
            #"{"type":"ping","id":1,}"#,
            #"{"type":"dispatch","id":2,"action":{"name":"add","payload":{"text":"hi",}}}"#,
        ] {
            try client.sendPayload(Data(frame.utf8))
            let error = try client.receive()
            #expect(error.code == "invalid_json", "\(frame): \(error)")
            #expect(error["id"] is NSNull)
            #expect((error["message"] as? String)?.contains("trailing comma") == true, "\(error)")
        }
        try client.expectOnlyPong()
        let list = try client.subscribeAndWait("list").update
        #expect(
            list.version == 1 && list.itemTexts == ["existing"], "the dispatch with a trailing comma was not applied")
        #expect(try daemon.stop() == 0)
    }

    @Test func faultsInAFrameOrAPayloadAreInvalidJSONAndApplyNothing() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        _ = try client.dispatchAndWait("add", ["text": "existing"])
        var payloads: [[UInt8]] = []
        for value in Self.badValues {
            payloads.append(Array(#"{"type":"ping","id":5,"x":"#.utf8) + Array(value.utf8) + Array("}".utf8))
            payloads.append(
                Array(#"{"type":"dispatch","id":6,"action":{"name":"add","payload":{"text":"new","x":"#.utf8)
                    + Array(value.utf8) + Array("}}}".utf8))
            payloads.append(
                Array(#"{"type":"dispatch","id":7,"action":{"name":"add","payload":"#.utf8) + Array(value.utf8)
                    + Array("}}".utf8))
        }
        for (payload, reply) in zip(payloads, try replies(to: payloads, on: client)) {
            #expect(
                reply.code == "invalid_json" && reply["id"] is NSNull,
                "\(String(decoding: payload.prefix(90), as: UTF8.self)): \(reply)")
        }
        try client.expectOnlyPong()
        #expect(try version(of: daemon) == 1, "nothing was applied")
        let list = try client.subscribeAndWait("list").update
        #expect(list.itemTexts == ["existing"])
        #expect(try daemon.stop() == 0, "clean exit, no leak or sanitizer report")
    }

    @Test func idsAreIntegerLiterals() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        for id in ["1e2", "1.0", "1E0"] {
            try client.sendPayload(Data(#"{"type":"ping","id":\#(id)}"#.utf8))
            let error = try client.receive()
            #expect(error.code == "invalid_message" && error["id"] is NSNull, "id \(id): \(error)")
            try client.sendPayload(
                Data(#"{"type":"dispatch","id":\#(id),"action":{"name":"add","payload":{"text":"no"}}}"#.utf8))
            #expect(try client.receive().code == "invalid_message", "dispatch id \(id)")
        }
        try client.sendPayload(Data(#"{"type":"ping","id":100}"#.utf8))
        #expect(try client.receive().id == 100)
        #expect(try version(of: daemon) == 0)
    }

    /// The generated grammar corpus: each value in an ignored field of a ping, and inside the
    /// payload of a dispatch that cannot apply (`complete` of an item that does not exist).
    @Test func theGrammarCorpusInFramesAndPayloads() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let cases = JSONGrammarCorpus.bareValues
        var payloads: [[UInt8]] = []
        for (index, corpusCase) in cases.enumerated() {
            payloads.append(Array(#"{"type":"ping","id":\#(index),"x":"#.utf8) + corpusCase.bytes + Array("}".utf8))
            payloads.append(
                Array(#"{"type":"dispatch","id":\#(index),"action":{"name":"complete","payload":{"number":9,"x":"#.utf8)
                    + corpusCase.bytes + Array("}}}".utf8))
        }
        let answers = try replies(to: payloads, on: client)
        for (index, corpusCase) in cases.enumerated() {
            let (pong, refusal) = (answers[2 * index], answers[2 * index + 1])
            if corpusCase.isValid {
                #expect(pong.type == "pong" && pong.id == index, "\(corpusCase): \(pong)")
                #expect(refusal.code == "rejected" && refusal.id == index, "\(corpusCase): \(refusal)")
            } else {
                #expect(pong.code == "invalid_json" && pong["id"] is NSNull, "\(corpusCase): \(pong)")
                #expect(refusal.code == "invalid_json" && refusal["id"] is NSNull, "\(corpusCase): \(refusal)")
            }
        }
        #expect(try version(of: daemon) == 0)
    }

    /// The JSON_checker corpus (Debian's Python test suite holds it) as whole frames and as
    /// dispatch payloads.
    @Test func theJSONCheckerCorpusInFramesAndPayloads() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let documents = try JSONCheckerCorpus.load().documents
        var payloads: [[UInt8]] = []
        for document in documents {
            payloads.append(document.bytes)
            payloads.append(
                Array(#"{"type":"dispatch","id":3,"action":{"name":"add","payload":"#.utf8) + document.bytes
                    + Array("}}".utf8))
        }
        let answers = try replies(to: payloads, on: client)
        for (index, document) in documents.enumerated() {
            let (whole, payload) = (answers[2 * index], answers[2 * index + 1])
            #expect(
                whole.code == (document.isValid ? "invalid_message" : "invalid_json"),
                "\(document.name) as a frame: \(whole)")
            #expect(
                payload.code == (document.isValid ? "invalid_payload" : "invalid_json"),
                "\(document.name) as a payload: \(payload)")
        }
        try client.expectOnlyPong()
        #expect(try version(of: daemon) == 0)
        #expect(try daemon.stop() == 0)
    }
}
