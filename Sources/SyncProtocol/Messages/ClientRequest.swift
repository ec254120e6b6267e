#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A message from a client to the server, with its envelope fields checked: one case per
/// request type, each holding that type's description (`RequestMessage`).
///
/// Payloads and params are not decoded here: their types belong to the app. The server decodes
/// them in a second step with `DispatchEnvelope` and `SubscribeEnvelope`, once it knows the type.
public enum ClientRequest: Equatable, Sendable {
    /// `hello`: must come first.
    case hello(HelloRequest)
    /// `dispatch`: an action or a side effect.
    case dispatch(DispatchRequest)
    /// `batch`: several actions, all or nothing.
    case batch(BatchRequest)
    /// `subscribe`: a view model's updates.
    case subscribe(SubscribeRequest)
    /// `unsubscribe`: no more of a subscription's updates.
    case unsubscribe(UnsubscribeRequest)
    /// `ping`.
    case ping(PingRequest)
    /// `history`: journaled actions.
    case history(HistoryRequest)
    /// `get`: a model once.
    case get(GetRequest)

    /// The request id the reply must echo.
    public var id: Int64 {
        // A switch rather than `message.id`: a request read through `message` is boxed in an
        // existential, one allocation per dispatch on the hot path.
        switch self {
        case .hello(let request): return request.id
        case .dispatch(let request): return request.id
        case .batch(let request): return request.id
        case .subscribe(let request): return request.id
        case .unsubscribe(let request): return request.id
        case .ping(let request): return request.id
        case .history(let request): return request.id
        case .get(let request): return request.id
        }
    }

    /// Why a well-typed request is refused, if it is (the request's own `refusal()`), read
    /// without boxing it.
    func refusal() -> String? {
        switch self {
        case .dispatch(let request): return request.refusal()
        case .batch(let request): return request.refusal()
        default: return message.refusal()
        }
    }

    /// The request's own description.
    public var message: any RequestMessage {
        switch self {
        case .hello(let request): return request
        case .dispatch(let request): return request
        case .batch(let request): return request
        case .subscribe(let request): return request
        case .unsubscribe(let request): return request
        case .ping(let request): return request
        case .history(let request): return request
        case .get(let request): return request
        }
    }

    /// Reads the request of `type` with `reader`, or `nil` for a type no request has: the one
    /// place where a wire type meets its case.
    static func read(type: String, id: Int64, with reader: inout some RequestFieldVisitor) -> ClientRequest? {
        switch type {
        case HelloRequest.type: return .hello(.read(id: id, with: &reader))
        case DispatchRequest.type: return .dispatch(.read(id: id, with: &reader))
        case BatchRequest.type: return .batch(.read(id: id, with: &reader))
        case SubscribeRequest.type: return .subscribe(.read(id: id, with: &reader))
        case UnsubscribeRequest.type: return .unsubscribe(.read(id: id, with: &reader))
        case PingRequest.type: return .ping(.read(id: id, with: &reader))
        case HistoryRequest.type: return .history(.read(id: id, with: &reader))
        case GetRequest.type: return .get(.read(id: id, with: &reader))
        default: return nil
        }
    }

    /// Decodes one frame payload. Unknown fields are ignored. Requests with plain fields are
    /// read in one pass without `JSONDecoder` (see `RequestScan`).
    public static func decode(_ payload: [UInt8]) throws(ProtocolError) -> ClientRequest {
        try decodeLocatingPayload(payload).request
    }

    /// Decodes one frame payload as `decode` does, and says where a dispatch's payload is, as
    /// far as that pass found out, so that decoding it needs no second look at the message.
    ///
    /// A payload that is not one strict RFC 8259 JSON text is `invalid_json` (see
    /// `JSONSyntaxError`), wherever the fault is: the scan of the fast path checks every byte,
    /// and anything it does not take is checked whole before `JSONDecoder`, which is lenient
    /// here, sees it.
    public static func decodeLocatingPayload(_ payload: [UInt8]) throws(ProtocolError) -> (
        request: ClientRequest, payload: DispatchPayloadLocation
    ) {
        if let scanned = try scanned(payload) { return scanned }
        return (try decodeWithJSONDecoder(payload), .unknown)
    }

    /// What the one pass over a request scans besides its top level: a dispatch's action and
    /// the action's payload. (A constant, so that no request allocates the path.)
    private static let dispatchPayloadPath: [StaticString] = ["action", "payload"]

