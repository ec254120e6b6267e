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
        case .ack(let id, let version): return Self.withFramedAck(id: id, version: version) { Array($0) }
        default: return FrameEncoder.frame(encoded())
        }
    }

    /// Appends the frame carrying this message to `bytes`. An ack, the reply of every dispatch,
    /// is written on the stack and copied once: no array of its own.
    public func appendFramed(to bytes: inout [UInt8]) {
        guard case .ack(let id, let version) = self else { return bytes.append(contentsOf: framed()) }
        Self.withFramedAck(id: id, version: version) { bytes.append(contentsOf: $0) }
    }

    /// Hands `body` an ack's frame, header and payload written once through a pointer on the
    /// stack: no string, no array and no per-byte capacity check.
    private static func withFramedAck<Result>(
        id: Int64, version: UInt64, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let head: StaticString = #"{"id":"#
        let middle: StaticString = #","type":"ack","version":"#
        let digits = 2 * JSONDigits.maximumWrittenCount
        let capacity = WireProtocol.headerLength + head.utf8CodeUnitCount + middle.utf8CodeUnitCount + digits + 1
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let frame = buffer.baseAddress!
            var end = WireProtocol.headerLength
            end += copy(head, to: frame + end)
            end += JSONDigits.write(id, at: frame + end)
            end += copy(middle, to: frame + end)
            end += JSONDigits.write(version, at: frame + end)
            frame[end] = UInt8(ascii: "}")
            end += 1
            let length = UInt32(end - WireProtocol.headerLength)
            for index in 0..<WireProtocol.headerLength {
                frame[index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index))
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<end]))
        }
    }

    /// Copies `text`'s bytes to `destination`; returns how many.
    private static func copy(_ text: StaticString, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        destination.initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return text.utf8CodeUnitCount
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
