import FuzzSupport

@testable import SyncProtocol

/// A dispatch payload with a few field types, decoded from the located payload and from the
/// whole message.
struct Payload: Decodable, Equatable {
    var number: Int?
    var text: String?
    var tags: [String]?
    var done: Bool
}

/// Request parsing (`ClientRequest.decodeLocatingPayload`) against `ReferenceJSON`: invalid JSON
/// is `invalid_json` and nothing else is; a decoded request has the reference's type and its
/// first `id`, written as an integer literal; a dispatch's payload location points at the
/// reference's `action.payload` (or says it is absent, or unknown), and decoding the payload
/// there gives what decoding the whole message gives. And the two readers of one description:
/// what the fast-path scan takes, the reference decoder (`JSONDecoder`) reads the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    compareScanWithReferenceDecoder(input)
    let reference = ReferenceJSON.parse(input)?.value
    let request: ClientRequest
    let location: DispatchPayloadLocation
    do {
        (request, location) = try ClientRequest.decodeLocatingPayload(input)
    } catch {
        check(
            (error.code == .invalidJSON) == (reference == nil),
            "\(error.code) (\(error.message)) for \(reference == nil ? "invalid" : "valid") JSON")
        if let id = error.requestID { check(id == firstID(of: reference), "the error echoes id \(id)") }
        return 0
    }
    guard let reference else {
        check(false, "decoded a request from invalid JSON: \(request)")
        return 0
    }
    check(
        reference["type"] == .string(type(of: request.message).type),
        "type \(String(describing: reference["type"])) decoded as \(request)")
    check(firstID(of: reference) == request.id, "id \(String(describing: reference["id"])) decoded as \(request.id)")
    check(
        location == .unknown || location == DispatchPayloadLocation(scanning: input),
        "location \(location), a scan of its own finds \(DispatchPayloadLocation(scanning: input))")
    guard case .dispatch = request else {
        check(location == .unknown, "a payload location for \(request)")
        return 0
    }
    switch location {
    case .object(let range, _):
        check(
            ReferenceJSON.parse(Array(input[range]))?.value == reference["action"]?["payload"],
            "the located payload is not action.payload")
    case .absent:
        check(reference["action"]?["payload"] == nil, "a payload said to be absent")
    case .unknown:
        break
    }
    let located = Result { try location.decodePayload(Payload.self, from: input) }
    let whole = Result { try WireJSON.decode(DispatchEnvelope<Payload>.self, from: input).payload }
    check(
        (try? located.get()) == (try? whole.get()), "payload at the location \(located), in the whole message \(whole)")
    return 0
}

/// The scan (`ClientRequest.scanned`), when it takes `input`, gives the request or the error
/// that `JSONDecoder` gives (`ClientRequest.decodeWithJSONDecoder`).
func compareScanWithReferenceDecoder(_ input: [UInt8]) {
    let scanned = Result { () throws(ProtocolError) in try ClientRequest.scanned(input)?.request }
    if case .success(nil) = scanned { return }
    let decoded = Result { () throws(ProtocolError) in try ClientRequest.decodeWithJSONDecoder(input) }
    check(
        scanned.map { $0 } == decoded.map { Optional($0) },
        "the scan read \(scanned), the reference decoder \(decoded)")
}

/// The first `id` of the reference's object, when it is an integer literal that fits `Int64`.
func firstID(of reference: ReferenceJSON.Value?) -> Int64? {
    guard case .number(let literal) = reference?["id"], ReferenceJSON.isIntegerLiteral(literal) else { return nil }
    return Int64(literal)
}
