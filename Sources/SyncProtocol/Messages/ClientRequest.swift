#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A message from a client to the server, with its envelope fields checked.
///
/// Payloads and params are not decoded here: their types belong to the app. The server decodes
/// them in a second step with `DispatchEnvelope` and `SubscribeEnvelope`, once it knows the type.
public enum ClientRequest: Equatable, Sendable {
    /// `hello {id, protocol, client, app?, clientId?, features?}`: must come first. `app` names
    /// the app the client belongs to (`AppIdentity.name`); a daemon serving another refuses it.
    /// `clientID` is passed on as sent; the server checks it against `ClientID`'s rules, so that
    /// a bad one gets its own error rather than the one for an undecodable hello. `features`
    /// names optional behaviours the client can handle (see `WireProtocol.features`).
    case hello(
        id: Int64, protocolVersion: Int, client: String, app: String? = nil, clientID: String?, features: [String] = [])
    /// `dispatch {id, action: {name, payload}, sequence?}`; a sequence is at least 1.
    case dispatch(id: Int64, actionName: String, sequence: UInt64?)
    /// `subscribe {id, viewModel, params}`.
    case subscribe(id: Int64, viewModel: String)
    /// `unsubscribe {id, subscription}`.
    case unsubscribe(id: Int64, subscription: Int64)
    /// `ping {id}`.
    case ping(id: Int64)
    /// `history {id, after?, limit?}`: journaled actions after version `after` (default: the
    /// latest `limit`), at most `limit` (default 20, at most 1000).
    case history(id: Int64, after: UInt64?, limit: Int)
    /// `get {id, viewModel, params, at?}`: the model once, at the current version or, with
    /// `at`, as it was at that past version.
    case get(id: Int64, viewModel: String, at: UInt64?)

    /// The largest `limit` a `history` request may ask for.
    public static let maximumHistoryLimit = 1000

    /// The request id the reply must echo.
    public var id: Int64 {
        switch self {
        case .hello(let id, _, _, _, _, _), .dispatch(let id, _, _), .subscribe(let id, _),
            .unsubscribe(let id, _), .ping(let id), .history(let id, _, _), .get(let id, _, _):
            return id
        }
    }

    /// Decodes one frame payload. Unknown fields are ignored. Frequent requests with plain
    /// fields are read in one pass without `JSONDecoder` (see `ClientEnvelope.init(scanning:)`).
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
        if let envelope = ClientEnvelope(scanning: payload) {
            return (try envelope.request(), envelope.payloadLocation)
        }
        return (try decodeWithJSONDecoder(payload), .unknown)
    }

    /// Decodes a payload with `JSONDecoder`, once it is known to be valid JSON: the reference for
    /// every request. Integer fields must be written as integers (`1e2` and `1.0` are not ids,
    /// though `JSONDecoder` would read them as 100 and 1).
    static func decodeWithJSONDecoder(_ payload: [UInt8]) throws(ProtocolError) -> ClientRequest {
        if let fault = JSONScanner.fault(in: payload) {
            throw ProtocolError(.invalidJSON, "The frame is not valid JSON: \(fault).")
        }
        let envelope: ClientEnvelope
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[ClientEnvelope.nonIntegerFieldsKey] = JSONObjectFields.keysOfNonIntegerNumbers(in: payload)
            envelope = try decoder.decode(ClientEnvelope.self, from: Data(payload))
        } catch {
            throw ProtocolError(
                .invalidMessage, "The message is not a JSON object with well-typed fields (\(describe(error))).")
        }
        return try envelope.request()
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

/// The envelope fields of a request. Only the fields of the message's own type are decoded
/// (a field of another type, however odd, is unknown to it and ignored); a bad value in one of
/// them is remembered, not thrown, so that the error can still echo the request's id.
private struct ClientEnvelope: Decodable {
    struct ActionName: Decodable { let name: String }

    private(set) var type: String?
    private(set) var id: Int64?
    private(set) var `protocol`: Int?
    private(set) var client: String?
    private(set) var app: String?
    private(set) var clientId: String?
    private(set) var features: [String]?
    private(set) var action: ActionName?
    private(set) var sequence: Int64?
    private(set) var viewModel: String?
    private(set) var subscription: Int64?
    private(set) var after: Int64?
    private(set) var limit: Int64?
    private(set) var at: Int64?
    /// The first of this type's fields whose value has the wrong type.
    private(set) var badField: String?
    /// Where a dispatch's payload is, when `init(scanning:)` read it.
    private(set) var payloadLocation = DispatchPayloadLocation.unknown

    private enum CodingKeys: String, CodingKey {
        case type, id, `protocol`, client, app, clientId, features, action, sequence, viewModel, subscription
        case after, limit, at
    }

