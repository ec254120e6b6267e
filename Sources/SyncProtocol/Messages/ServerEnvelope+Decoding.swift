extension ServerEnvelope {
    /// The message types read without `JSONDecoder` when their fields are plain: the ones that
    /// come once per request or per update.
    private static let scannedTypes: Set<String> = ["ack", "update", "subscribed", "unsubscribed", "pong"]
    /// The fields those messages have; a message with any other field is left to `JSONDecoder`.
    private static let scannedKeys: Set<String> = ["type", "id", "version", "subscription", "base", "model", "patch"]

    /// Decodes one frame payload. Acks, updates and the other frequent replies are read with
    /// one pass of `JSONObjectFields` (an update's model is only skipped, not parsed: its
    /// subscription decodes it once, typed); anything else, or anything unusual in them, goes
    /// through `WireJSON.decode`, with the same result. What is not strict JSON throws either way.
    public static func decode(_ payload: [UInt8]) throws -> ServerEnvelope {
        if let envelope = scanned(payload) { return envelope }
        return try WireJSON.decode(ServerEnvelope.self, from: payload)
    }

    /// The envelope of a frequent reply whose fields are all plain, else `nil`.
    static func scanned(_ payload: [UInt8]) -> ServerEnvelope? {
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
        return ServerEnvelope(
            type: type, id: id, version: version, subscription: subscription, code: nil, message: nil, supported: nil,
            protocol: nil,
            server: nil, app: nil, entries: nil, reason: nil, clientID: nil, lastSequence: nil, features: nil,
            base: base,
            log: nil, result: nil)
    }
}
