import SyncProtocol
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `WireJSON.encode` writing a `PlainObjectEncodable` value through its `PlainObjectWriter`,
/// and leaving it to `JSONEncoder` (through `encode(to:)`) when the writer cannot write it as
/// the wire's encoder would.
@Suite struct PlainObjectEncodableTests {
    /// Writes `"path": "writer"` through the writer and `"path": "encoder"` through an
    /// `Encoder`, so that the bytes say which one wrote them; `order` says how the writer
    /// writes its keys.
    struct Probe: PlainObjectEncodable {
        enum Order { case sorted, reversed, withDigit, quoteInFirstKey }
        var text: String
        var order = Order.sorted
        var inner: [Probe] = []

        enum CodingKeys: String, CodingKey { case inner, path, text }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(inner, forKey: .inner)
            try container.encode("encoder", forKey: .path)
            try container.encode(text, forKey: .text)
        }

        func encode(to object: inout PlainObjectWriter) {
            switch order {
            case .sorted:
                object.encode(inner, forKey: "inner")
                object.encode("writer", forKey: "path")
                object.encode(text, forKey: "text")
            case .reversed:
                object.encode(text, forKey: "text")
                object.encode("writer", forKey: "path")
            case .withDigit:
                object.encode("writer", forKey: "path")
                object.encode(text, forKey: "text2")
            case .quoteInFirstKey:
                object.encode(text, forKey: "a\"b")
            }
        }
    }

    /// Members of every kind the writer takes through the encoding's `Encoder` (an array of
    /// integers, a nested `Codable` struct, optionals), with the same path marker as `Probe`.
    struct Mixed: PlainObjectEncodable {
        struct Inner: Codable {
            var a: Int
            var b: [String]
        }
        var counts: [Int] = [1, 2]
        var inner = Inner(a: 1, b: ["x"])
        var note: String?
        var ratio: Double?

        enum CodingKeys: String, CodingKey { case counts, inner, note, path, ratio }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(counts, forKey: .counts)
            try container.encode(inner, forKey: .inner)
            try container.encodeIfPresent(note, forKey: .note)
            try container.encode("encoder", forKey: .path)
            try container.encodeIfPresent(ratio, forKey: .ratio)
        }

        func encode(to object: inout PlainObjectWriter) {
            object.encode(counts, forKey: "counts")
            object.encode(inner, forKey: "inner")
            object.encodeIfPresent(note, forKey: "note")
            object.encode("writer", forKey: "path")
            object.encodeIfPresent(ratio, forKey: "ratio")
        }
    }

    private func wire(_ value: some Encodable) throws -> String {
        String(decoding: try WireJSON.encode(value), as: UTF8.self)
    }

    @Test func theWriterWritesWhatItCan() throws {
        #expect(
            try wire(Probe(text: "a \"quoted\" \\ text"))
                == #"{"inner":[],"path":"writer","text":"a \"quoted\" \\ text"}"#)
        #expect(
            try wire([Probe(text: "x", inner: [Probe(text: "y")])])
                == #"[{"inner":[{"inner":[],"path":"writer","text":"y"}],"path":"writer","text":"x"}]"#)
    }

    @Test func membersOfOtherTypesGoThroughTheEncodersContainers() throws {
        #expect(try wire(Mixed()) == #"{"counts":[1,2],"inner":{"a":1,"b":["x"]},"path":"writer"}"#)
        #expect(
            try wire([Mixed(counts: [], note: "n")])
                == #"[{"counts":[],"inner":{"a":1,"b":["x"]},"note":"n","path":"writer"}]"#)
        // A floating-point number is not plain: the whole value goes to the encoder.
        #expect(
            try wire(Mixed(ratio: 0.5)) == #"{"counts":[1,2],"inner":{"a":1,"b":["x"]},"path":"encoder","ratio":0.5}"#)
    }

    @Test func whatTheWriterCannotWriteIsLeftToTheEncoder() throws {
        #expect(try wire(Probe(text: "é")) == #"{"inner":[],"path":"encoder","text":"é"}"#)
        #expect(try wire(Probe(text: "a", order: .reversed)) == #"{"inner":[],"path":"encoder","text":"a"}"#)
        #expect(try wire(Probe(text: "a", order: .withDigit)) == #"{"inner":[],"path":"encoder","text":"a"}"#)
        #expect(try wire(Probe(text: "a", order: .quoteInFirstKey)) == #"{"inner":[],"path":"encoder","text":"a"}"#)
        // One value the writer cannot write sends the whole encoding to the encoder.
        #expect(
            try wire(Probe(text: "x", inner: [Probe(text: "\u{1}")]))
                == #"{"inner":[{"inner":[],"path":"encoder","text":"\u0001"}],"path":"encoder","text":"x"}"#)
    }
}
