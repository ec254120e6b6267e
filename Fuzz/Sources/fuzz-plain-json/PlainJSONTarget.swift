import FuzzSupport
import TodoDomain

@testable import SyncProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The project's JSON readers against `ReferenceJSON`, a strict reader written independently:
///
/// - the scanner's verdict is the reference's (valid or not);
/// - what is not JSON decodes nowhere: not with `PlainJSONDecoder`, not with `WireJSON.decode`,
///   which refuses it as invalid JSON, however lenient `JSONDecoder` behind it is;
/// - valid JSON is never refused as invalid JSON;
/// - on plain JSON the plain decoder gives the reference's value (and `JSONDecoder`'s), and a
///   typed decoding of the todo app's state, models and item actions (these through
///   `PlainObjectDecodable`) gives what `JSONDecoder` gives, and the state encodes (through
///   `PlainObjectEncodable`) to what `JSONEncoder` writes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlainJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let reference = ReferenceJSON.parse(input)
    let fault = JSONScanner.fault(in: input)
    check(
        (fault == nil) == (reference != nil),
        "verdicts differ: scanner \(fault.map { "\($0)" } ?? "valid"), reference \(reference == nil ? "invalid" : "valid")"
    )
    let plain = try? PlainJSONDecoder.decode(JSONValue.self, from: input)
    let wire = Result { try WireJSON.decode(JSONValue.self, from: input) }
    guard let reference else {
        check(plain == nil, "the plain decoder took invalid JSON: \(String(describing: plain))")
        if case .success(let value) = wire { check(false, "WireJSON.decode took invalid JSON: \(value)") }
        if case .failure(let error) = wire {
            check(isSyntaxError(error), "invalid JSON refused for another reason: \(error)")
        }
        return 0
    }
    if case .failure(let error) = wire { check(!isSyntaxError(error), "valid JSON refused as invalid: \(error)") }
    if let plain {
        check(reference.isPlain, "the plain decoder took JSON that is not plain")
        let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(input))
        check(plain == foundation, "plain decoder \(plain), JSONDecoder \(String(describing: foundation))")
    }
    if reference.isPlain {
        let expected = jsonValue(reference.value)
        check(
            plain == expected, "plain decoder \(String(describing: plain)), reference \(String(describing: expected))")
    }
    decodesAlike(TodoState.self, input)
    encodesAlike(TodoState.self, input)
    decodesAlike(ListViewModel.self, input)
    decodesAlike(ExportViewModel.self, input)
    decodesAlike(ItemViewModel.self, input)
    decodesAlike([String: [Int16]].self, input)
    decodesAlike(encoding: AddItem.self, input)
    decodesAlike(encoding: CompleteItem.self, input)
    decodesAlike(encoding: ReopenItem.self, input)
    decodesAlike(encoding: EditItem.self, input)
    decodesAlike(encoding: RemoveItem.self, input)
    return 0
}

/// Whether `error` is `WireJSON.decode`'s refusal of what is not JSON.
func isSyntaxError(_ error: any Error) -> Bool {
    guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
    return context.underlyingError is JSONSyntaxError
}

/// What `JSONValue` decodes a plain document to: integers that fit `Int64` exactly, other
/// numbers as doubles; `nil` where no value can be had (a number beyond `Double`).
func jsonValue(_ value: ReferenceJSON.Value) -> JSONValue? {
    switch value {
    case .null: return .null
    case .bool(let bool): return .bool(bool)
    case .number(let literal):
        if let integer = Int64(literal) { return .integer(integer) }
        guard let double = Double(literal), double.isFinite else { return nil }
        return .number(double)
    case .string(let string): return .string(string)
    case .array(let elements):
        let values = elements.compactMap(jsonValue)
        return values.count == elements.count ? .array(values) : nil
    case .object(let members):
        var object: [String: JSONValue] = [:]
        for member in members {
            guard let value = jsonValue(member.value) else { return nil }
            object[member.key] = value
        }
        return .object(object)
    }
}

/// When the plain decoder decodes `T`, `JSONDecoder` gives the same value.
func decodesAlike<T: Decodable & Equatable>(_ type: T.Type, _ input: [UInt8]) {
    guard let plain = try? PlainJSONDecoder.decode(type, from: input) else { return }
    let foundation = Result { try JSONDecoder().decode(type, from: Data(input)) }
    check((try? foundation.get()) == plain, "\(T.self): plain decoder \(plain), JSONDecoder \(foundation)")
}

/// When `input` decodes as `T`, the wire's encoding of it (through `PlainObjectEncodable`
/// writers where `T`'s values have them) gives `JSONEncoder`'s bytes.
func encodesAlike<T: Codable>(_ type: T.Type, _ input: [UInt8]) {
    guard let value = try? JSONDecoder().decode(type, from: Data(input)) else { return }
    let wire = try? WireJSON.encode(value)
    let foundation = try? Array(WireJSON.makeEncoder().encode(value))
    check(
        wire == foundation,
        "\(T.self): wire \(wire.map { String(decoding: $0, as: UTF8.self) } ?? "nil"), JSONEncoder \(foundation.map { String(decoding: $0, as: UTF8.self) } ?? "nil")"
    )
}

/// `decodesAlike` for a type that is not `Equatable` (the actions, which read themselves
/// through `PlainObjectDecodable`): the two values encode alike.
func decodesAlike<T: Codable>(encoding type: T.Type, _ input: [UInt8]) {
    guard let plain = try? PlainJSONDecoder.decode(type, from: input) else { return }
    let foundation = Result { try JSONDecoder().decode(type, from: Data(input)) }
    check(
        (try? foundation.get()).flatMap { try? WireJSON.encode($0) } == (try? WireJSON.encode(plain)),
        "\(T.self): plain decoder \(plain), JSONDecoder \(foundation)")
}