    /// The request read by `RequestScan`, or `nil` when its type is unknown or a field is not
    /// plain (the reference decoder then reads it).
    static func scanned(_ payload: [UInt8]) throws(ProtocolError) -> (
        request: ClientRequest, payload: DispatchPayloadLocation
    )? {
        guard let fields = JSONObjectFields(payload, expanding: dispatchPayloadPath),
            let type = fields.plainString("type")
        else { return nil }
        var id: Int64?
        if let member = fields.member("id") {
            guard let plain = fields.plainInteger(member) else { return nil }
            id = plain
        }
        var scan = RequestScan(fields: fields)
        guard let request = read(type: type, id: id ?? 0, with: &scan), scan.isPlain else { return nil }
        try check(request, type: type, id: id, badField: nil, missing: scan.missing)
        guard case .dispatch = request else { return (request, .unknown) }
        return (request, scan.attachment)
    }

    /// Decodes a payload with `JSONDecoder`, once it is known to be valid JSON: the reference for
    /// every request. Integer fields must be written as integers (`1e2` and `1.0` are not ids,
    /// though `JSONDecoder` would read them as 100 and 1).
    static func decodeWithJSONDecoder(_ payload: [UInt8]) throws(ProtocolError) -> ClientRequest {
        if let fault = JSONScanner.fault(in: payload) {
            throw ProtocolError(.invalidJSON, "The frame is not valid JSON: \(fault).")
        }
        let decoded: DecodedRequest
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[DecodedRequest.nonIntegerFieldsKey] = JSONObjectFields.keysOfNonIntegerNumbers(in: payload)
            decoded = try decoder.decode(DecodedRequest.self, from: Data(payload))
        } catch {
            throw ProtocolError(
                .invalidMessage, "The message is not a JSON object with well-typed fields (\(describe(error))).")
        }
        guard let type = decoded.type else {
            throw ProtocolError(.invalidMessage, "The message has no \"type\" field.", requestID: decoded.id)
        }
        guard let request = decoded.request else {
            throw ProtocolError(.unknownMessage, "Unknown message type \"\(type)\".", requestID: decoded.id)
        }
        try check(request, type: type, id: decoded.id, badField: decoded.badField, missing: decoded.missing)
        return request
    }

    /// Refuses a request read with a field absent or of the wrong type, or one its own rules
    /// refuse, in that order.
    private static func check(
        _ request: ClientRequest, type: String, id: Int64?, badField: String?, missing: StaticString?
    ) throws(ProtocolError) {
        guard let id else {
            throw ProtocolError(.invalidMessage, "A \"\(type)\" message needs an integer \"id\".")
        }
        if let badField {
            throw ProtocolError(
                .invalidMessage, "The field \"\(badField)\" of a \"\(type)\" message has the wrong type.", requestID: id
            )
        }
        if let missing {
            throw ProtocolError(.invalidMessage, "A \"\(type)\" message needs the field \"\(missing)\".", requestID: id)
        }
        if let refusal = request.refusal() {
            throw ProtocolError(.invalidMessage, refusal, requestID: id)
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "top level" : "field \(path)"
        default:
            return "undecodable"
        }
    }
}

extension RequestMessage {
    /// The request of `id` whose fields `reader` fills in.
    static func read(id: Int64, with reader: inout some RequestFieldVisitor) -> Self {
        var request = Self(id: id)
        request.visitFields(&reader)
        return request
    }
}

/// A request as the reference decoder reads it: its `type` and `id`, then the fields of its
/// type only (a field of another type, however odd, is unknown to it and ignored).
private struct DecodedRequest: Decodable {
    /// Where `init(from:)` finds the names of the fields written as numbers with a fraction or
    /// an exponent (a `Set<String>`; see `JSONObjectFields.keysOfNonIntegerNumbers`).
    static let nonIntegerFieldsKey = CodingUserInfoKey(rawValue: "nonIntegerFields")!

    let type: String?
    let id: Int64?
    let request: ClientRequest?
    let badField: String?
    let missing: StaticString?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RequestKey.self)
        let nonIntegers = decoder.userInfo[Self.nonIntegerFieldsKey] as? Set<String> ?? []
        let type = try container.decodeIfPresent(String.self, forKey: RequestKey("type"))
        let id = try Int64.decode(RequestKey("id"), from: container, refusing: nonIntegers)
        var decoding = RequestDecoding(container, nonIntegers: nonIntegers)
        self.type = type
        self.id = id
        request = type.flatMap { ClientRequest.read(type: $0, id: id ?? 0, with: &decoding) }
        badField = decoding.badField
        missing = decoding.missing
    }
}
