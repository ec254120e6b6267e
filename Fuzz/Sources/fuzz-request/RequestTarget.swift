import FuzzSupport
import SyncProtocol

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
/// there gives what decoding the whole message gives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
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
        reference["type"] == .string(typeName(of: request)),
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
    case .object(let range):
        check(
            ReferenceJSON.parse(Array(input[range]))?.value == reference["action"]?["payload"],
            "the located payload is not action.payload")
    case .absent:
        check(reference["action"]?["payload"] == nil, "a payload said to be absent")
    case .unknown:
        break
    }
    let located = Result { try DispatchEnvelope<Payload>.decodePayload(from: input, at: location) }
    let whole = Result { try WireJSON.decode(DispatchEnvelope<Payload>.self, from: input).payload }
    check(
        (try? located.get()) == (try? whole.get()), "payload at the location \(located), in the whole message \(whole)")
    return 0
}

/// The first `id` of the reference's object, when it is an integer literal that fits `Int64`.
func firstID(of reference: ReferenceJSON.Value?) -> Int64? {
    guard case .number(let literal) = reference?["id"], ReferenceJSON.isIntegerLiteral(literal) else { return nil }
    return Int64(literal)
}

/// The wire name of a request's type.
func typeName(of request: ClientRequest) -> String {
    switch request {
    case .hello: return "hello"
    case .dispatch: return "dispatch"
    case .subscribe: return "subscribe"
    case .unsubscribe: return "unsubscribe"
    case .ping: return "ping"
    case .history: return "history"
    case .get: return "get"
    }
}
