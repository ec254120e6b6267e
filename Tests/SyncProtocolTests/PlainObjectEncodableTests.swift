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
