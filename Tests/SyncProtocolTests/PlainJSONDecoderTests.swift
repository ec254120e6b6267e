import TestSupport
import Testing

@testable import SyncProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `PlainJSONDecoder` gives what `JSONDecoder` gives on plain JSON and refuses everything else.
@Suite struct PlainJSONDecoderTests {
    enum Colour: String, Codable, Equatable { case red, green }

    struct Item: Codable, Equatable {
        var number: Int
        var text: String
        var completed: Bool
        var tags: [String]
        var colour: Colour?
        var weight: Double?
        var small: Int8?
        var big: UInt64?
        var nested: [[Int]]?
    }

    struct Model: Codable, Equatable {
        var items: [Item]
        var openCount: Int
        var note: String?
    }

    private func foundation<T: Decodable>(_ type: T.Type, _ json: String) -> T? {
        try? JSONDecoder().decode(type, from: Data(json.utf8))
    }

    private func plain<T: Decodable>(_ type: T.Type, _ json: String) -> T? {
        try? PlainJSONDecoder.decode(type, from: Array(json.utf8))
    }

    @Test func decodesPlainDocumentsAsJSONDecoderDoes() throws {
        let documents = [
            #"{"items":[],"openCount":0}"#,
            #"{"items":[{"number":1,"text":"é ünïcode ✓","completed":true,"tags":["a","b"],"colour":"red","weight":3,"small":-128,"big":18446744073709551615,"nested":[[1],[],[2,3]]}],"openCount":1,"note":null}"#,
            #" { "openCount" : -0 , "items" : [ { "number" : 7 , "text" : "" , "completed" : false , "tags" : [ ] , "colour" : null } ] } "#,
        ]
        for json in documents {
            let expected = try #require(foundation(Model.self, json), "JSONDecoder refused \(json)")
            #expect(plain(Model.self, json) == expected, "\(json)")
        }
    }

    @Test func refusesWhatJSONDecoderWouldReadDifferentlyOrRefuse() {
        let documents = [
            #"{"items":[],"openCount":1.0}"#,
            #"{"items":[],"openCount":1e0}"#,
            #"{"items":[],"openCount":1,"note":"a\"b"}"#,
            #"{"items":[],"openCount":1,"openCount":2}"#,
            #"{"items":[{"number":1,"text":"t","completed":true,"tags":[],"small":128}],"openCount":1}"#,
            #"{"items":[{"number":1,"text":"t","completed":true,"tags":[],"colour":"blue"}],"openCount":1}"#,
            #"{"items":[{"number":1,"text":"t","completed":1,"tags":[]}],"openCount":1}"#,
            #"{"items":[{"number":1,"completed":true,"tags":[]}],"openCount":1}"#,
            #"{"items":{},"openCount":1}"#,
            #"{"items":[],"openCount":1"#,
            #"{"items":[],"openCount":1} []"#,
        ]
        for json in documents {
            #expect(plain(Model.self, json) == nil, "\(json)")
        }
    }

    @Test func wireDecodingFallsBackToJSONDecoderWithItsErrors() throws {
        let escaped = #"{"items":[],"openCount":2,"note":"a\"b\u00e9"}"#
        #expect(try WireJSON.decode(Model.self, from: Array(escaped.utf8)) == foundation(Model.self, escaped))
        do {
            _ = try WireJSON.decode(Model.self, from: Array(#"{"items":[]}"#.utf8))
            Issue.record("decoded a model without openCount")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "openCount")
        }
    }

    /// Reads the coding path it is decoded at, through each kind of container.
    struct Path: Decodable, Equatable {
        enum Keys: String, CodingKey { case inner, list }
        var path: String
        var nested: [String] = []

        init(from decoder: any Decoder) throws {
            path = decoder.codingPath.map(\.stringValue).joined(separator: "/")
            if let keyed = try? decoder.container(keyedBy: Keys.self) {
                let inner = try keyed.nestedContainer(keyedBy: Keys.self, forKey: .inner)
                var list = try keyed.nestedUnkeyedContainer(forKey: .list)
                nested = [inner.codingPath, list.codingPath].map { $0.map(\.stringValue).joined(separator: "/") }
                while !list.isAtEnd { nested.append(try list.decode(Path.self).path) }
            } else {
                nested = [try decoder.singleValueContainer().codingPath.map(\.stringValue).joined(separator: "/")]
            }
        }
    }

    /// Reads the coding paths of an array's first elements through the unkeyed container's
    /// nested containers, and decodes its third through a single-value container.
    struct ArrayPaths: Decodable, Equatable {
        var paths: [String]

        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            let object = try list.nestedContainer(keyedBy: Path.Keys.self)
            let inner = try list.nestedUnkeyedContainer()
            let wrapped = try list.decode(Wrapped.self)
            paths = [object.codingPath, inner.codingPath].map { $0.map(\.stringValue).joined(separator: "/") }
            paths += [wrapped.path.path] + wrapped.path.nested
        }
    }

