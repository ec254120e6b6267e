/// Where the payload of a dispatch is in its message, as far as a scan with `JSONObjectFields`
/// found out: what lets the daemon decode only the payload's bytes (`WireJSON.decode`).
public enum DispatchPayloadLocation: Equatable, Sendable {
    /// `action.payload` is an object at these bytes of the message.
    case object(Range<Int>)
    /// The action has no `payload` (it means `{}`).
    case absent
    /// Not found out (the message was not scanned, or the payload is not an object): decode
    /// the whole message.
    case unknown

    /// Where the payload is, given the action's `payload` member (a scan of the action inside
    /// its message), `nil` when it has none.
    init(_ payload: JSONObjectFields.Member?) {
        guard let payload else {
            self = .absent
            return
        }
        self = payload.kind == .object ? .object(payload.value) : .unknown
    }

    /// Finds the payload of the dispatch `message` with a scan of its own.
    public init(scanning message: [UInt8]) {
        guard let fields = JSONObjectFields(message), let action = fields.member("action"), action.kind == .object,
            let actionFields = JSONObjectFields(message, range: action.value)
        else {
            self = .unknown
            return
        }
        self.init(actionFields.member("payload"))
    }
}

extension DispatchEnvelope {
    /// The payload of the dispatch `message`, whose payload is at `location`. Only the payload's
    /// bytes are decoded (`WireJSON.decode`) when the location is known; otherwise the whole message
    /// is, as a `DispatchEnvelope`. Either way the same payload, or an error that
    /// `shortDescription` words the same (the coding path lacks `action.payload`, which it
    /// leaves out anyway).
    public static func decodePayload(from message: [UInt8], at location: DispatchPayloadLocation) throws -> Payload {
        switch location {
        case .object(let range): return try WireJSON.decode(Payload.self, from: message[range])
        case .absent: return try WireJSON.decodeFromEmptyObject(Payload.self)
        case .unknown: return try WireJSON.decode(Self.self, from: message).payload
        }
    }
}

extension DispatchEnvelope where Payload: Encodable {
    /// The payload of the dispatch `message`, as `decodePayload` decodes it, with the bytes it
    /// was decoded from: the payload's own bytes when its location is known (`{}` when it is
    /// absent), else its encoding, decoded again, so that the payload is always what those
    /// bytes give. What the journal keeps as received.
    public static func decodeReceivedPayload(from message: [UInt8], at location: DispatchPayloadLocation) throws -> (
        payload: Payload, bytes: [UInt8]
    ) {
        let bytes: [UInt8]
        switch location {
        case .object(let range): bytes = Array(message[range])
        case .absent: bytes = Array("{}".utf8)
        case .unknown: bytes = try WireJSON.encode(try decodePayload(from: message, at: location))
        }
        return (try WireJSON.decode(Payload.self, from: bytes), bytes)
    }
}