    static let knownTypes: Set<String> = ["hello", "dispatch", "subscribe", "unsubscribe", "ping", "history", "get"]
    /// The types `init(scanning:)` reads: every request but the once-per-connection hello.
    static let scannedTypes: Set<String> = ["dispatch", "subscribe", "unsubscribe", "ping", "history"]

    /// The envelope of a request read in one pass of `JSONObjectFields`, without `JSONDecoder`,
    /// when its type is one of `scannedTypes` and each of that type's fields is absent or plain
    /// (a string without escapes, an integer without fraction or exponent, an action object
    /// with a plain name). `nil` for anything else, which `init(from:)` then judges, so both
    /// ways give the same request or the same error.
    init?(scanning payload: [UInt8]) {
        guard let fields = JSONObjectFields(payload), let type = fields.plainString("type"),
            Self.scannedTypes.contains(type)
        else { return nil }
        /// A field that is absent (`.some(nil)`) or plain; `nil` when present but not plain.
        func plain<T>(_ key: StaticString, _ read: (StaticString) -> T?) -> T?? {
            guard fields.member(key) != nil else { return .some(nil) }
            return read(key).map { .some($0) }
        }
        guard let id = plain("id", fields.plainInteger) else { return nil }
        self.type = type
        self.id = id
        switch type {
        case "dispatch":
            if let action = fields.member("action") {
                guard action.kind == .object, let actionFields = JSONObjectFields(payload, range: action.value),
                    let name = actionFields.plainString("name")
                else { return nil }
                self.action = ActionName(name: name)
                payloadLocation = DispatchPayloadLocation(in: actionFields)
            }
            guard let sequence = plain("sequence", fields.plainInteger) else { return nil }
            self.sequence = sequence
        case "subscribe":
            guard let viewModel = plain("viewModel", fields.plainString) else { return nil }
            self.viewModel = viewModel
        case "unsubscribe":
            guard let subscription = plain("subscription", fields.plainInteger) else { return nil }
            self.subscription = subscription
        case "history":
            guard let after = plain("after", fields.plainInteger), let limit = plain("limit", fields.plainInteger)
            else { return nil }
            self.after = after
            self.limit = limit
        default:
            break
        }
    }

    /// Where `init(from:)` finds the names of the fields written as numbers with a fraction or
    /// an exponent (a `Set<String>`; see `JSONObjectFields.keysOfNonIntegerNumbers`).
    static let nonIntegerFieldsKey = CodingUserInfoKey(rawValue: "nonIntegerFields")!

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let nonIntegers = decoder.userInfo[Self.nonIntegerFieldsKey] as? Set<String> ?? []
        type = try container.decodeIfPresent(String.self, forKey: .type)
        id = try container.decodeInteger(.id, refusing: nonIntegers)
        func field<T>(_ key: CodingKeys, _ decode: () throws -> T?) -> T? {
            do {
                return try decode()
            } catch {
                if badField == nil { badField = key.stringValue }
                return nil
            }
        }
        switch type {
        case "hello":
            `protocol` = field(.protocol) {
                try container.decodeInteger(.protocol, refusing: nonIntegers).map(Int.init)
            }
            client = field(.client) { try container.decodeIfPresent(String.self, forKey: .client) }
            app = field(.app) { try container.decodeIfPresent(String.self, forKey: .app) }
            clientId = field(.clientId) { try container.decodeIfPresent(String.self, forKey: .clientId) }
            features = field(.features) { try container.decodeIfPresent([String].self, forKey: .features) }
        case "dispatch":
            action = field(.action) { try container.decodeIfPresent(ActionName.self, forKey: .action) }
            sequence = field(.sequence) { try container.decodeInteger(.sequence, refusing: nonIntegers) }
        case "subscribe":
            viewModel = field(.viewModel) { try container.decodeIfPresent(String.self, forKey: .viewModel) }
        case "unsubscribe":
            subscription = field(.subscription) { try container.decodeInteger(.subscription, refusing: nonIntegers) }
        case "history":
            after = field(.after) { try container.decodeInteger(.after, refusing: nonIntegers) }
            limit = field(.limit) { try container.decodeInteger(.limit, refusing: nonIntegers) }
        case "get":
            viewModel = field(.viewModel) { try container.decodeIfPresent(String.self, forKey: .viewModel) }
            at = field(.at) { try container.decodeInteger(.at, refusing: nonIntegers) }
        default:
            break
        }
    }

    func request() throws(ProtocolError) -> ClientRequest {
        guard let type else {
            throw ProtocolError(.invalidMessage, "The message has no \"type\" field.", requestID: id)
        }
        guard Self.knownTypes.contains(type) else {
            throw ProtocolError(.unknownMessage, "Unknown message type \"\(type)\".", requestID: id)
        }
        guard let id else {
            throw ProtocolError(.invalidMessage, "A \"\(type)\" message needs an integer \"id\".")
        }
        if let badField {
            throw ProtocolError(
                .invalidMessage, "The field \"\(badField)\" of a \"\(type)\" message has the wrong type.", requestID: id
            )
        }
        func require<T>(_ value: T?, _ field: String) throws(ProtocolError) -> T {
            guard let value else {
                throw ProtocolError(
                    .invalidMessage, "A \"\(type)\" message needs the field \"\(field)\".", requestID: id)
            }
            return value
        }
        switch type {
        case "hello":
            return .hello(
                id: id, protocolVersion: try require(`protocol`, "protocol"), client: client ?? "", app: app,
                clientID: clientId,
                features: features ?? [])
        case "dispatch":
            guard sequence.map({ $0 >= 1 }) ?? true else {
                throw ProtocolError(.invalidMessage, "\"sequence\" must be an integer of at least 1.", requestID: id)
            }
            return .dispatch(
                id: id, actionName: try require(action, "action").name, sequence: sequence.map(UInt64.init))
        case "subscribe":
            return .subscribe(id: id, viewModel: try require(viewModel, "viewModel"))
        case "unsubscribe":
            return .unsubscribe(id: id, subscription: try require(subscription, "subscription"))
        case "history":
            let limit = limit ?? 20
            guard (1...Int64(ClientRequest.maximumHistoryLimit)).contains(limit) else {
                throw ProtocolError(
                    .invalidMessage, "\"limit\" must be from 1 to \(ClientRequest.maximumHistoryLimit).", requestID: id)
            }
            guard after.map({ $0 >= 0 }) ?? true else {
                throw ProtocolError(.invalidMessage, "\"after\" must not be negative.", requestID: id)
            }
            return .history(id: id, after: after.map(UInt64.init), limit: Int(limit))
        case "get":
            guard at.map({ $0 >= 0 }) ?? true else {
                throw ProtocolError(
                    .invalidMessage, "\"at\" must be a version: an integer of at least 0.", requestID: id)
            }
            return .get(id: id, viewModel: try require(viewModel, "viewModel"), at: at.map(UInt64.init))
        default:
            return .ping(id: id)
        }
    }
}