    /// A `Path` inside a single-value container.
    struct Wrapped: Decodable, Equatable {
        var path: Path

        init(from decoder: any Decoder) throws {
            path = try decoder.singleValueContainer().decode(Path.self)
        }
    }

    @Test func codingPathsAreJSONDecoders() throws {
        typealias Document = [String: [String: [[Path]]]]
        let json = #"{"a":{"b":[[1,{"inner":{},"list":[2,[3]]}],[]]},"c":{}}"#
        let expected = try #require(foundation(Document.self, json))
        #expect(plain(Document.self, json) == expected)
        let paths = try #require(expected["a"]?["b"]?.first)
        #expect(paths.map(\.path) == ["a/b/Index 0/Index 0", "a/b/Index 0/Index 1"])
        #expect(
            paths[1].nested == [
                "a/b/Index 0/Index 1/inner", "a/b/Index 0/Index 1/list", "a/b/Index 0/Index 1/list/Index 0",
                "a/b/Index 0/Index 1/list/Index 1",
            ])
        let arrays = #"{"x":[{},[],7]}"#
        let expectedArrays = try #require(foundation([String: ArrayPaths].self, arrays))
        #expect(plain([String: ArrayPaths].self, arrays) == expectedArrays)
        #expect(expectedArrays["x"]?.paths == ["x/Index 0", "x/Index 1", "x/Index 2", "x/Index 2"])
    }

    /// An integer too large for a double (found by the plain decoder's fuzz target): the plain
    /// decoder made it infinity, `JSONDecoder` refuses it, and so does the wire decoder now.
    @Test func anIntegerBeyondTheDoublesIsNotInfinity() throws {
        let huge = String(repeating: "9", count: 400)
        for json in [huge, "[\(huge)]", #"{"weight":\#(huge)}"#] {
            #expect((try? PlainJSONDecoder.decode(JSONValue.self, from: Array(json.utf8))) == nil, "\(json.prefix(20))")
            #expect((try? WireJSON.decode(JSONValue.self, from: Array(json.utf8))) == nil, "\(json.prefix(20))")
        }
        struct Weighed: Decodable { var weight: Double }
        #expect((try? PlainJSONDecoder.decode(Weighed.self, from: Array(#"{"weight":\#(huge)}"#.utf8))) == nil)
        #expect(
            try PlainJSONDecoder.decode(
                Weighed.self, from: Array(#"{"weight":\#(String(repeating: "9", count: 308))}"#.utf8)
            ).weight.isFinite)
    }

    /// Integers at and past `Int64`'s ends, as `JSONValue`, at the top and inside containers:
    /// the plain decoder reads them itself (it throws what it leaves to `JSONDecoder`) and gives
    /// what `JSONDecoder` gives, an integer when one fits and a double otherwise.
    @Test(arguments: [
        "0", "-0", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "10000000000000000000", "123456789012345678901", "-123456789012345678901",
    ])
    func integersAtTheEndsOfInt64AreReadAsJSONDecoderReadsThem(literal: String) throws {
        for json in [literal, "[\(literal)]", #"{"n":\#(literal)}"#] {
            let expected = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
            #expect(try PlainJSONDecoder.decode(JSONValue.self, from: Array(json.utf8)) == expected, "\(json)")
        }
        let value = try PlainJSONDecoder.decode(JSONValue.self, from: Array(literal.utf8))
        if let integer = Int64(literal) {
            #expect(value == .integer(integer))
        } else {
            #expect(value == .number(try #require(Double(literal))))
        }
    }

    /// Random JSON values (whose decoding probes types one after another) decode alike.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomValuesDecodeAlike(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let value = Self.randomValue(depth: 0, using: &random)
            let bytes = try WireJSON.encode(value)
            let expected = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
            #expect(try WireJSON.decode(JSONValue.self, from: bytes) == expected)
            if let plain = try? PlainJSONDecoder.decode(JSONValue.self, from: bytes) { #expect(plain == expected) }
        }
    }

    private static func randomValue(depth: Int, using random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 6 : 8), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            return .integer(
                Int64.random(in: Int64.min...Int64.max, using: &random) >> Int64.random(in: 0..<63, using: &random))
        case 3: return .number([0.5, -1.25, 1e300, 3.0, 0.1][Int.random(in: 0..<5, using: &random)])
        case 4, 5:
            return .string(
                ["", "plain", "quote \" inside", "é✓", "slash /", "tab\t"][Int.random(in: 0..<6, using: &random)])
        case 6:
            return .array(
                (0..<Int.random(in: 0..<4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0..<4, using: &random) {
                members["k\(index)"] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(members)
        }
    }
}
