/// A message from the server to a client, as the daemon writes it.
public enum ServerMessage: Sendable {
    /// The answer to `hello`, with the fields a client reads back.
    case welcome(ServerReply.Welcome)
    /// The action of request `id` was applied; the state is now at `version` (or later).
    case ack(id: Int64, version: UInt64)
    /// The dispatched side effect of request `id` finished with `result` (its encoded JSON);
    /// every action it dispatched is durable, and the state is now at `version` (or later).
    case result(id: Int64, version: UInt64, result: [UInt8])
    /// A request failed, or the connection broke a rule. `supported` lists the protocol
    /// versions the server speaks, for `unsupported_protocol`.
    case error(ProtocolError, supported: [Int]? = nil)
    /// The answer to `subscribe`.
    case subscribed(id: Int64, subscription: Int64)
    /// A new model for a subscription. `model` is the model's encoded JSON (`null` for none):
    /// the daemon encodes each model once and splices the same bytes into every update.
    case update(subscription: Int64, version: UInt64, model: [UInt8])
    /// A new model for a subscription as the change from the model of the last update the
    /// client received for it (at version `base`): `patch` is an encoded RFC 6902 JSON Patch,
    /// computed once per view and version and spliced into every such update.
    case patch(subscription: Int64, version: UInt64, base: UInt64, patch: [UInt8])
    /// The answer to `unsubscribe`.
    case unsubscribed(id: Int64, subscription: Int64)
    /// The answer to `ping`.
    case pong(id: Int64)
    /// The answer to `history`: journaled actions, oldest first, as the encoded JSON array of
    /// their `HistoryEntry`s (encoded off the daemon's loop thread, then spliced in).
    case entries(id: Int64, entries: [UInt8])
    /// The answer to `get`: the model (encoded JSON, `null` for none) at `version`.
    case model(id: Int64, version: UInt64, model: [UInt8])
    /// The daemon is closing this connection on purpose (it is stopping); nothing follows.
    case bye(reason: String)

    /// The JSON payload of this message (keys sorted), ready to be framed.
    public func encoded() -> [UInt8] {
        switch self {
        case .welcome(let welcome):
            return Self.encode(Typed(type: "welcome", fields: welcome))
        case .ack(let id, let version):
            // The most frequent reply, written by hand with the bytes the encoder would write.
            return Array(#"{"id":\#(id),"type":"ack","version":\#(version)}"#.utf8)
        case .result(let id, let version, let result):
            // Keys in the order the sorted-keys encoder writes them; the result's bytes as they are.
            return Array(#"{"id":\#(id),"result":"#.utf8) + result
                + Array(#","type":"result","version":\#(version)}"#.utf8)
        case .error(let error, let supported):
            return Self.encode(Typed(type: "error", fields: ServerReply.ErrorReply(error, supported: supported)))
        case .subscribed(let id, let subscription):
            return Array(#"{"id":\#(id),"subscription":\#(subscription),"type":"subscribed"}"#.utf8)
        case .unsubscribed(let id, let subscription):
            return Array(#"{"id":\#(id),"subscription":\#(subscription),"type":"unsubscribed"}"#.utf8)
        case .pong(let id):
            return Array(#"{"id":\#(id),"type":"pong"}"#.utf8)
        case .bye(let reason):
            return Self.encode(Bye(reason: reason))
        case .update, .patch, .model, .entries:
            return spliced(framed: false)
        }
    }

    /// The frame carrying this message. Updates, models and history entries are spliced
    /// straight into the frame, so their encoded bytes are copied once (per subscriber).
    public func framed() -> [UInt8] {
        switch self {
        case .update, .patch, .model, .entries: return spliced(framed: true)
        case .ack(let id, let version): return Self.framedAck(id: id, version: version)
        default: return FrameEncoder.frame(encoded())
        }
    }

    /// An ack's frame, header and payload in one array written once: the reply of every
    /// dispatch, so no string and no second array is made for it.
    private static func framedAck(id: Int64, version: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(WireProtocol.headerLength + 64)
        bytes.append(contentsOf: [0, 0, 0, 0])
        bytes.append(contentsOf: #"{"id":"#.utf8)
        JSONDigits.append(id, to: &bytes)
        bytes.append(contentsOf: #","type":"ack","version":"#.utf8)
        JSONDigits.append(version, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        let length = UInt32(bytes.count - WireProtocol.headerLength)
        for index in 0..<WireProtocol.headerLength {
            bytes[index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index))
        }
        return bytes
    }

    /// An update's payload, or its frame, built by hand so the model or patch bytes are reused
    /// as they are; key order matches what the sorted-keys encoder writes for other messages.
    private func spliced(framed: Bool) -> [UInt8] {
        let (head, body, tail): (String, [UInt8], String)
        switch self {
        case .update(let subscription, let version, let model):
            (head, body, tail) = (
                #"{"model":"#, model, #","subscription":\#(subscription),"type":"update","version":\#(version)}"#
            )
        case .patch(let subscription, let version, let base, let patch):
            (head, body, tail) = (
                #"{"base":\#(base),"patch":"#, patch,
                #","subscription":\#(subscription),"type":"update","version":\#(version)}"#
            )
        case .model(let id, let version, let model):
            (head, body, tail) = (#"{"id":\#(id),"model":"#, model, #","type":"model","version":\#(version)}"#)
        case .entries(let id, let entries):
            (head, body, tail) = (#"{"entries":"#, entries, #","id":\#(id),"type":"entries"}"#)
        default:
            preconditionFailure("only updates, models and history entries are spliced")
        }
        let length = head.utf8.count + body.count + tail.utf8.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + WireProtocol.headerLength)
        if framed { FrameEncoder.appendHeader(length: length, to: &bytes) }
        bytes.append(contentsOf: head.utf8)
        bytes.append(contentsOf: body)
        bytes.append(contentsOf: tail.utf8)
        return bytes
    }

    private static func encode(_ value: some Encodable) -> [UInt8] {
        do {
            return try WireJSON.encode(value)
        } catch {
            preconditionFailure("server messages hold only strings and integers: \(error)")
        }
    }

    /// A reply's fields with its `type` beside them.
    private struct Typed<Fields: Encodable>: Encodable {
        let type: String
        let fields: Fields

        private enum CodingKeys: String, CodingKey { case type }

        func encode(to encoder: any Encoder) throws {
            try fields.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
        }
    }

    private struct Bye: Encodable {
        let type = "bye"
        let reason: String
    }
}
