/// Where the payload of a dispatch is in its message, as far as a scan with `JSONObjectFields`
/// found out: what lets the daemon decode only the payload's bytes, and, when the scan found
/// the payload plain, decode its top level from the members that scan found, without a second
/// look. A location is valid only for the message it was found in.
public enum DispatchPayloadLocation: Equatable, Sendable {
    /// `action.payload` is an object at these bytes of the message; `members` are its members
    /// (at their places in the message) when the scan found it plain (see
    /// `JSONScanner.isPlain`), else `nil`.
    case object(Range<Int>, members: [JSONObjectFields.Member]?)
    /// The action has no `payload` (it means `{}`).
    case absent
    /// Not found out (the message was not scanned, or the payload is not an object): decode
    /// the whole message.
    case unknown

    /// Where the payload is, given the action's `payload` member in `action` (a scan of the
    /// action inside its message), `nil` when it has none. The payload's members are those the
    /// same scan found (`JSONObjectFields.expandedObject`), if it found them plain.
    init(_ payload: JSONObjectFields.Member?, in action: JSONObjectFields) {
        self.init(payload) { payload in
            let scanned = action.expandedObject(payload)
            return scanned?.isKnownPlain == true ? scanned?.members : nil
        }
    }

    /// Finds the payload of the dispatch `message` with scans of its own: the message, its
    /// action, then its payload, each on its own (the one pass of `ClientRequest`'s decoding
    /// finds the same).
    public init(scanning message: [UInt8]) {
        guard let fields = JSONObjectFields(message), let action = fields.member("action"), action.kind == .object,
            let actionFields = JSONObjectFields(message, range: action.value)
        else {
            self = .unknown
            return
        }
        self.init(actionFields.member("payload")) { JSONObjectFields(plain: message, range: $0.value)?.members }
    }

    /// Where `payload` (the action's member, `nil` when it has none) is; `plainMembers` gives
    /// the members of an object payload that is plain.
    private init(
        _ payload: JSONObjectFields.Member?, plainMembers: (JSONObjectFields.Member) -> [JSONObjectFields.Member]?
    ) {
        guard let payload else {
            self = .absent
            return
        }
        self = payload.kind == .object ? .object(payload.value, members: plainMembers(payload)) : .unknown
    }
}

extension DispatchPayloadLocation {
    /// The payload of the dispatch `message`, whose payload is here, as `type`. Only the
    /// payload's bytes are decoded when the location is known: from the members the scan found
    /// when it found them plain, else with `WireJSON.decode`; otherwise the whole message is, as
    /// a `DispatchEnvelope`. Either way the same payload, or an error that `shortDescription`
    /// words the same (the coding path lacks `action.payload`, which it leaves out anyway).
    ///
    /// A method of the location, not a static one of `DispatchEnvelope<Payload>`: calling
    /// that from code generic over the payload (the daemon's, for every dispatch) asked the
    /// runtime for the envelope type's metadata each time.
    public func decodePayload<Payload: Decodable>(_ type: Payload.Type, from message: [UInt8]) throws -> Payload {
        switch self {
        case .object(let range, let members):
            guard let members else { return try WireJSON.decode(type, from: message[range]) }
            do {
                return try PlainJSONDecoder.decode(
                    type, object: JSONObjectFields(bytes: message, plainMembers: members), at: range)
            } catch {
                // Plain and valid, but not for the plain decoder (a `Date`, a throwing
                // `init(from:)`): what `WireJSON.decode` would end with, without its second
                // plain attempt.
                return try WireJSON.decodeWithJSONDecoder(type, from: Array(message[range]))
            }
        case .absent: return try WireJSON.decodeFromEmptyObject(type)
        case .unknown: return try Self.decodeEnvelope(type, from: message)
        }
    }

    /// The payload of the whole dispatch `message`, decoded as a `DispatchEnvelope`. A function
    /// of its own, never inlined: in `decodePayload` the compiler asked the runtime for the
    /// envelope type's metadata on entry, whichever case the location was, which cost every
    /// dispatch about 330 instructions.
    @inline(never)
    private static func decodeEnvelope<Payload: Decodable>(_ type: Payload.Type, from message: [UInt8]) throws
        -> Payload
    {
        try WireJSON.decode(DispatchEnvelope<Payload>.self, from: message).payload
    }

    /// The payload of the dispatch `message`, as `decodePayload` decodes it, with the bytes it
    /// was decoded from: the payload's own bytes when its location is known (`{}` when it is
    /// absent), else its encoding, decoded again, so that the payload is always what those
    /// bytes give. What the journal keeps as received.
    public func decodeReceivedPayload<Payload: Codable>(_ type: Payload.Type, from message: [UInt8]) throws -> (
        payload: Payload, bytes: [UInt8]
    ) {
        switch self {
        case .object(let range, _):
            return (try decodePayload(type, from: message), Array(message[range]))
        case .absent:
            let bytes = Array("{}".utf8)
            return (try WireJSON.decode(type, from: bytes), bytes)
        case .unknown:
            let bytes = try WireJSON.encode(try decodePayload(type, from: message))
            return (try WireJSON.decode(type, from: bytes), bytes)
        }
    }
}
