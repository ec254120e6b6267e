#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON settings both sides use. Keys are sorted so that equal values give equal bytes:
/// the daemon compares encoded models to skip pushes that would change nothing.
public enum WireJSON {
    /// A new encoder with the wire settings.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Encodes `value` with the wire settings: with `PlainJSONEncoder` when the value is plain,
    /// else (and for every error) with the encoder `makeEncoder()` makes; the bytes are the
    /// same either way.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let bytes = try? PlainJSONEncoder.encode(value) { return bytes }
        return Array(try makeEncoder().encode(value))
    }

    /// Appends `text` as a JSON string, escaped as `encode` escapes it: for envelopes written
    /// by hand around values encoded on their own.
    public static func appendString(_ text: String, to bytes: inout [UInt8]) throws {
        do {
            try PlainJSONString.append(text, to: &bytes)
        } catch {
            bytes += try makeEncoder().encode(text)
        }
    }

    /// Decodes `type` from `bytes`, which must be one strict RFC 8259 JSON text (see
    /// `JSONSyntaxError`): with `PlainJSONDecoder` when the JSON is plain, else (and for every
    /// error) with `JSONDecoder`, so the result and the errors are `JSONDecoder`'s, except that
    /// what is not valid JSON (`JSONDecoder` here takes trailing commas) throws
    /// `DecodingError.dataCorrupted` at the top level, with the `JSONSyntaxError` as its
    /// underlying error.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        // Not `try?`: an optional `T` here costs a lookup of its metadata on every call.
        do {
            return try PlainJSONDecoder.decode(type, from: bytes)
        } catch {
            return try decodeWithJSONDecoder(type, from: bytes)
        }
    }

    /// Decodes `type` from `bytes` as `decode` does when the plain decoder does not take them:
    /// a fault of the JSON itself first, else `JSONDecoder`'s value or error.
    static func decodeWithJSONDecoder<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        if let fault = JSONScanner.fault(in: bytes) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "Not valid JSON: \(fault).", underlyingError: fault))
        }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// Decodes `type` from part of a message (`bytes` is one JSON value).
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: ArraySlice<UInt8>) throws -> T {
        try decode(type, from: Array(bytes))
    }

    /// Types Foundation's JSON coders handle their own way rather than through their `Codable`
    /// conformance; the plain coders leave them to Foundation.
    static func isSpecialCased<T>(_ type: T.Type) -> Bool {
        type == Data.self || type == URL.self || type == Decimal.self || type == Date.self
    }

    /// Decodes `type` from `{}`: what an omitted payload or params object means.
    static func decodeFromEmptyObject<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data("{}".utf8))
    }
}