/// The typed payload of a `dispatch` frame: `{"action": {"payload": A}}`.
/// An omitted payload decodes as `{}`.
public struct DispatchEnvelope<Payload: Decodable>: Decodable {
    /// The decoded payload.
    public let payload: Payload

    private struct ActionField: Decodable {
        let payload: Payload
        enum CodingKeys: String, CodingKey { case payload }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard container.contains(.payload) else {
                payload = try WireJSON.decodeFromEmptyObject(Payload.self)
                return
            }
            // A payload is an object, even for an action with no fields (whose synthesized
            // decoding would accept anything).
            _ = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .payload)
            payload = try container.decode(Payload.self, forKey: .payload)
        }
    }
    private enum CodingKeys: String, CodingKey { case action }

    /// Decodes from a whole dispatch message.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        payload = try container.decode(ActionField.self, forKey: .action).payload
    }
}

/// The typed params of a `subscribe` frame: `{"params": P}`. Omitted params decode as `{}`.
public struct SubscribeEnvelope<Params: Decodable>: Decodable {
    /// The decoded params.
    public let params: Params

    private enum CodingKeys: String, CodingKey { case params }

    /// Decodes from a whole subscribe message.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.params) else {
            params = try WireJSON.decodeFromEmptyObject(Params.self)
            return
        }
        // Params are an object, even for a view model that takes none.
        _ = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .params)
        params = try container.decode(Params.self, forKey: .params)
    }
}

extension KeyedDecodingContainer {
    /// An optional integer field. A number that is not an integer (`1.5`), or one written with
    /// a fraction or an exponent (a key in `nonIntegers`: `1.0`, `1e2`), is a type mismatch, not
    /// the "invalid JSON" the decoder would otherwise report, so it becomes `invalid_message`.
    fileprivate func decodeInteger(_ key: Key, refusing nonIntegers: Set<String>) throws -> Int64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        guard !nonIntegers.contains(key.stringValue) else {
            throw DecodingError.typeMismatch(
                Int64.self, .init(codingPath: codingPath + [key], debugDescription: "not written as an integer"))
        }
        if let value = try? decode(Int64.self, forKey: key) { return value }
        throw DecodingError.typeMismatch(
            Int64.self, .init(codingPath: codingPath + [key], debugDescription: "not an integer"))
    }
}

/// Any key: for checking that a value is an object without decoding its members.
private struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
