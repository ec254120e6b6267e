#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

/// Any key: for checking that a value is an object without decoding its members.
private struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
