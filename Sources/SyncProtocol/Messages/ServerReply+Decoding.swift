extension ServerReply: Decodable {
    private enum CodingKeys: String, CodingKey {
        case type, id, version, subscription, base, entries, reason
    }

    /// Decodes the message by its `type`, each type's fields as that type has them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        func id() throws -> Int64 { try container.decode(Int64.self, forKey: .id) }
        func version() throws -> UInt64 { try container.decode(UInt64.self, forKey: .version) }
        func subscription() throws -> Int64 { try container.decode(Int64.self, forKey: .subscription) }
        switch type {
        case "welcome": self = .welcome(try Welcome(from: decoder))
        case "ack": self = .ack(id: try id(), version: try version())
        case "result": self = .result(id: try id(), version: try version())
        case "error": self = .error(try ErrorReply(from: decoder))
        case "subscribed": self = .subscribed(id: try id(), subscription: try subscription())
        case "update":
            self = .update(
                subscription: try subscription(), version: try version(),
                base: try container.decodeIfPresent(UInt64.self, forKey: .base))
        case "unsubscribed": self = .unsubscribed(id: try id(), subscription: try subscription())
        case "pong": self = .pong(id: try id())
        case "entries":
            self = .entries(id: try id(), entries: try container.decode([HistoryEntry].self, forKey: .entries))
        case "model": self = .model(id: try id(), version: try version())
        case "bye": self = .bye(reason: try container.decodeIfPresent(String.self, forKey: .reason))
        default: self = .unknown(type: type, id: try? container.decodeIfPresent(Int64.self, forKey: .id))
        }
    }

    /// The message types read without `JSONDecoder` when their fields are plain: the ones that
    /// come once per request or per update.
    private static let scannedTypes: Set<String> = ["ack", "update", "subscribed", "unsubscribed", "pong"]
    /// The fields those messages have; a message with any other field is left to `JSONDecoder`.
    private static let scannedKeys: Set<String> = ["type", "id", "version", "subscription", "base", "model", "patch"]

    /// Decodes one frame payload. Acks, updates and the other frequent replies are read with
    /// one pass of `JSONObjectFields` (an update's model is only skipped, not parsed: its
    /// subscription decodes it once, typed); anything else, or anything unusual in them, goes
    /// through `WireJSON.decode`, with the same result. What is not strict JSON throws either way.
    public static func decode(_ payload: [UInt8]) throws -> ServerReply {
        if let reply = scanned(payload) { return reply }
        return try WireJSON.decode(ServerReply.self, from: payload)
    }

    /// A frequent reply whose fields are all plain, else `nil`.
    static func scanned(_ payload: [UInt8]) -> ServerReply? {
        guard let fields = JSONObjectFields(payload), let type = fields.plainString("type"), scannedTypes.contains(type)
        else { return nil }
        for member in fields.members where !scannedKeys.contains(String(decoding: payload[member.key], as: UTF8.self)) {
            return nil
        }
        /// A field that is absent, or present with a plain value: anything else (a null, a
        /// fraction) is `JSONDecoder`'s to judge.
        func field<T>(_ key: StaticString, _ read: (StaticString) -> T?) -> T?? {
            guard fields.member(key) != nil else { return .some(nil) }
            guard let value = read(key) else { return nil }
            return .some(value)
        }
        guard let id = field("id", fields.plainInteger), let version = field("version", fields.plainUnsigned),
            let subscription = field("subscription", fields.plainInteger),
            let base = field("base", fields.plainUnsigned)
        else { return nil }
        switch (type, id, version, subscription) {
        case ("ack", let id?, let version?, nil): return .ack(id: id, version: version)
        case ("update", nil, let version?, let subscription?):
            return .update(subscription: subscription, version: version, base: base)
        case ("subscribed", let id?, nil, let subscription?): return .subscribed(id: id, subscription: subscription)
        case ("unsubscribed", let id?, nil, let subscription?): return .unsubscribed(id: id, subscription: subscription)
        case ("pong", let id?, nil, nil): return .pong(id: id)
        default: return nil
        }
    }
}
